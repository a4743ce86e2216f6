/**
 * A proxy session of any length and any traffic holds a bounded amount: big exchanges are judged,
 * written to the HAR file and dropped, keeping a trimmed copy only when a finding names them; an
 * answer over the cap is cut and recorded as too large while the proxy goes on serving; uploads
 * held in flight have a budget. And a stop, by a signal, ends promptly with every report written
 * and every exchange it cut counted and named.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRAFFIC_CHECKS, TrafficJudge } from '../../app/traffic/checks.js';
import { fromHar } from '../../app/traffic/har-read.js';
import { PROXY_MAX_BODY_BYTES, startTrafficProxy, type TrafficProxy } from '../../app/traffic/proxy.js';
import { startProxyCli } from '../helpers/cli.js';
import { type Listening, listen } from '../helpers/listen.js';
import { PATHS } from '../helpers/reference.js';
import { until } from '../helpers/until.js';

const MiB = 1024 * 1024;
/** A JSON body of about 15 MiB: one long field, as a careless client or a broken server sends. */
const big = (field: string) => `{"${field}":"${'x'.repeat(15 * MiB)}"}`;
const BIG_ANSWER = big('echo');
const headers = { authorization: 'Token t0k3n-bounds', 'content-type': 'application/json' };

/** Sends `body` through the proxy and reads the answer whole (or the error that cut it). */
async function send(url: string, path: string, body?: string) {
  try {
    const res = await request(`${url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, body });
    const text = await res.body.text();
    return { status: res.statusCode, text };
  } catch (error) {
    return { status: 0, text: '', error: error as Error };
  }
}

/** Resolves with the child's exit code once it has exited. */
const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.removeAllListeners('close');
    child.on('close', (code) => resolve(code));
  });

/** A target that reads every request and never answers; how many requests reached it. */
async function silentTarget() {
  let reached = 0;
  const target = await listen((req) => {
    reached++;
    req.resume();
  });
  return { target, reached: () => reached };
}

describe('what the proxy keeps', () => {
  let target: Listening;
  let proxy: TrafficProxy;
  let dir: string;
  beforeAll(async () => {
    // Answers every request with a 15 MiB JSON body, once it has read the request.
    target = await listen((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(BIG_ANSWER));
    });
    dir = mkdtempSync(join(tmpdir(), 'proxy-bounds-'));
    proxy = await startTrafficProxy({ target: target.url, har: join(dir, 'session.har') });
  });
  afterAll(async () => {
    await proxy.close();
    await target.close();
  });

  it('after 12 exchanges of 15 MiB each way, holds trimmed copies only, and the HAR file has them whole', async () => {
    for (let i = 0; i < 12; i++) {
      const answer = await send(proxy.url, PATHS.validate, big('external_account_number'));
      expect(answer.status).toBe(200);
      expect(answer.text.length).toBe(BIG_ANSWER.length);
    }
    expect(proxy.seen).toBe(12);
    // Each exchange is named by a finding (an undocumented answer, a defective body), so each is kept —
    // trimmed as a failing rule's transcript is: bodies cut at 2 KB with their size said.
    const kept = proxy.exchanges;
    expect(kept.map((e) => e.seq)).toEqual([...Array(12).keys()].map((i) => i + 1));
    for (const e of kept) {
      expect(e.request.body_truncated).toBe(true);
      expect(e.request.body).toMatch(/… \[cut: 157286\d\d bytes in all\]$/);
      expect(e.response?.body_truncated).toBe(true);
      expect(e.response?.bytes).toBe(BIG_ANSWER.length);
    }
    expect(JSON.stringify(kept).length).toBeLessThan(12 * 8 * 1024);
    // The judge keeps its findings small too: each message quotes the traffic at most 2 KB.
    expect(proxy.judge.findings.length).toBeGreaterThan(0);
    for (const f of proxy.judge.findings) expect(f.message.length).toBeLessThan(2200);
    expect(proxy.heldBytes).toBe(0);
    expect(proxy.inFlight).toBe(0);
    // The HAR file has every exchange whole, written as each completed.
    const har = fromHar(readFileSync(join(dir, 'session.har'), 'utf8'));
    expect(har.exchanges).toHaveLength(12);
    expect(har.exchanges.every((e) => e.request.body?.length === big('external_account_number').length)).toBe(true);
    // The report counts every exchange and shows the trimmed ones.
    const report = proxy.report();
    expect(report.http.requests).toBe(12);
    expect(report.coverage?.exchanges).toBe(12);
    expect(JSON.stringify(report).length).toBeLessThan(1024 * 1024);
  });
});

describe('what the judge keeps', () => {
  it('a finding quoting a 1 MiB field name is cut at 2 KB, its size said', () => {
    const judge = new TrafficJudge();
    const key = 'k'.repeat(MiB);
    judge.observe({
      seq: 1,
      request: { method: 'POST', url: PATHS.validate, headers, body: JSON.stringify({ [key]: 1 }) },
      duration_ms: 1,
    });
    const [finding] = judge.findings.filter((f) => f.check === 'requestBody');
    expect(finding.message.length).toBeLessThan(2200);
    expect(finding.message).toMatch(/… \(\d+ bytes\)$/);
  });
});

describe('which exchanges are kept', () => {
  let target: Listening;
  let proxy: TrafficProxy;
  beforeAll(async () => {
    target = await listen((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
    });
    proxy = await startTrafficProxy({ target: target.url });
  });
  afterAll(async () => {
    await proxy.close();
    await target.close();
  });

  it('an exchange a finding names stays; clean ones are kept only while they are among the last few', async () => {
    const path = PATHS.pending('SUPPLIER_ONGOING');
    // No Authorization header: a finding against the client, naming exchange 1.
    const res = await request(`${proxy.url}${path}`);
    await res.body.dump();
    for (let i = 0; i < 40; i++) expect((await send(proxy.url, path)).status).toBe(200);
    expect(proxy.seen).toBe(41);
    expect(proxy.judge.findings.map((f) => [f.check, f.exchanges])).toEqual([['authHeader', [1]]]);
    const seqs = proxy.exchanges.map((e) => e.seq);
    expect(seqs[0]).toBe(1);
    expect(seqs).not.toContain(2);
    expect(seqs).toContain(41);
    expect(seqs.length).toBeLessThan(20);
    const rule = proxy.report().rules.find((r) => r.id === TRAFFIC_CHECKS.authHeader.id);
    expect(rule?.transcript.map((e) => e.seq)).toEqual([1]);
  });
});

describe('bodies over the cap', () => {
  let target: Listening;
  let proxy: TrafficProxy;
  let endlessStopped = false;
  beforeAll(async () => {
    target = await listen((req, res: ServerResponse) => {
      req.resume();
      if (req.url?.includes('endless')) {
        // A chunked answer that never ends: chunks for as long as anyone reads them.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.on('close', () => {
          endlessStopped = true;
        });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const more = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', more);
        };
        more();
      } else if (req.url?.includes('declared')) {
        // Announces 300 MB: the proxy need not read a byte of it to know.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(300 * 1000 * 1000) });
        res.write('{"x":"');
      } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    proxy = await startTrafficProxy({ target: target.url });
  });
  afterAll(async () => {
    await proxy.close();
    await target.close();
  });

  it('an endless answer is cut past 16 MiB, recorded as too_large, and the proxy goes on serving', async () => {
    const cut = await send(proxy.url, '/v1/data-import/endless/');
    // Its head was relayed already: the connection is closed under the client.
    expect(cut.error).toBeDefined();
    await until(() => endlessStopped && proxy.inFlight === 0);
    const recorded = proxy.exchanges.find((e) => e.request.url.includes('endless'));
    expect(recorded?.error?.kind).toBe('too_large');
    expect(recorded?.error?.message).toMatch(new RegExp(`over ${PROXY_MAX_BODY_BYTES} bytes`));
    expect(recorded?.response).toBeUndefined();
    expect(proxy.heldBytes).toBe(0);
    expect(await send(proxy.url, '/v1/data-import/small/')).toEqual({ status: 200, text: '{"ok":true}' });
  });

  it('an answer announced at 300 MB gets 502 with a JSON detail, recorded as too_large', async () => {
    const answer = await send(proxy.url, '/v1/data-import/declared/');
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 'proxy_response_too_large' });
    const recorded = proxy.exchanges.find((e) => e.request.url.includes('declared'));
    expect(recorded?.error?.kind).toBe('too_large');
    expect(await send(proxy.url, '/v1/data-import/small/')).toEqual({ status: 200, text: '{"ok":true}' });
  });

  it('a request over the cap gets 413, is recorded as too_large and is not judged (no "empty body" finding)', async () => {
    const small = await startTrafficProxy({ target: target.url, maxBodyBytes: 1024 });
    try {
      const answer = await send(small.url, PATHS.validate, JSON.stringify({ pad: 'y'.repeat(4096) }));
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toMatchObject({ code: 'proxy_request_too_large' });
      expect(small.exchanges.map((e) => e.error?.kind)).toEqual(['too_large']);
      expect(small.judge.findings).toEqual([]);
    } finally {
      await small.close();
    }
  });
});

describe('uploads held in flight', () => {
  it('beyond the budget a request gets 503 with a JSON detail, not forwarded; the held ones go through', async () => {
    let reached = 0;
    const target = await listen((req, res) => {
      reached++;
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    const proxy = await startTrafficProxy({ target: target.url, maxHeldBytes: 1000 * 1000 });
    const { port } = new URL(proxy.url);
    // Two uploads of 400 kB each, sent but not finished: the proxy holds them while it reads.
    const uploads = [0, 1].map(() => {
      const req = httpRequest({ port, host: '127.0.0.1', method: 'POST', path: '/v1/upload/', headers });
      const answered = new Promise<number>((resolve, reject) => {
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
      });
      req.write('x'.repeat(400 * 1000));
      return { req, answered };
    });
    try {
      await until(() => proxy.heldBytes === 800 * 1000);
      const refused = await send(proxy.url, '/v1/third/', 'z'.repeat(400 * 1000));
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.text)).toMatchObject({ code: 'proxy_busy' });
      expect(reached).toBe(0);
      for (const u of uploads) u.req.end();
      expect(await Promise.all(uploads.map((u) => u.answered))).toEqual([200, 200]);
      expect(reached).toBe(2);
      await until(() => proxy.inFlight === 0);
      expect(proxy.heldBytes).toBe(0);
      expect(proxy.exchanges.find((e) => e.request.url === '/v1/third/')?.error?.kind).toBe('too_large');
      expect(proxy.report().http).toMatchObject({ requests: 3, failures: 1 });
    } finally {
      await proxy.close();
      await target.close();
    }
  });
});

describe('conformance proxy (the command), stopped by a signal', () => {
  it('SIGINT after six 15 MiB exchanges writes a whole HAR file and every report, and exits by its findings', async () => {
    const target = await listen((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(BIG_ANSWER));
    });
    const { child, dir, url } = await startProxyCli(target.url, 'proxy-sigint-');
    try {
      for (let i = 0; i < 6; i++) expect((await send(url, '/v1/upload/', big('data'))).status).toBe(200);
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const code = exited(child);
      child.kill('SIGINT');
      // Nothing in flight, no finding (no path of the interface): a session's normal end, exit 0.
      expect(await code).toBe(0);
      expect(stderr).not.toMatch(/RangeError|at .*\.js:\d+/);
      const har = fromHar(readFileSync(join(dir, 'session.har'), 'utf8'));
      expect(har.exchanges).toHaveLength(6);
      expect(har.exchanges.every((e) => e.response?.body?.length === BIG_ANSWER.length)).toBe(true);
      expect(readdirSync(join(dir, 'out')).sort()).toEqual(
        expect.arrayContaining(['ctrf.json', 'junit.xml', 'report.html', 'report.json', 'summary.md']),
      );
      const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
      expect(report.http.requests).toBe(6);
      expect(report.interrupted).toBeUndefined();
    } finally {
      child.kill('SIGKILL');
      await target.close();
    }
  });

  it('200 requests in flight to a silent target, then SIGINT: cut after the grace, counted and named, Interrupted, exit 130', async () => {
    const { target, reached } = await silentTarget();
    const { child, dir, url } = await startProxyCli(target.url, 'proxy-silent-', ['--reporter', 'json']);
    const agent = new Agent({ connections: 256 });
    try {
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const clients = Array.from({ length: 200 }, (_, i) =>
        request(`${url}/v1/data-import/account-transfer-status/S/E-${i}/`, { headers, dispatcher: agent }).then(
          (res) => res.statusCode,
          () => 'cut' as const,
        ),
      );
      await until(() => reached() === 200);
      const code = exited(child);
      child.kill('SIGINT');
      expect(await code).toBe(130);
      // Every client's connection was closed by the proxy: none is left waiting.
      expect(new Set(await Promise.all(clients))).toEqual(new Set(['cut']));
      const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
      expect(report.http).toMatchObject({ requests: 200, failures: 200 });
      expect(report.summary.conformant).toBe(false);
      expect(report.summary.exit_code).toBe(130);
      expect(report.interrupted.signal).toBe('SIGINT');
      expect(report.interrupted.reason).toMatch(
        /^200 exchanges were in flight when the proxy stopped \(SIGINT\), cut and their answers not judged: GET \/v1\/data-import\/account-transfer-status\/S\/E-\d+\/, .* and 195 more$/,
      );
      expect(stderr).toMatch(/200 exchange\(s\) were still in flight after 5 s and were cut/);
      const har = fromHar(readFileSync(join(dir, 'session.har'), 'utf8'));
      expect(har.exchanges).toHaveLength(200);
      expect(har.exchanges.every((e) => e.error?.message.includes('cut in flight'))).toBe(true);
    } finally {
      child.kill('SIGKILL');
      await agent.close();
      await target.close();
    }
  });

  it('a second SIGINT exits at once (130), the HAR file still whole', async () => {
    const { target, reached } = await silentTarget();
    const { child, dir, url } = await startProxyCli(target.url, 'proxy-twice-', ['--reporter', 'json']);
    try {
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const hanging = request(`${url}/v1/data-import/x/`, { headers }).catch(() => 'cut');
      await until(() => reached() === 1);
      const code = exited(child);
      child.kill('SIGINT');
      await until(() => stderr.includes('SIGINT: taking no new connection'));
      child.kill('SIGINT');
      expect(await code).toBe(130);
      expect(stderr).toMatch(/SIGINT again; exiting now/);
      await hanging;
      expect(fromHar(readFileSync(join(dir, 'session.har'), 'utf8')).exchanges).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      await target.close();
    }
  });
});
