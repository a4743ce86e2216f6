/**
 * `conformance --har FILE`: every exchange of a run as HAR 1.2, streamed as exchanges complete,
 * redacted like the reports, and read back by check-traffic. A run whose rules send only
 * well-formed requests to the faithful reference server gives a HAR with no finding at all; the
 * HAR holds exactly the run's requests and no secret of the run in any spelling.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarWriter } from '../../app/traffic/har.js';
import { fromHar } from '../../app/traffic/har-read.js';
import { Redactor } from '../../core/http/redact.js';
import { DEFAULT_API_KEY, DEFAULT_TOKEN, type ReferenceServer, startReferenceServer } from '../../reference/index.js';
import { runCli } from '../helpers/cli.js';
import { fullConfig } from '../helpers/config.js';

const GATEWAY_KEY = 'gw-Key/5ecret+value==';

/** Rules whose requests are all well-formed: no deliberate client defect for check-traffic to find. */
const WELL_FORMED = [
  'migration.stage.first-201',
  'migration.stage.update-*',
  'migration.stage.refuses-after-import',
  'migration.process.creates-account',
  'migration.process.status-completed',
  'status.*',
  'notes.dedup.*',
].flatMap((rule) => ['--rule', rule]);

let server: ReferenceServer;
let faulty: ReferenceServer;
beforeAll(async () => {
  [server, faulty] = await Promise.all([startReferenceServer(), startReferenceServer({ faults: ['notes.no-dedup'] })]);
});
afterAll(async () => {
  await Promise.all([server?.close(), faulty?.close()]);
});

const CONFIG = 'conformance.config.yaml';

function workspace(url: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'har-run-'));
  writeFileSync(join(dir, CONFIG), fullConfig(url, `  token: ${DEFAULT_TOKEN}`));
  return dir;
}

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

