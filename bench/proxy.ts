/**
 * What `conformance proxy` adds to each exchange: the median added latency of small requests sent
 * one at a time (through the proxy minus direct, same server), and the exchanges per second it
 * relays and judges with 16 clients at once.
 */
import { request } from 'undici';
import { startTrafficProxy } from '../app/traffic/proxy.js';
import { DEFAULT_TOKEN } from '../reference/index.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const PATH = '/v1/data-import/account-transfer-status/SUPPLIER_ONGOING/BENCH-PROXY/';
const headers = { authorization: `Token ${DEFAULT_TOKEN}` };

async function timed(base: string): Promise<number> {
  const started = performance.now();
  const res = await request(`${base}${PATH}`, { headers });
  await res.body.dump();
  return performance.now() - started;
}

export async function proxyOverhead(targetUrl: string, samples = 1000) {
  const proxy = await startTrafficProxy({ target: targetUrl });
  try {
    for (let i = 0; i < 200; i++) await timed(proxy.url); // warm the JIT and the connection pools
    const direct: number[] = [];
    const proxied: number[] = [];
    // Interleaved, so that a slower moment of the machine weighs on both alike.
    for (let i = 0; i < samples; i++) {
      direct.push(await timed(targetUrl));
      proxied.push(await timed(proxy.url));
    }
    const total = 4000;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next++ < total) await timed(proxy.url);
      }),
    );
    const perSecond = total / ((performance.now() - started) / 1000);
    return { addedMs: median(proxied) - median(direct), perSecond, findings: proxy.judge.findings.length };
  } finally {
    await proxy.close();
  }
}
