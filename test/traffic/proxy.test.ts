/**
 * Conformance of real traffic: a client session sent through the proxy to the reference server is
 * judged exchange by exchange. One client defect (an undocumented field) and one server defect (the
 * reference server's note dedup broken by a fault) give exactly two findings, each against its side,
 * with the exchanges that prove it; a clean session gives none; the session's HAR gives the same
 * findings through check-traffic.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRAFFIC_CHECKS, TrafficJudge } from '../../app/traffic/checks.js';
import { fromHar } from '../../app/traffic/har-read.js';
import { startTrafficProxy } from '../../app/traffic/proxy.js';
import { DEFAULT_TOKEN, startReferenceServer } from '../../reference/index.js';
import { runCli, startProxyCli, stop } from '../helpers/cli.js';
import { client, unique } from '../helpers/http.js';
import { PATHS, SUPPLIER, TEAM, account } from '../helpers/reference.js';

/** A migration client's session: stage, process, a note, the same note again, a status check. */
async function session(url: string, options: { undocumentedField: boolean }) {
  const call = client(url);
  const ext = unique('EXT');
  await call('POST', PATHS.validate, {
    body: account(ext, options.undocumentedField ? { favourite_colour: 'teal' } : {}),
  });
  expect((await call('POST', PATHS.stage, { body: account(ext) })).status).toBe(201);
  const processed = await call('POST', PATHS.process, {
    body: { external_account_number: ext, import_supplier_code: SUPPLIER, operations_team_name: TEAM },
  });
  expect(processed.status).toBe(201);
  const note = { import_supplier: SUPPLIER, external_account_number: ext, notes: [{ body: 'Moved in' }] };
  await call('POST', PATHS.notes, { body: note });
  await call('POST', PATHS.notes, { body: note });
  await call('GET', PATHS.status(SUPPLIER, ext));
}

async function judged(fault: string | undefined, undocumentedField: boolean) {
  const server = await startReferenceServer({ faults: fault ? [fault] : [] });
  const file = join(mkdtempSync(join(tmpdir(), 'proxy-har-')), 'session.har');
  const proxy = await startTrafficProxy({ target: server.url, har: file });
  try {
    await session(proxy.url, { undocumentedField });
    return {
      report: proxy.report(),
      // Written as each exchange completed: read while the proxy still runs.
      har: readFileSync(file, 'utf8'),
      findings: proxy.judge.findings,
      exchanges: [...proxy.exchanges],
      seen: proxy.seen,
    };
  } finally {
    await proxy.close();
    await server.close();
  }
}

const failed = (report: { rules: { id: string; verdict: string; tags: string[] }[] }) =>
  report.rules.filter((r) => r.verdict === 'fail').map((r) => `${r.id} [${r.tags.join(',')}]`);

