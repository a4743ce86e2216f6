/**
 * What a long `conformance proxy` session costs: the memory of the proxy (the built CLI, as a user
 * runs it) after exchanges of 15 MiB each way, and whether the secrets it has learned slow its
 * relay down (a proxy that has seen 1,000 tokens against a fresh one, interleaved).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { startTrafficProxy } from '../app/traffic/proxy.js';
import { DEFAULT_TOKEN } from '../reference/index.js';

const CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));
const MiB = 1024 * 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kbOf = (text: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);

/**
 * The proxy's resident memory after `count` exchanges of 15 MiB each way (a 15 MiB request to the
 * validate endpoint, a 15 MiB answer), with --har on: VmRSS after the last one (the median of
 * `repeats` sessions: what the garbage collector has given back by then varies from one to the
 * next), and the highest peak (VmHWM). Linux only (/proc); elsewhere undefined.
 */
export async function proxyRss(
  count = 12,
  repeats = 3,
): Promise<{ afterMb: number; peakMb: number; runs: number[] } | undefined> {
  const runs: { afterMb: number; peakMb: number }[] = [];
  for (let i = 0; i < repeats; i++) {
    const run = await oneSession(count);
    if (!run) return undefined;
    runs.push(run);
  }
  return {
    afterMb: median(runs.map((r) => r.afterMb)),
    peakMb: runs.reduce((most, r) => Math.max(most, r.peakMb), 0),
    runs: runs.map((r) => r.afterMb),
  };
}

async function oneSession(count: number): Promise<{ afterMb: number; peakMb: number } | undefined> {
  const body = (field: string) => `{"${field}":"${'x'.repeat(15 * MiB)}"}`;
  const answer = body('echo');
  const target = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const dir = mkdtempSync(join(tmpdir(), 'bench-proxy-rss-'));
  const child = spawn(process.execPath, [
    CLI,
    'proxy',
    '--target',
    `http://127.0.0.1:${(target.address() as AddressInfo).port}`,
    '--reporter',
    'json',
    '--report-dir',
    join(dir, 'out'),
    '--har',
    join(dir, 'session.har'),
  ]);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const found = /on (http:\/\/\S+)/.exec(out);
        if (found) resolve(found[1]);
      });
      child.on('error', reject);
      child.on('close', (code) => reject(new Error(`conformance proxy exited ${code}`)));
    });
    const status = `/proc/${child.pid}/status`;
    if (!existsSync(status)) return undefined;
    const sent = body('external_account_number');
    for (let i = 0; i < count; i++) {
      const res = await request(`${url}/v1/data-import/validate-account/`, {
        method: 'POST',
        headers: { authorization: `Token ${DEFAULT_TOKEN}`, 'content-type': 'application/json' },
        body: sent,
      });
      await res.body.dump();
    }
    const text = readFileSync(status, 'utf8');
    return { afterMb: kbOf(text, 'VmRSS') / 1024, peakMb: kbOf(text, 'VmHWM') / 1024 };
  } finally {
    child.removeAllListeners('close');
    await new Promise<void>((resolve) => {
      child.once('close', () => resolve());
      child.kill('SIGTERM');
    });
    target.close();
    // The session's HAR file holds every 15 MiB exchange whole: some 360 MB a session.
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The median relay time of a proxy that has seen 1,000 distinct tokens (each learned as a secret
 * and redacted from then on, HAR file on) against a fresh one, the two timed turn by turn.
 */
export async function proxySecretsCost(targetUrl: string, tokens = 1000, samples = 1000) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-proxy-secrets-'));
  const fresh = await startTrafficProxy({ target: targetUrl, har: join(dir, 'fresh.har') });
  const seen = await startTrafficProxy({ target: targetUrl, har: join(dir, 'seen.har') });
  const path = '/v1/data-import/account-transfer-status/SUPPLIER_ONGOING/BENCH-PROXY/';
  const timed = async (base: string, token = DEFAULT_TOKEN) => {
    const started = performance.now();
    const res = await request(`${base}${path}`, { headers: { authorization: `Token ${token}` } });
    await res.body.dump();
    return performance.now() - started;
  };
  try {
    for (let i = 0; i < tokens; i++) await timed(seen.url, randomBytes(16).toString('hex'));
    for (let i = 0; i < 200; i++) {
      await timed(fresh.url);
      await timed(seen.url);
    }
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < samples; i++) {
      a.push(await timed(fresh.url));
      b.push(await timed(seen.url));
    }
    return { freshMs: median(a), seenMs: median(b), ratio: median(b) / median(a) };
  } finally {
    await fresh.close();
    await seen.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
