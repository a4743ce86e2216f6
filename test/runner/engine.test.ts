import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN, startReferenceServer, type ReferenceServer } from '../../reference/index.js';
import { embeddedFixtures, embeddedSeed } from '../../app/embedded.js';
import { runConformance, type RunOptions } from '../../app/conformance.js';
import type { Report } from '../../core/report/schema.js';
import { type Intercept, rewriteJson, startProxy } from '../helpers/proxy.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
});
afterAll(() => server.close());

/** Runs some rules through a proxy that breaks what `intercept` breaks. */
async function runThrough(intercept: Intercept, options: RunOptions): Promise<Report> {
  const proxy = await startProxy(server.url, intercept);
  try {
    return await runConformance({
      baseUrl: proxy.url,
      auth: { token: DEFAULT_TOKEN },
      fixtures: await embeddedFixtures(),
      seed: 11,
      ...options,
    });
  } finally {
    await proxy.close();
  }
}

const rule = (report: Report, id: string) => {
  const found = report.rules.find((r) => r.id === id);
  if (!found) throw new Error(`no result for ${id}`);
  return found;
};

describe('verdicts: fail is the implementation, error is the exchange or a precondition', () => {
  it('fails a rule whose expectation the target breaks, with expected, actual and the replay command', async () => {
    const report = await runThrough(
      async (req, forward) =>
        req.path.endsWith('/create-or-update/') ? rewriteJson(await forward(), (b) => b, 200) : undefined,
      { selection: { rules: ['migration.stage.first-201'] } },
    );
    const r = rule(report, 'migration.stage.first-201');
    expect(r.verdict).toBe('fail');
    expect(r.failure).toMatchObject({ expected: 201, actual: 200, path: 'status' });
    expect(r.reason).toMatch(
      /expected 201 from POST \/v1\/data-import\/account-import-process\/create-or-update\/, got 200/,
    );
    expect(r.replay).toMatch(/--rule migration\.stage\.first-201 --seed 11$/);
    expect(r.transcript[r.failure!.exchange_seq! - 1].response?.status).toBe(200);
    expect(report.summary).toMatchObject({ must_failures: 1, conformant: false, exit_code: 1 });
  });

  it('reports the JSON path of a body that does not match the documented response', async () => {
    const report = await runThrough(
      async (req, forward) =>
        req.path.includes('/account-transfer-status/')
          ? rewriteJson(await forward(), (b) => ({ ...b, status: 'DONE' }))
          : undefined,
      { selection: { rules: ['status.staged-unknown'] } },
    );
    const r = rule(report, 'status.staged-unknown');
    expect(r.verdict).toBe('fail');
    expect(r.failure?.path).toBe('body.status');
    expect(r.reason).toMatch(/body\.status: expected "UNKNOWN" or "IN_PROGRESS" or "COMPLETED", got "DONE"/);
  });

  it('a reset connection is an error of kind exchange, never a failure', async () => {
    const report = await runThrough((req) => (req.path.includes('/account-transfer-status/') ? 'reset' : undefined), {
      selection: { rules: ['status.404-without-process', 'status.staged-unknown'] },
    });
    for (const id of ['status.404-without-process', 'status.staged-unknown']) {
      const r = rule(report, id);
      expect([r.verdict, r.error_kind]).toEqual(['error', 'exchange']);
      expect(r.reason).toMatch(/GET \/v1\/data-import\/account-transfer-status\/.*: .*(reset|socket|closed)/i);
    }
    expect(report.summary.must_failures).toBe(2); // a MUST rule that could not be judged is not a pass
  });

  it('a setup step that cannot be established is a precondition error; the rule judging that step fails', async () => {
    const report = await runThrough(
      async (req, forward) =>
        req.path.endsWith('/process/')
          ? { status: 500, headers: { 'content-type': 'text/plain' }, body: 'busy' }
          : forward(),
      { selection: { rules: ['migration.process.creates-account', 'migration.process.status-completed'] } },
    );
    // 500 is the spec's "unexpected error" (§7.2): a judgement (a 502–504 would leave it not judged).
    expect(rule(report, 'migration.process.creates-account').verdict).toBe('fail');
    const dependent = rule(report, 'migration.process.status-completed');
    expect([dependent.verdict, dependent.error_kind]).toEqual(['error', 'precondition']);
    // The setup chain found the process step refused: the dependent rule names that one cause.
    expect(dependent.cause).toBe('setup.import');
    expect(dependent.reason).toMatch(
      /precondition: process \(import\) the staged account: refused before any rule ran \(POST .*\/process\/ answered 500\)/,
    );
    expect(report.causes.find((c) => c.id === 'setup.import')).toMatchObject({
      status: 500,
      rules: ['migration.process.status-completed'],
    });
  });

  it('an endpoint that answers 501 to everything is "not implemented" in the capability matrix, not "deviates"', async () => {
    const report = await runThrough(
      async (req) =>
        req.path.endsWith('/notes/create/')
          ? { status: 501, headers: { 'content-type': 'application/json' }, body: '{"detail":"Not implemented."}' }
          : undefined,
      { selection: { rules: ['notes.*', 'migration.stage.first-201'] } },
    );
    const status = (id: string) => report.capabilities.find((c) => c.endpoint === id)?.status;
    expect(status('createNotes')).toBe('not implemented');
    expect(status('stageAccount')).toBe('conforms');
  });

  it('a body that is not JSON where JSON is due is an error', async () => {
    const report = await runThrough(
      async (req, forward) =>
        req.path.includes('/account-transfer-status/')
          ? { ...(await forward()), body: '<html>oops</html>', headers: { 'content-type': 'text/html' } }
          : undefined,
      { selection: { rules: ['status.staged-unknown'] } },
    );
    const r = rule(report, 'status.staged-unknown');
    expect([r.verdict, r.error_kind]).toEqual(['error', 'exchange']);
    expect(r.reason).toMatch(/expected a JSON body .* got text\/html "<html>oops<\/html>"/);
  });

  it('a request that never gets an answer is an error within the timeout', async () => {
    // The timeout under test applies to every request of the run: short enough to keep the test quick,
    // far above what an answered request takes on a busy machine. The hung request ends the run's wait
    // only through it (the reason says so); vitest's limit catches a runner that would wait forever.
    const report = await runThrough((req) => (req.path.includes('/account-transfer-status/') ? 'hang' : undefined), {
      selection: { rules: ['status.404-without-process'] },
      timeoutMs: 3_000,
      // Judged on its first run: a rule ended by a missing answer is run again (flaky.test.ts covers that).
      retries: 0,
    });
    const r = rule(report, 'status.404-without-process');
    expect([r.verdict, r.error_kind]).toEqual(['error', 'exchange']);
    expect(r.reason).toMatch(/no complete response within 3000 ms/);
  });
});