describe('conformance proxy', () => {
  it('a clean session has no finding, and the checks it exercised pass', async () => {
    const { report, findings, seen } = await judged(undefined, false);
    expect(findings).toEqual([]);
    // The session's coverage, counted as the exchanges passed: six requests, each to an endpoint of §4.
    expect(seen).toBe(6);
    expect(report.coverage?.exchanges).toBe(seen);
    expect(report.http.requests).toBe(seen);
    expect(report.coverage?.unrouted).toBe(0);
    const notes = report.coverage?.endpoints.find((e) => e.endpoint === 'createNotes');
    expect(notes?.statuses.find((s) => s.status === 201)?.observed).toBe(2);
    expect(notes?.fields.sent).toEqual(['import_supplier', 'external_account_number', 'notes', 'notes.*.body']);
    expect(failed(report)).toEqual([]);
    expect(report.rules.find((r) => r.id === TRAFFIC_CHECKS.notesDedup.id)?.verdict).toBe('pass');
    expect(report.rules.find((r) => r.id === TRAFFIC_CHECKS.requestBody.id)?.verdict).toBe('pass');
    expect(report.summary.exit_code).toBe(0);
  });

  it('one client defect and one server defect: exactly two findings, each against its side, with its exchanges', async () => {
    const { report, findings, exchanges, har } = await judged('notes.no-dedup', true);
    expect(failed(report)).toEqual([
      'traffic.client.request-body [traffic,client]',
      'traffic.notes.dedup [traffic,server]',
    ]);
    expect(findings.map((f) => f.check)).toEqual(['requestBody', 'notesDedup']);
    const [client, server] = findings;
    expect(client.message).toMatch(/favourite_colour/);
    expect(exchanges.find((e) => e.seq === client.exchanges[0])?.request.url).toBe(PATHS.validate);
    // The dedup finding names the first note's exchange and the second's.
    expect(server.exchanges.map((s) => exchanges.find((e) => e.seq === s)?.request.url)).toEqual([
      PATHS.notes,
      PATHS.notes,
    ]);
    expect(report.summary.exit_code).toBe(1);
    // No token reaches the report or the HAR.
    expect(JSON.stringify(report)).not.toContain(DEFAULT_TOKEN);
    expect(har).not.toContain(DEFAULT_TOKEN);

    // The same session, as HAR, through check-traffic: the same findings.
    const again = new TrafficJudge();
    for (const e of fromHar(har).exchanges) again.observe(e);
    expect(again.findings.map((f) => [f.check, f.message])).toEqual(findings.map((f) => [f.check, f.message]));

    const dir = mkdtempSync(join(tmpdir(), 'traffic-'));
    writeFileSync(join(dir, 'session.har'), har);
    const cli = await runCli(['check-traffic', 'session.har', '--report-dir', 'out'], { cwd: dir });
    // Every format written, one console line per finding, and the curl lines in the reports naming the
    // recorded origin (the target is a file name).
    expect(cli.stderr).toBe('');
    expect(cli.stdout).toMatch(/^ {2}✗ MUST traffic\.client\.request-body /m);
    expect(readFileSync(join(dir, 'out', 'junit.xml'), 'utf8')).toMatch(
      /curl -i -X POST http:\/\/127\.0\.0\.1:\d+\/v1\/data-import\//,
    );
    expect(cli.code).toBe(1);
    const written = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    expect(failed(written)).toEqual(failed(report));
  });

  it('a second staging answered 201 and a process after import answered 201 are findings against the server', () => {
    const judge = new TrafficJudge();
    const ext = 'EXT-1';
    const body = JSON.stringify({ import_supplier: SUPPLIER, external_account_number: ext });
    const processBody = JSON.stringify({
      external_account_number: ext,
      import_supplier_code: SUPPLIER,
      operations_team_name: TEAM,
    });
    const headers = { authorization: 'Token t0k3n' };
    const answers: [string, string, number, string][] = [
      [PATHS.stage, body, 201, body],
      [PATHS.stage, body, 201, body],
      [PATHS.process, processBody, 201, '{"service_account_number":"A-1"}'],
      [PATHS.process, processBody, 201, '{"service_account_number":"A-2"}'],
    ];
    answers.forEach(([url, request, status, response], i) =>
      judge.observe({
        seq: i + 1,
        request: { method: 'POST', url, headers, body: request },
        response: { status, headers: {}, body: response, bytes: response.length },
        duration_ms: 1,
      }),
    );
    expect(judge.findings.map((f) => [f.check, f.exchanges])).toEqual([
      ['secondStaging', [1, 2]],
      ['afterImport', [3, 4]],
    ]);
  });

  it('exchanges that overlap in time are judged in either order; one answered before the next was sent binds it', () => {
    const headers = { authorization: 'Token t0k3n' };
    const key = (ext: string) => ({ import_supplier: SUPPLIER, external_account_number: ext });
    const processBody = (ext: string) =>
      JSON.stringify({ external_account_number: ext, import_supplier_code: SUPPLIER, operations_team_name: TEAM });
    const notesBody = (ext: string) => JSON.stringify({ ...key(ext), notes: [{ body: 'Moved in' }] });
    const status = (ext: string) => PATHS.status(SUPPLIER, ext);
    // [method, url, request body, status, answer, sent at (ms), answered after (ms)]
    type Step = [string, string, string | undefined, number, string, number, number];
    const judgeAll = (steps: Step[]) => {
      const judge = new TrafficJudge();
      // In the order the answers came, as the proxy and a HAR reader hand them over.
      const done = steps
        .map((step, i) => ({ step, seq: i + 1 }))
        .sort((a, b) => a.step[5] + a.step[6] - (b.step[5] + b.step[6]));
      for (const {
        step: [method, url, request, code, answer, at, took],
        seq,
      } of done)
        judge.observe({
          seq,
          request: { method, url, headers, ...(request ? { body: request } : {}) },
          response: { status: code, headers: {}, body: answer, bytes: answer.length },
          startedAt: new Date(1_700_000_000_000 + at),
          duration_ms: took,
        });
      // The state checks only: these answers are cut to what the §3 table and notes rule 2 read.
      const state = new Set(['secondStaging', 'afterImport', 'statusBackwards', 'notesDedup']);
      return judge.findings.filter((f) => state.has(f.check)).map((f) => [f.check, f.exchanges]);
    };
    const stage = (ext: string): [string, string, string] => ['POST', PATHS.stage, JSON.stringify(key(ext))];
    const staged = (ext: string) => JSON.stringify(key(ext));
    const note = (result: string) => JSON.stringify([{ status: result, body: 'Moved in' }]);

    // Sent together: the 201 answered last may have been taken first, the 200 second.
    expect(
      judgeAll([
        [...stage('A'), 201, staged('A'), 0, 50],
        [...stage('A'), 200, staged('A'), 5, 10],
      ]),
    ).toEqual([]);
    // The same, the 200 answered before the 201 was sent: the account existed, so 201 is wrong.
    expect(
      judgeAll([
        [...stage('B'), 200, staged('B'), 0, 10],
        [...stage('B'), 201, staged('B'), 20, 10],
      ]),
    ).toEqual([['secondStaging', [1, 2]]]);
    // Two 201s are wrong in either order, overlapping or not; so are two imports.
    expect(
      judgeAll([
        [...stage('C'), 201, staged('C'), 0, 50],
        [...stage('C'), 201, staged('C'), 5, 10],
        ['POST', PATHS.process, processBody('C'), 201, '{"service_account_number":"A-1"}', 100, 50],
        ['POST', PATHS.process, processBody('C'), 201, '{"service_account_number":"A-2"}', 110, 10],
      ]),
    ).toEqual([
      ['secondStaging', [2, 1]],
      ['afterImport', [4, 3]],
    ]);
    // A staging sent while the import was under way may have been taken before it.
    expect(
      judgeAll([
        [...stage('D'), 201, staged('D'), 0, 10],
        ['POST', PATHS.process, processBody('D'), 201, '{"service_account_number":"A-3"}', 20, 50],
        [...stage('D'), 200, staged('D'), 30, 60],
        [...stage('D'), 200, staged('D'), 100, 5],
      ]),
    ).toEqual([['afterImport', [2, 4]]]);
    // A status read sent before COMPLETED was answered may have been answered first.
    expect(
      judgeAll([
        [...stage('E'), 201, staged('E'), 0, 10],
        ['POST', PATHS.process, processBody('E'), 201, '{"service_account_number":"A-4"}', 20, 10],
        ['GET', status('E'), undefined, 200, '{"status":"COMPLETED"}', 40, 10],
        ['GET', status('E'), undefined, 200, '{"status":"IN_PROGRESS"}', 45, 30],
        ['GET', status('E'), undefined, 200, '{"status":"UNKNOWN"}', 60, 10],
      ]),
    ).toEqual([['statusBackwards', [3, 5]]]);
    // A note found existing by a request sent while another created it: that one may have come first.
    expect(
      judgeAll([
        [...stage('F'), 201, staged('F'), 0, 10],
        ['POST', PATHS.process, processBody('F'), 201, '{"service_account_number":"A-5"}', 20, 10],
        ['POST', PATHS.notes, notesBody('F'), 201, note('NOTE_ALREADY_EXISTS'), 40, 5],
        ['POST', PATHS.notes, notesBody('F'), 201, note('NOTE_CREATION_SUCCESS'), 42, 20],
        ['POST', PATHS.notes, notesBody('F'), 201, note('NOTE_CREATION_SUCCESS'), 44, 30],
      ]),
    ).toEqual([['notesDedup', [4, 5]]]);
  });

  it('check-traffic refuses a file that is not HAR, naming the problem (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'traffic-'));
    writeFileSync(join(dir, 'x.har'), '{"log":{}}');
    const res = await runCli(['check-traffic', 'x.har'], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/x\.har: log\.entries: expected an array/);
  });
});

