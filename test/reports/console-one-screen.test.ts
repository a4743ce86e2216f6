/**
 * A failing run fits one screen, so the first problem is seen without scrolling: one line per
 * failing rule, one line per shared cause with the rules it stopped counted, a target that stops
 * answering named once, and a pointer to the report for transcripts and curl. The snapshots hold the
 * shape of the console for one injected bug, a target that dies mid-run and a supplier's partial
 * mock answering 501; volatile parts (run id, seed, port, times, request counts) are written as
 * placeholders.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { capturedConsole } from '../helpers/console.js';
import { runAgainstReference } from '../../app/against-reference.js';
import { runConformance } from '../../app/conformance.js';
import { embeddedFixtures, embeddedPayloads, embeddedSeed } from '../../app/embedded.js';
import type { RunEvent } from '../../core/engine/run.js';
import type { EndpointId } from '../../core/spec/endpoints.js';
import { allRules } from '../../suites/index.js';
import { ReportSchema, type Report } from '../../core/report/schema.js';
import { DEFAULT_TOKEN, startReferenceServer } from '../../reference/index.js';
import { HOSTILE_REASON, build } from '../helpers/sample-report.js';
import { MOCK_SUPPLIER, MOCK_TEAM, MOCK_TOKEN, startPartialMock } from './partial-mock.js';

const WRITTEN = [
  { format: 'json', file: 'conformance-report/report.json' },
  { format: 'html', file: 'conformance-report/report.html' },
];

/** A console as a CI log has it (no terminal, no colour), fed by a run's events and its report. */
function consoleFor(verbose = false) {
  const { reporter, text } = capturedConsole({ verbose, progressEveryMs: 1e12 });
  return {
    onEvent: (event: RunEvent) => reporter.onEvent(event),
    finish: (report: Report) => {
      reporter.summary(report, WRITTEN);
      return text();
    },
  };
}

/**
 * The endpoints these consoles were recorded over. The runs below leave out the rules of endpoints
 * added since (§9.2: the interface grows) — a rule that judges one of these as well stays — and the totals the model gives — documented statuses and
 * fields, relation places — are placeholders: adding an endpoint changes none of these snapshots.
 */
const RECORDED = new Set<EndpointId>([
  'validateAccount',
  'stageAccount',
  'processAccount',
  'createNotes',
  'createAgreements',
  'createSupplyPoints',
  'createTransactions',
  'createHistoricalBillingDocuments',
  'createHistoricalStatements',
  'createPaymentInstruction',
  'accountTransferStatus',
  'allAccountImportProcesses',
  'pendingAccountImportProcesses',
  'importedAccountImportProcesses',
  'createBusiness',
  'createBusinessPaymentInstruction',
]);
const recordedRules = allRules.filter((r) => r.endpoints.some((e) => RECORDED.has(e)));

/** The console with what changes from run to run written as placeholders. */
const normalised = (text: string) =>
  text
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, 'http://127.0.0.1:<port>')
    .replace(/run [a-z0-9]{6}, seed \d+/g, 'run <run>, seed <seed>')
    .replace(/\bcf-[a-z0-9]{6}-/g, 'cf-<run>-')
    .replace(/in \d+(\.\d+)? s, \d+ requests/g, 'in <s> s, <n> requests')
    // How many rules ran at once follows the answer times, which a busy machine stretches (width.ts).
    .replace(/(<n> requests); [^\n]*rules at once[^\n]*/g, '$1')
    .replace(/exchange \d+/g, 'exchange <n>')
    .replace(/\d\d:\d\d:\d\d UTC/g, '<hh:mm:ss> UTC')
    .replace(/\d+ requests? with no answer/g, '<n> requests with no answer')
    // What was observed before a target died depends on which requests were in flight.
    .replace(
      /Coverage: \d+ of \d+ documented statuses observed, \d+ of \d+/,
      'Coverage: <n> of <n> documented statuses observed, <n> of <n>',
    )
    // The relation places are the model's (an endpoint added since has places no rule here covers);
    // that every place has its instance is test/suites/relation-coverage.test.ts's to show.
    .replace(/ \d+\/\d+\b/g, ' <n>/<n>')
    // 429s from the §8 limit the embedded settings enable depend on timing: said only when they happened.
    .replace(/\nThe target answered 429 and the run waited as asked[^\n]*\n/, '');

