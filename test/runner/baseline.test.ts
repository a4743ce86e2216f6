/**
 * Baselines that cannot rot: an entry past its `until` day excuses nothing (the failure counts as
 * new, and the run says the entry expired), an entry whose rule passes now is always listed and fails
 * the run under --strict-baseline, and a malformed `until` is a usage error naming the file, the
 * entry and the field. Against a reference server with one fault: `auth.401.accountTransferStatus`
 * fails, `auth.401.validateAccount` passes.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedSeed } from '../../app/embedded.js';
import { ConfigError } from '../../core/config/errors.js';
import { type Baseline, excuse, loadBaseline } from '../../core/engine/baseline.js';
import { mergeReports } from '../../core/report/merge.js';
import { DEFAULT_TOKEN, type ReferenceServer, startReferenceServer } from '../../reference/index.js';
import { runCli } from '../helpers/cli.js';
import { fullConfig } from '../helpers/config.js';
import { build } from '../helpers/sample-report.js';

const FAILS = 'auth.401.accountTransferStatus';
const PASSES = 'auth.401.validateAccount';

function baselineFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'baseline-')), 'baseline.yaml');
  writeFileSync(file, text);
  return file;
}

describe('until: the day an entry stops excusing', () => {
  const file = baselineFile(`- rule: ${FAILS}\n  comment: "DI-7: fix planned"\n  until: 2026-03-31\n`);
  const on = (iso: string) => loadBaseline(file, { now: new Date(iso) });

  it('excuses through its day, in UTC, and nothing from the next day on', () => {
    expect(excuse(on('2026-03-31T23:59:59Z'), FAILS, 'any reason')?.until).toBe('2026-03-31');
    expect(excuse(on('2026-04-01T00:00:00Z'), FAILS, 'any reason')).toBeUndefined();
    // A day is read in UTC whatever the machine's zone: the run's clock decides, not the zone.
    expect(on('2026-04-01T00:30:00+02:00').today).toBe('2026-03-31');
  });

  it.each([
    ['2026-02-30', 'no such day'],
    ['2026-3-31', 'not a date'],
    ['20260331', 'not a date'],
    ['next month', 'not a date'],
  ])('refuses until: %s, naming the file, the entry and the field', (until, why) => {
    const bad = baselineFile(
      `- rule: ${PASSES}\n  comment: fine\n- rule: ${FAILS}\n  comment: "DI-7"\n  until: ${until}\n`,
    );
    let error: unknown;
    try {
      loadBaseline(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(bad);
    expect((error as Error).message).toContain(`entry 2 (rule ${FAILS}), until: ${why}: write the last day`);
  });
});

describe('shards merged', () => {
  const fail = {
    verdict: 'fail',
    reason: 'expected 401, got 404',
    failure: { message: 'expected 401, got 404', expected: 401, actual: 404, path: 'status' },
  } as const;
  const shard = (id: string, outcome: { verdict: 'pass' } | typeof fail, baseline: Baseline) =>
    build([{ rule: { id, level: 'MUST', spec: '§5.3', endpoints: [] }, outcome }], { baseline });
  const entries = [
    { rule: 'a.passes', comment: 'fixed since' },
    { rule: 'b.fails', comment: 'DI-7', until: '2000-01-31' },
  ];

  it('keep the gate and the expired entries: what passes in one shard fails the merged run under --strict-baseline', () => {
    const strict: Baseline = { file: 'baseline.yaml', entries, today: '2026-01-01', strict: true };
    const merged = mergeReports([
      { file: 'one/report.json', report: shard('a.passes', { verdict: 'pass' }, strict) },
      { file: 'two/report.json', report: shard('b.fails', fail, strict) },
    ]);
    expect(merged.baseline).toEqual({
      file: 'baseline.yaml',
      entries: 2,
      now_passing: [{ rule: 'a.passes', comment: 'fixed since' }],
      unknown_rules: [],
      expired: [{ rule: 'b.fails', until: '2000-01-31', comment: 'DI-7' }],
      strict: true,
    });
    // The expired entry excused nothing: the failure is new, and it is what fails the run.
    expect(merged.summary).toMatchObject({ must_failures: 1, expected_failures: 0, exit_code: 1 });

    const lenient: Baseline = { file: 'baseline.yaml', entries: entries.slice(0, 1), today: '2026-01-01' };
    const passing = mergeReports([
      { file: 'one/report.json', report: shard('a.passes', { verdict: 'pass' }, { ...lenient, strict: true }) },
      { file: 'two/report.json', report: shard('c.passes', { verdict: 'pass' }, lenient) },
    ]);
    expect(passing.summary).toMatchObject({ conformant: true, exit_code: 1 });
    const none = mergeReports([
      { file: 'one/report.json', report: shard('a.passes', { verdict: 'pass' }, lenient) },
      { file: 'two/report.json', report: shard('c.passes', { verdict: 'pass' }, lenient) },
    ]);
    expect(none.summary).toMatchObject({ conformant: true, exit_code: 0 });
    expect(none.baseline?.now_passing).toEqual([{ rule: 'a.passes', comment: 'fixed since' }]);
  });
});

describe('the CLI with a baseline', () => {
  let server: ReferenceServer;
  let dir: string;
  beforeAll(async () => {
    server = await startReferenceServer({
      seed: await embeddedSeed({ token: DEFAULT_TOKEN }),
      faults: ['auth.any-token-on-status'],
    });
    dir = mkdtempSync(join(tmpdir(), 'baseline-cli-'));
    writeFileSync(join(dir, 'conformance.config.yaml'), fullConfig(server.url, `  token: ${DEFAULT_TOKEN}`));
  });
  afterAll(() => server?.close());

  /** Runs the two rules with `baseline` as the expected-failures file; returns the exit code, output and reports. */
  async function run(baseline: string, ...flags: string[]) {
    writeFileSync(join(dir, 'baseline.yaml'), baseline);
    const reportDir = mkdtempSync(join(dir, 'report-'));
    const res = await runCli(
      [
        ...['--rule', FAILS, '--rule', PASSES, '--expected-failures', 'baseline.yaml'],
        ...['--report-dir', reportDir, '--reporter', 'console,json,markdown,sarif', ...flags],
      ],
      { cwd: dir },
    );
    const read = (name: string) => {
      try {
        return readFileSync(join(reportDir, name), 'utf8');
      } catch {
        return '';
      }
    };
    return {
      ...res,
      json: read('report.json') ? JSON.parse(read('report.json')) : undefined,
      md: read('summary.md'),
      sarif: read('report.sarif') ? JSON.parse(read('report.sarif')) : undefined,
    };
  }

  it('an entry within its day excuses the failure (exit 0)', async () => {
    const r = await run(`- rule: ${FAILS}\n  comment: "DI-7: fix planned"\n  until: 2999-12-31\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.summary).toMatchObject({ must_failures: 0, expected_failures: 1, exit_code: 0 });
    expect(r.json.baseline.expired).toBeUndefined();
  });

  it('an expired entry excuses nothing: the failure counts as new (exit 1), and every report says it expired', async () => {
    const r = await run(`- rule: ${FAILS}\n  comment: "DI-7: fix planned"\n  until: 2000-01-31\n`);
    expect(r.code, r.stderr).toBe(1);
    expect(r.json.summary).toMatchObject({ must_failures: 1, expected_failures: 0, exit_code: 1 });
    expect(r.json.rules.find((x: { id: string }) => x.id === FAILS).expected_failure).toBeUndefined();
    expect(r.json.baseline.expired).toEqual([{ rule: FAILS, until: '2000-01-31', comment: 'DI-7: fix planned' }]);
    expect(r.stdout).toMatch(
      new RegExp(`Baseline entries past their until day.*\\n {2}- ${FAILS} expired on 2000-01-31`),
    );
    expect(r.stdout).toMatch(new RegExp(`✗ MUST ${FAILS} `));
    expect(r.md).toContain(`Expired on 2000-01-31, excuses nothing (a failure counts as new): \`${FAILS}\``);
  });

  it('an entry whose rule passes now is listed, and fails the run only under --strict-baseline', async () => {
    const baseline = `- rule: ${FAILS}\n  comment: "DI-7"\n- rule: ${PASSES}\n  comment: "DI-3: fixed since"\n`;
    const lenient = await run(baseline);
    expect(lenient.code, lenient.stderr).toBe(0);
    expect(lenient.json.baseline.now_passing).toEqual([{ rule: PASSES, comment: 'DI-3: fixed since' }]);
    expect(lenient.stdout).toMatch(new RegExp(`Baseline entries that pass now \\(remove them\\):\\n {2}- ${PASSES}`));
    expect(lenient.md).toContain(`Now passing, remove: \`${PASSES}\``);
    expect(lenient.stdout).not.toMatch(/--strict-baseline/);

    const strict = await run(baseline, '--strict-baseline');
    expect(strict.code, strict.stderr).toBe(1);
    expect(strict.json.summary).toMatchObject({ exit_code: 1, must_failures: 0, conformant: true });
    expect(strict.json.baseline).toMatchObject({ strict: true, now_passing: [{ rule: PASSES }] });
    expect(strict.stdout).toMatch(
      /^Conformant: .*\nExit code 1 \(--strict-baseline\): 1 baseline entry passes now; remove it from baseline\.yaml\.$/m,
    );
    expect(strict.md).toContain('**Exit code 1 (--strict-baseline): 1 baseline entry passes now');
    // The SARIF invocation carries the gate's exit code too.
    expect(strict.sarif.runs[0].invocations[0]).toMatchObject({ exitCode: 1, executionSuccessful: true });
    expect(strict.sarif.runs[0].results).toMatchObject([
      { ruleId: FAILS, suppressions: [{ status: 'accepted', justification: 'DI-7' }] },
    ]);
  });

  it('a malformed until is a usage error (exit 2) naming the file, the entry and the field', async () => {
    const r = await run(`- rule: ${FAILS}\n  comment: "DI-7"\n  until: 31/03/2026\n`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/baseline\.yaml has problems:/);
    expect(r.stderr).toContain(
      `entry 1 (rule ${FAILS}), until: not a date: write the last day the entry excuses as YYYY-MM-DD`,
    );
    expect(r.stderr).not.toMatch(/\n\s+at .*\.js:\d+/);
  });

  it('--strict-baseline without a baseline is a usage error (exit 2)', async () => {
    const res = await runCli(['--rule', PASSES, '--strict-baseline', '--reporter', 'console'], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--strict-baseline needs a baseline: give --expected-failures FILE');
  });
});