describe('conformance --har', () => {
  it('writes every exchange of the run, redacted, and check-traffic reads it back with no finding', async () => {
    const dir = workspace(server.url);
    const res = await runCli(
      // --config names the file: one found without it, holding the reference server's preset values,
      // is announced on stderr before the first request (a run against another server would use them).
      [
        '--config',
        CONFIG,
        '--har',
        'run.har',
        '--header',
        `X-Gateway-Key: ${GATEWAY_KEY}`,
        '--reporter',
        'json',
        ...WELL_FORMED,
      ],
      { cwd: dir },
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const report = JSON.parse(read(dir, 'conformance-report/report.json'));
    const text = read(dir, 'run.har');
    const har = JSON.parse(text);
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.length).toBe(report.http.requests);
    expect(res.stdout).toContain(`HAR: run.har (${report.http.requests} exchanges)`);
    // Full exchanges, absolute URLs, the configured header kept by name only.
    const entry = har.log.entries.find((e: { request: { method: string } }) => e.request.method === 'POST');
    expect(entry.request.url).toMatch(new RegExp(`^${server.url}/v1/data-import/`));
    expect(entry.request.postData.text).toMatch(/^\{/);
    expect(entry.request.headers).toContainEqual({ name: 'authorization', value: 'Token ***' });
    expect(entry.request.headers).toContainEqual({ name: 'x-gateway-key', value: '***' });
    // No secret of the run in any spelling the redactor knows (raw, JSON-escaped, percent-encoded, base64).
    for (const secret of [DEFAULT_TOKEN, GATEWAY_KEY]) {
      expect(text).not.toContain(secret);
      expect(new Redactor([secret]).text(text)).toBe(text);
    }
    expect(fromHar(text).exchanges).toHaveLength(report.http.requests);

    const checked = await runCli(['check-traffic', 'run.har', '--reporter', 'json', '--report-dir', 'traffic'], {
      cwd: dir,
    });
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(0);
    const traffic = JSON.parse(read(dir, 'traffic/report.json'));
    expect(traffic.rules.filter((r: { verdict: string }) => r.verdict === 'fail')).toEqual([]);
    // The same coverage, from the run's own counting and from the HAR file.
    expect(traffic.coverage).toEqual(report.coverage);
  });

  it('holds the §5.1 token exchange of a run with an API key, first, without the key or the token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'har-run-'));
    writeFileSync(join(dir, 'conformance.config.yaml'), fullConfig(server.url, `  api_key: ${DEFAULT_API_KEY}`));
    const res = await runCli(['--config', CONFIG, '--har', 'run.har', '--reporter', 'json', '--rule', 'status.*'], {
      cwd: dir,
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const report = JSON.parse(read(dir, 'conformance-report/report.json'));
    const text = read(dir, 'run.har');
    const entries = JSON.parse(text).log.entries;
    // The rules' requests, and the mutation that obtained the token before them.
    expect(entries.length).toBe(report.http.requests + 1);
    const [first] = entries;
    expect(first.request.method).toBe('POST');
    expect(first.request.url).toBe(`${server.url}/v1/graphql/`);
    expect(first.request.postData.text).toMatch(/ObtainServiceToken/);
    expect(first.response.status).toBe(200);
    expect(first.response.content.text).toMatch(/obtainServiceToken/);
    // Neither the key nor any token the server issued (the run's among them), in any spelling.
    const issued = [...server.store.tokens].filter(([, t]) => t.issued).map(([token]) => token);
    expect(issued.length).toBeGreaterThan(0);
    for (const secret of [DEFAULT_API_KEY, DEFAULT_TOKEN, ...issued])
      expect(new Redactor([secret]).text(text)).toBe(text);
    // Counted by the coverage as a request to no endpoint of §4.
    expect(report.coverage.exchanges).toBe(report.http.requests + 1);
    expect(report.coverage.unrouted).toBeGreaterThanOrEqual(1);
  });

  it('is written, and a valid HAR, when the run fails and when --max-time cuts it', async () => {
    const dir = workspace(faulty.url);
    const failed = await runCli(['--har', 'failed.har', '--reporter', 'json', '--rule', 'notes.*'], { cwd: dir });
    expect(failed.code).toBe(1);
    const report = JSON.parse(read(dir, 'conformance-report/report.json'));
    expect(JSON.parse(read(dir, 'failed.har')).log.entries.length).toBe(report.http.requests);

    const cut = await runCli(['--har', 'cut.har', '--reporter', 'json', '--max-time', '0.2'], { cwd: dir });
    expect([0, 1, 4]).toContain(cut.code);
    const entries = JSON.parse(read(dir, 'cut.har')).log.entries;
    // Requests still in flight when the deadline struck are left out (their rules are not judged).
    expect(entries.length).toBeLessThanOrEqual(JSON.parse(read(dir, 'conformance-report/report.json')).http.requests);
  });

  it("the README's recipe: a whole run's HAR, its deliberate defects marked, is conformant traffic (exit 0)", async () => {
    // Exactly as the README writes it: the embedded reference server, every rule, no option.
    const dir = mkdtempSync(join(tmpdir(), 'har-recipe-'));
    const run = await runCli(['--har', 'run.har'], { cwd: dir });
    expect(run.code).toBe(0);
    const entries = JSON.parse(read(dir, 'run.har')).log.entries as {
      request: { headers: { name: string; value: string }[] };
      comment?: string;
      _conformance?: { rule: string; deliberate?: string };
    }[];
    // Each rule's exchanges name it; those it broke on purpose say what they break.
    const said = (rule: string) =>
      entries.filter((e) => e._conformance?.rule === rule).map((e) => e._conformance?.deliberate);
    expect(said('auth.401.stage-account')).toContain('no Authorization header');
    expect(said('auth.other-schemes.refused')).toContain('the Authorization scheme "Bearer"');
    expect(said('errors.bad-input.no-5xx.stage-account')).toContain('a body that is not valid JSON');
    expect(said('conventions.email.malformed')).toContain('a payload with a defect');
    // A rule's well-formed requests are not marked.
    expect(said('migration.stage.first-201')).toEqual([undefined]);
    // The rules' requests without the header (the §5.1 token mutation, which needs none, aside).
    const unauthenticated = entries.filter(
      (e) => e._conformance && !e.request.headers.some((h) => h.name === 'authorization'),
    );
    expect(unauthenticated.length).toBeGreaterThan(0);
    for (const e of unauthenticated) {
      expect(e._conformance?.deliberate).toBe('no Authorization header');
      expect(e.comment).toMatch(/^sent on purpose by \S+: no Authorization header/);
    }
    const checked = await runCli(['check-traffic', 'run.har'], { cwd: dir });
    expect(checked.stderr).toBe('');
    expect(checked.stdout).toMatch(/Conformant/);
    expect(checked.code).toBe(0);
    // The client's checks say what they left to the server.
    const traffic = JSON.parse(read(dir, 'conformance-report/report.json'));
    const header = traffic.rules.find((r: { id: string }) => r.id === 'traffic.client.auth-header');
    expect(header.verdict).toBe('pass');
    expect(header.observations[0]).toMatch(
      /^\d+ requests a run sent with a defect on purpose .* judged against the server only$/,
    );
  });

  it('a HAR file that cannot be written is a usage error before any request', async () => {
    const dir = workspace(server.url);
    const res = await runCli(['--har', join(dir, 'no-such-dir', 'run.har'), '--reporter', 'json'], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--har: cannot write .*run\.har \(ENOENT\)/);
  });
});

describe('HarWriter', () => {
  it('leaves a whole HAR document on disk after every entry, not only after close()', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'har-writer-')), 'live.har');
    const har = new HarWriter(file);
    expect(JSON.parse(readFileSync(file, 'utf8')).log.entries).toEqual([]);
    for (let n = 1; n <= 3; n++) {
      har.add(
        {
          seq: n,
          request: { method: 'GET', url: `/v1/data-import/x/${n}/`, headers: {} },
          response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"é":"ü"}', bytes: 13 },
          duration_ms: 1,
          startedAt: new Date(n * 1000),
        },
        'http://127.0.0.1:1',
      );
      // Read as a process cut here would leave it: every entry so far, and nothing after them.
      const entries = JSON.parse(readFileSync(file, 'utf8')).log.entries;
      expect(entries.map((e: { request: { url: string } }) => e.request.url)).toEqual(
        Array.from({ length: n }, (_, i) => `http://127.0.0.1:1/v1/data-import/x/${i + 1}/`),
      );
      expect(entries[n - 1].response.content.text).toBe('{"é":"ü"}');
    }
    expect(har.close()).toBeUndefined();
    expect(har.entries).toBe(3);
    expect(fromHar(readFileSync(file, 'utf8')).exchanges).toHaveLength(3);
  });
});