const lines = (text: string) => text.trimEnd().split('\n');

/**
 * A target that dies after `answers` requests: the reference server behind a front that, at the
 * next request, destroys every open connection and closes its listener, so that request is reset
 * and every later one refused.
 */
async function dyingTarget(answers: number) {
  const seed = await embeddedSeed({ token: DEFAULT_TOKEN });
  const server = await startReferenceServer({ seed });
  const upstream = new URL(server.url);
  const sockets = new Set<Socket>();
  let seen = 0;
  const front = createServer((req, res) => {
    if (++seen > answers) {
      front.close();
      for (const s of sockets) s.destroy();
      return;
    }
    const up = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    req.pipe(up);
  });
  front.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      front.close();
      await server.close();
    },
  };
}

describe('a failing run in one screen', () => {
  it('one injected bug against the reference server: one line per failing rule', async () => {
    const out = consoleFor();
    const { report } = await runAgainstReference(
      { fault: 'notes.no-dedup' },
      { seed: 7, rules: recordedRules, onEvent: out.onEvent, replayCommand: (id) => `npx conformance --rule ${id}` },
    );
    const text = out.finish(report);
    expect(lines(text).length).toBeLessThan(80);
    expect(text).toMatch(/^ {2}✗ MUST notes\.dedup\.same-body-and-created-at \(§4\.2 notes rule 2\) — .*expected/m);
    expect(text).not.toMatch(/curl -i|replay: /);
    await expect(normalised(text)).toMatchFileSnapshot('__snapshots__/console-one-bug.txt');
  });

  it('a target that dies mid-run is named once, with the last answer and the first request without one', async () => {
    const target = await dyingTarget(60);
    const out = consoleFor();
    let report: Report;
    try {
      report = await runConformance({
        baseUrl: target.url,
        auth: { token: DEFAULT_TOKEN },
        fixtures: await embeddedFixtures(),
        payloads: embeddedPayloads(),
        rules: recordedRules,
        selection: { rules: ['notes.*', 'migration.*'] },
        // One rule at a time: which request the target dies at, and which rules it stops, is the
        // same every run.
        concurrency: 1,
        seed: 7,
        onEvent: out.onEvent,
      });
    } finally {
      await target.close();
    }
    ReportSchema.parse(report);
    const silent = report.stopped_answering!;
    expect(silent).toBeDefined();
    expect(silent.last_answered.exchange).toBe(60);
    expect(silent.first_unanswered).toMatchObject({ exchange: 61, error: 'reset' });
    expect(silent.rules.length).toBeGreaterThan(5);
    for (const id of silent.rules) expect(report.rules.find((r) => r.id === id)?.verdict).toBe('error');

    const text = out.finish(report);
    expect(lines(text).length).toBeLessThan(80);
    expect(text.match(/stopped answering/g)).toHaveLength(1);
    expect(text).toContain(
      `The target stopped answering after ${silent.last_answered.method} ${silent.last_answered.url} (exchange 60,`,
    );
    expect(text).toMatch(new RegExp(`${silent.rules.length} rules \\(\\d+ MUST\\) not judged because of it`));
    expect(text).not.toMatch(/ECONNREFUSED|other side closed/);
    await expect(normalised(text)).toMatchFileSnapshot('__snapshots__/console-target-died.txt');
  });

  it("a supplier's partial mock answering 501: failures grouped per endpoint and per cause", async () => {
    const mock = await startPartialMock();
    const out = consoleFor();
    let report: Report;
    try {
      report = await runConformance({
        baseUrl: mock.url,
        auth: { token: MOCK_TOKEN },
        fixtures: { import_suppliers: { ongoing: MOCK_SUPPLIER }, operations_team: MOCK_TEAM },
        rules: recordedRules,
        seed: 7,
        onEvent: out.onEvent,
      });
    } finally {
      await mock.close();
    }
    const text = out.finish(report);
    expect(lines(text).length).toBeLessThan(80);
    // Each endpoint the mock does not implement is one line, with the rules it left not judged,
    // including the one a setup step needed (the canonical business).
    expect(text).toMatch(
      /^ {2}\d+ rules: not judged: notes creation not implemented \(POST \/v1\/data-import\/notes\/create\/ answered 501\)$/m,
    );
    expect(text).toMatch(
      /^ {2}\d+ rules: not judged: business creation not implemented \(POST \/v1\/data-import\/business\/ answered 501\)$/m,
    );
    expect(text).toMatch(
      new RegExp(
        `${(report.summary.not_implemented ?? []).length} endpoints not implemented \\(.*\\).*accept a partial implementation with --partial`,
      ),
    );
    expect((report.summary.not_implemented ?? []).length).toBeGreaterThan(5);
    // Every failing rule is on the screen once: on its own line or counted in a group.
    const counted = [...text.matchAll(/^ {2}[!✗] .* (\d+) rules? \(\d+ MUST\)/gm)].reduce(
      (n, m) => n + Number(m[1]),
      0,
    );
    const own = text.match(/^ {2}[✗!] (MUST|SHOULD|INFO) /gm)?.length ?? 0;
    expect(counted + own).toBe(report.summary.counts.fail + report.summary.counts.error);
    await expect(normalised(text)).toMatchFileSnapshot('__snapshots__/console-partial-mock.txt');
  });

  it('--verbose keeps the detail: every rule as it ends, and the replay command and curl of each failure', async () => {
    const out = consoleFor(true);
    const { report } = await runAgainstReference(
      { fault: 'notes.no-dedup' },
      {
        seed: 7,
        selection: { rules: ['notes.dedup.*'] },
        onEvent: out.onEvent,
        replayCommand: (id) => `npx conformance --rule ${id}`,
      },
    );
    const text = out.finish(report);
    expect(text).toMatch(/^✓ MUST notes\.dedup\.other-body-creates$/m);
    expect(text).toContain('replay: npx conformance --rule notes.dedup.same-body-and-created-at');
    expect(text).toMatch(/^ {6}curl: curl -i -X POST http:\/\/127\.0\.0\.1:\d+\/v1\/data-import\/notes\/create\//m);
    expect(text).toMatch(/^ {2} *\d+% {2}§4\.2 +Data added to an imported account /m);
  });
});

describe('one line per failure, whatever the target wrote', () => {
  it("a reason with line breaks and terminal controls stays on its rule's line, controls written out", () => {
    const { reporter, text } = capturedConsole({ env: { FORCE_COLOR: '1' } });
    const forged = 'FORGED: all rules passed';
    reporter.summary(
      build([
        {
          rule: { id: 'notes.create.one-result-per-note', level: 'MUST', spec: '§4.2 notes', endpoints: [] },
          outcome: {
            verdict: 'fail',
            reason: `the notes \u001b]0;pwned\u0007\u001b[2J\r${forged}: expected 201, got 400\n${HOSTILE_REASON}`,
            failure: { message: 'expected 201' },
          },
        },
      ]),
    );
    const plain = text().replace(/\u001b\[[0-9;]*m/g, '');
    expect(plain).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(plain).not.toMatch(new RegExp(`^${forged}`, 'm'));
    expect(plain).toMatch(
      /^ {2}✗ MUST notes\.create\.one-result-per-note \(§4\.2 notes\) — expected 201, got 400; the notes .*pwned.*FORGED: all rules passed$/m,
    );
  });
});