describe('preconditions, selection, baseline and bail', () => {
  it('skips a rule whose fixture is not configured, naming the key', async () => {
    const fixtures = { ...(await embeddedFixtures()) };
    delete fixtures.import_suppliers!.paused;
    const report = await runConformance({
      baseUrl: server.url,
      auth: { token: DEFAULT_TOKEN },
      fixtures,
      selection: { rules: ['migration.stage.refuses-*'] },
    });
    const r = rule(report, 'migration.stage.refuses-paused-supplier');
    expect([r.verdict, r.skip_key]).toEqual(['skip', 'fixtures.import_suppliers.paused']);
    expect(r.reason).toBe('needs a Paused import supplier: set fixtures.import_suppliers.paused');
    expect(rule(report, 'migration.stage.refuses-complete-supplier').verdict).toBe('pass');
    // A MUST rule that was not judged leaves the run incomplete (exit 4), unless its skip is accepted.
    expect([report.summary.conformant, report.summary.incomplete, report.summary.exit_code]).toEqual([false, true, 4]);
    expect(report.summary.missing_keys).toEqual(['fixtures.import_suppliers.paused']);
    const accepted = await runConformance({
      baseUrl: server.url,
      auth: { token: DEFAULT_TOKEN },
      fixtures,
      selection: { rules: ['migration.stage.refuses-*'] },
      allowSkip: ['migration.stage.*-paused-*'],
    });
    expect([accepted.summary.conformant, accepted.summary.exit_code, accepted.summary.accepted_skips]).toEqual([
      true,
      0,
      ['migration.stage.refuses-paused-supplier', 'migration.stage.refuses-update-paused-supplier'],
    ]);
  });

  it('starts property rules, rules of a relation at many places and edge rules first but reports every rule in suite order', async () => {
    const { defineRules } = await import('../../core/engine/rule.js');
    const started: string[] = [];
    const quick = (id: string, property = false, places = 0, kind = 'echo') => ({
      id: `sched.${id}`,
      spec: '§9.1',
      level: 'MUST' as const,
      title: id,
      property,
      endpoints: ['accountTransferStatus' as const],
      ...(places
        ? {
            relation: {
              kind,
              places: Array.from({ length: places }, (_, i) => ({
                endpoint: 'accountTransferStatus' as const,
                field: `f${i}`,
              })),
            },
          }
        : {}),
      async check() {
        started.push(id);
      },
    });
    const rules = defineRules('sched', [
      quick('a'),
      quick('b'),
      quick('few-places', false, 3),
      quick('long-1', true),
      quick('c'),
      quick('many-places', false, 40),
      // An edge rule sets up a subject per request where its endpoint takes its data once: long at any number of places.
      quick('edge-few', false, 3, 'edge'),
      quick('long-2', true),
    ]);
    const report = await runConformance({
      baseUrl: server.url,
      auth: { token: DEFAULT_TOKEN },
      fixtures: await embeddedFixtures(),
      rules,
      concurrency: 1,
    });
    expect(started).toEqual(['long-1', 'many-places', 'edge-few', 'long-2', 'a', 'b', 'few-places', 'c']);
    expect(report.rules.map((r) => r.id)).toEqual([
      'sched.a',
      'sched.b',
      'sched.few-places',
      'sched.long-1',
      'sched.c',
      'sched.many-places',
      'sched.edge-few',
      'sched.long-2',
    ]);
  });

  it('selects by glob, section, level and tag, and shards deterministically', async () => {
    const { selectRules } = await import('../../core/engine/select.js');
    const { allRules } = await import('../../suites/index.js');
    const ids = (s: Parameters<typeof selectRules>[1]) => selectRules(allRules, s).rules.map((r) => r.id);
    expect(ids({ rules: ['migration.process.dry-*'] })).toEqual([
      'migration.process.dry-run',
      'migration.process.dry-run-false',
      'migration.process.dry-run-no-trace',
      'migration.process.dry-run-not-listed-as-imported',
      'migration.process.dry-run-supported',
      'migration.process.dry-run-checks-team',
      'migration.process.dry-run-false-string',
      'migration.process.dry-run-checks-paused-supplier',
      'migration.process.dry-run-checks-complete-supplier',
      'migration.process.dry-run-imported-numbers',
    ]);
    const s8 = selectRules(allRules, { sections: ['§8'] }).rules;
    expect(s8.every((r) => /§8\b/.test(r.spec))).toBe(true);
    expect(s8.map((r) => r.id)).toEqual(
      expect.arrayContaining(['limits.concurrency.429-then-retry', 'billing.once-per-ledger.other-ledger']),
    );
    expect(ids({ sections: ['8'] })).toEqual(s8.map((r) => r.id));
    expect(ids({ sections: ['4.3'], levels: ['SHOULD'] })).toEqual([
      'conventions.datetime.written-with-z',
      'migration.process.listed-as-imported',
      'migration.process.dry-run-not-listed-as-imported',
      'status.listing-imported-excludes-pending',
      'history.account.state-agrees',
    ]);
    expect(ids({ tags: ['limits'] })).toEqual(['limits.concurrency.429-then-retry']);
    const shards = [1, 2, 3].map((index) => ids({ shard: { index, total: 3 } }));
    expect(shards.flat().sort()).toEqual(allRules.map((r) => r.id).sort());
    expect(new Set(shards.flat()).size).toBe(allRules.length);
    expect(ids({ shard: { index: 2, total: 3 } })).toEqual(shards[1]);
    expect(selectRules(allRules, { rules: ['nope.*'], tags: ['zzz'] }).unmatched).toEqual([
      '--rule nope.*',
      '--tag zzz',
    ]);
  });

  it('excuses baselined failures, flags baseline entries that pass now, and keeps a different failure new', async () => {
    const breakStage: Intercept = async (req, forward) =>
      req.path.endsWith('/create-or-update/') ? rewriteJson(await forward(), (b) => b, 200) : undefined;
    const baseline = {
      file: 'baseline.yaml',
      entries: [
        // Matched against what the rule expected (expect.status: "…: expected 201"), never what the target answered.
        { rule: 'migration.stage.first-201', comment: 'known: DI-1', reason: 'expected 201' },
        { rule: 'status.404-without-process', comment: 'fixed since' },
        { rule: 'gone.rule', comment: 'removed rule' },
      ],
    };
    const report = await runThrough(breakStage, {
      selection: { rules: ['migration.stage.first-201', 'status.404-without-process'] },
      baseline,
    });
    expect(rule(report, 'migration.stage.first-201').expected_failure).toEqual({
      comment: 'known: DI-1',
      reason: 'expected 201',
    });
    expect(report.summary).toMatchObject({ must_failures: 0, expected_failures: 1, exit_code: 0 });
    expect(report.baseline).toEqual({
      file: 'baseline.yaml',
      entries: 3,
      now_passing: [{ rule: 'status.404-without-process', comment: 'fixed since' }],
      unknown_rules: ['gone.rule'],
    });

    const otherFailure = await runThrough(
      async (req, forward) =>
        req.path.endsWith('/create-or-update/') ? rewriteJson(await forward(), () => ({}), 201) : undefined,
      { selection: { rules: ['migration.stage.first-201'] }, baseline },
    );
    expect(rule(otherFailure, 'migration.stage.first-201').expected_failure).toBeUndefined();
    expect(otherFailure.summary.exit_code).toBe(1);
  });

  it('--bail stops scheduling after the first MUST failure', async () => {
    const report = await runThrough(
      async (req, forward) =>
        req.path.endsWith('/create-or-update/') ? rewriteJson(await forward(), (b) => b, 200) : undefined,
      { selection: { sections: ['4.1'] }, bail: true, concurrency: 1 },
    );
    expect(report.run.bailed).toBe(true);
    const notRun = report.rules.filter((r) => r.reason === 'not run: --bail stopped the run after a MUST failure');
    expect(notRun.length).toBeGreaterThan(0);
    const firstFail = report.rules.findIndex((r) => r.verdict === 'fail');
    expect(report.rules.slice(firstFail + 1).every((r) => r.verdict === 'skip')).toBe(true);
  });
});