describe('conformance proxy (the command)', () => {
  it('relays unchanged, prints findings as they come, and writes the reports and the HAR when stopped', async () => {
    const server = await startReferenceServer();
    const { child, dir, url } = await startProxyCli(server.url, 'proxy-cli-', ['--reporter', 'json']);
    try {
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      const direct = await client(server.url)('GET', PATHS.pending(SUPPLIER));
      const relayed = await client(url)('GET', PATHS.pending(SUPPLIER));
      expect(relayed.status).toBe(direct.status);
      const refused = await client(url, null)('GET', PATHS.pending(SUPPLIER));
      expect(refused.status).toBe(401);
      expect(await stop(child)).toBe(1);
      expect(out).toMatch(/✗ MUST traffic\.client\.auth-header \(against the client\)/);
      const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
      expect(failed(report)).toEqual(['traffic.client.auth-header [traffic,client]']);
      const har = fromHar(readFileSync(join(dir, 'session.har'), 'utf8'));
      expect(har.exchanges.map((e) => e.response?.status)).toEqual([direct.status, 401]);
      expect(readFileSync(join(dir, 'session.har'), 'utf8')).not.toContain(DEFAULT_TOKEN);
    } finally {
      child.kill('SIGKILL');
      await server.close();
    }
  });
});

describe('HAR files from other tools', () => {
  it('reads base64-encoded response bodies (HAR 1.2 content.encoding) and keeps the path from /v1/ on', () => {
    const body = '{"status":"COMPLETED","service_account_number":"A-1"}';
    const har = JSON.stringify({
      log: {
        version: '1.2',
        entries: [
          {
            startedDateTime: '2026-11-24T10:00:00.000Z',
            time: 12,
            request: {
              method: 'GET',
              url: `https://gateway.example/api${PATHS.status(SUPPLIER, 'E-1')}`,
              headers: [{ name: 'Authorization', value: 'Token abcd1234' }],
            },
            response: {
              status: 200,
              headers: [{ name: 'Content-Type', value: 'application/json' }],
              content: {
                size: body.length,
                mimeType: 'application/json',
                text: Buffer.from(body).toString('base64'),
                encoding: 'base64',
              },
            },
          },
        ],
      },
    });
    const [exchange] = fromHar(har).exchanges;
    expect(exchange.request.url).toBe(PATHS.status(SUPPLIER, 'E-1'));
    expect(exchange.request.headers.authorization).toBe('Token abcd1234');
    expect(exchange.response?.body).toBe(body);
    const judge = new TrafficJudge();
    judge.observe(exchange);
    expect(judge.findings).toEqual([]);
    expect(judge.exercised.has('responseBody')).toBe(true);
  });
});
