/**
 * Baselines that cannot rot: an entry past its `until` day excuses nothing (the failure counts as
 * new, and the run says the entry expired), an entry whose rule passes now is always listed and fails
 * the run under --strict-baseline, and a malformed `until` is a usage error naming the file, the
 * entry and the field. Against a reference server with one fault: `auth.401.account-transfer-status`
 * fails, `auth.401.validate-account` passes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/config/errors.js';
import {
  type Baseline,
  BaselineEntry,
  excuse,
  loadBaseline,
  MAX_BASELINE_BYTES,
  MAX_BASELINE_ENTRIES,
} from '../../core/engine/baseline.js';
import { expect as expectations } from '../../core/engine/expect.js';
import { RuleFailure } from '../../core/engine/failures.js';
import type { Failure } from '../../core/engine/result.js';
import type { HttpResponse } from '../../core/http/client.js';
import { mergeReports } from '../../core/report/merge.js';
import { runCli } from '../helpers/cli.js';
import { useConfiguredTarget } from '../helpers/reference.js';
import { build } from '../helpers/sample-report.js';

/** Loads `text` as a baseline file, or returns the error it is refused with. */
function refusal(file: string): Error {
  try {
    loadBaseline(file);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as Error;
  }
  throw new Error(`${file} was read`);
}

const FAILS = 'auth.401.account-transfer-status';
const PASSES = 'auth.401.validate-account';
/** FAILS failed, as a result says it. */
const FAILED = { id: FAILS, verdict: 'fail', failure: { message: 'expected 401, got 200' } } as const;

function baselineFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'baseline-')), 'baseline.yaml');
  writeFileSync(file, text);
  return file;
}

describe('until: the day an entry stops excusing', () => {
  const file = baselineFile(`- rule: ${FAILS}\n  comment: "DI-7: fix planned"\n  until: 2026-03-31\n`);
  const on = (iso: string) => loadBaseline(file, { now: new Date(iso) });

  it('excuses through its day, in UTC, and nothing from the next day on', () => {
    expect(excuse(on('2026-03-31T23:59:59Z'), FAILED)?.until).toBe('2026-03-31');
    expect(excuse(on('2026-04-01T00:00:00Z'), FAILED)).toBeUndefined();
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

describe('B1: a reason is matched against what the rule expected, never against text the target sent', () => {
  /** An answer as a rule's assertions read it: a status and a body the target chose. */
  const answered = (status: number, text: string) =>
    ({
      status,
      text,
      exchange: { seq: 3, request: { method: 'POST', url: 'https://staging.example.com/v1/data-import/x/' } },
    }) as unknown as HttpResponse;
  const failureOf = (check: () => void): Failure => {
    try {
      check();
    } catch (error) {
      if (error instanceof RuleFailure) return error.detail;
      throw error;
    }
    throw new Error('the check passed');
  };
  const judged = (failure: Failure, entry: Baseline['entries'][number]) =>
    build(
      [
        {
          rule: { id: FAILS, level: 'MUST', spec: '§5.3', endpoints: [] },
          outcome: { verdict: 'fail', reason: failure.message, failure },
        },
      ],
      { baseline: { file: 'baseline.yaml', entries: [entry], today: '2026-01-01' } },
    );
  const entry = { rule: FAILS, reason: 'expected 201', comment: 'DI-7: staged accounts answer 400' };

  it('excuses the failure the reason names: the rule expected 201', () => {
    const known = failureOf(() => expectations.status(answered(400, '{"detail":"bad"}'), 201, 'staging the account'));
    expect(known.expectation).toBe('staging the account: expected 201');
    const report = judged(known, entry);
    expect(report.rules[0].expected_failure).toEqual({ comment: entry.comment, reason: 'expected 201' });
    expect(report.summary).toMatchObject({ must_failures: 0, expected_failures: 1, exit_code: 0 });
  });

  it('does not excuse another failure of the rule whose quoted answer contains the reason', () => {
    const other = failureOf(() =>
      expectations.status(answered(200, '{"detail":"expected 201"}'), 401, 'without a token'),
    );
    // The message quotes the target's body, reason and all; the expectation is the suite's alone.
    expect(other.message).toContain('expected 201');
    expect(other.expectation).toBe('without a token: expected 401');
    const report = judged(other, entry);
    expect(report.rules[0].expected_failure).toBeUndefined();
    expect(report.summary).toMatchObject({ must_failures: 1, expected_failures: 0, exit_code: 1 });
  });

  it('matches a free-form check (no expectation) only by an entry without reason, and an error by its kind', () => {
    const free = failureOf(() => expectations.that(false, 'the listing must show cf-1, got "expected 201"'));
    expect(free.expectation).toBeUndefined();
    expect(judged(free, entry).rules[0].expected_failure).toBeUndefined();
    expect(judged(free, { rule: FAILS, comment: 'DI-8' }).rules[0].expected_failure).toEqual({ comment: 'DI-8' });
    const timedOut = { id: FAILS, verdict: 'error', error_kind: 'timeout', cause: 'run.max-time' } as const;
    const baseline: Baseline = { file: 'b.yaml', entries: [{ rule: FAILS, reason: 'timeout', comment: 'slow' }] };
    expect(excuse(baseline, timedOut)?.comment).toBe('slow');
    expect(excuse(baseline, { ...timedOut, error_kind: 'exchange', cause: undefined })).toBeUndefined();
  });
});

describe('B2: a baseline file is read within bounds', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baseline-bounds-'));

  it(`refuses a file over ${MAX_BASELINE_BYTES} bytes before parsing it, naming the file and the limit`, () => {
    const file = join(dir, 'huge baseline.yaml');
    writeFileSync(file, `# ${'x'.repeat(MAX_BASELINE_BYTES)}\n`);
    const error = refusal(file);
    expect(error.message).toBe(
      `The expected-failures file ${file} is ${MAX_BASELINE_BYTES + 3} bytes, more than the 1 MiB it may hold.`,
    );
  });

  it(`refuses more than ${MAX_BASELINE_ENTRIES} entries, naming the file, the count and the limit`, () => {
    const file = join(dir, 'many.yaml');
    const entries = Array.from({ length: MAX_BASELINE_ENTRIES + 1 }, (_, i) => `- {rule: r.${i}, comment: c}\n`);
    writeFileSync(file, entries.join(''));
    expect(refusal(file).message).toBe(
      `${file} has ${MAX_BASELINE_ENTRIES + 1} entries, more than the ${MAX_BASELINE_ENTRIES} an expected-failures file may hold.`,
    );
    // At the limit it is read.
    writeFileSync(file, entries.slice(1).join(''));
    expect(loadBaseline(file).entries).toHaveLength(MAX_BASELINE_ENTRIES);
  });

  it('lists the first 20 problems of a refused file, then counts the rest', () => {
    const file = join(dir, 'no-comments.yaml');
    writeFileSync(file, Array.from({ length: 30 }, (_, i) => `- rule: r.${i}\n`).join(''));
    const lines = refusal(file).message.split('\n');
    expect(lines[0]).toBe(`${file} has problems:`);
    expect(lines.slice(1)).toHaveLength(21);
    expect(lines[1]).toBe('  - entry 1 (rule r.0), comment: a comment is mandatory: say why this failure is accepted');
    expect(lines[21]).toBe('  - and 10 more problems');
  });

  it('refuses a directory and a device as not regular files, without reading them', () => {
    expect(refusal(dir).message).toBe(`Cannot read the expected-failures file ${dir}: it is a directory.`);
    expect(refusal('/dev/zero').message).toBe(
      'Cannot read the expected-failures file /dev/zero: it is not a regular file (a FIFO, socket or device).',
    );
    expect(refusal(join(dir, 'missing.yaml')).message).toMatch(/: ENOENT$/);
  });
});

describe('B5: until as YAML 1.1 writes a date', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baseline-yaml11-'));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it('accepts an unquoted date in a %YAML 1.1 file, and an explicit !!timestamp', () => {
    const yaml11 = file('yaml11.yaml', `%YAML 1.1\n---\n- rule: ${FAILS}\n  comment: "DI-7"\n  until: 2026-12-31\n`);
    expect(loadBaseline(yaml11).entries[0].until).toBe('2026-12-31');
    const tagged = file('tagged.yaml', `- rule: ${FAILS}\n  comment: "DI-7"\n  until: !!timestamp 2026-12-31\n`);
    expect(loadBaseline(tagged).entries[0].until).toBe('2026-12-31');
  });

  it('still refuses a day that does not exist, which a YAML 1.1 timestamp would roll into March', () => {
    const rolled = file('rolled.yaml', `%YAML 1.1\n---\n- rule: ${FAILS}\n  comment: "DI-7"\n  until: 2026-02-30\n`);
    expect(refusal(rolled).message).toContain(`entry 1 (rule ${FAILS}), until: no such day: write the last day`);
    const timed = file(
      'timed.yaml',
      `%YAML 1.1\n---\n- rule: ${FAILS}\n  comment: "DI-7"\n  until: 2026-12-31 10:00:00\n`,
    );
    expect(refusal(timed).message).toContain(`entry 1 (rule ${FAILS}), until: not a date`);
  });

  it('accepts a Date handed in by a caller, as the day it falls on in UTC', () => {
    const entry = BaselineEntry.parse({ rule: FAILS, comment: 'DI-7', until: new Date('2026-12-31T00:00:00Z') });
    expect(entry.until).toBe('2026-12-31');
    expect(BaselineEntry.safeParse({ rule: FAILS, comment: 'DI-7', until: new Date('nonsense') }).success).toBe(false);
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
  const target = useConfiguredTarget(['auth.any-token-on-status'], 'baseline-cli-');

  /** Runs the two rules with `baseline` as the expected-failures file; returns the exit code, output and reports. */
  async function run(baseline: string, ...flags: string[]) {
    writeFileSync(join(target.dir, 'baseline.yaml'), baseline);
    const reportDir = mkdtempSync(join(target.dir, 'report-'));
    const res = await runCli(
      [
        ...['--rule', FAILS, '--rule', PASSES, '--expected-failures', 'baseline.yaml'],
        ...['--report-dir', reportDir, '--reporter', 'console,json,markdown,sarif,html', ...flags],
      ],
      { cwd: target.dir },
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
      html: read('report.html'),
      sarif: read('report.sarif') ? JSON.parse(read('report.sarif')) : undefined,
    };
  }

  it('an entry within its day excuses the failure (exit 0), and the counts say what the verdict says (B4)', async () => {
    const r = await run(`- rule: ${FAILS}\n  comment: "DI-7: fix planned"\n  until: 2999-12-31\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.summary).toMatchObject({ must_failures: 0, expected_failures: 1, exit_code: 0 });
    expect(r.json.baseline.expired).toBeUndefined();
    // The failure is counted, said excused, and the verdict says which failure does not count.
    expect(r.stdout).toMatch(/^2 rules: 1 passed, 1 failed \(excused by the baseline\), 0 not judged \(error\)/m);
    expect(r.stdout).toMatch(
      /^Conformant: every MUST rule was judged and none failed, apart from 1 MUST failure excused by the baseline\.$/m,
    );
    expect(r.stdout).not.toMatch(/none failed\.$/m);
  });

  it('B3: beside a live entry, an expired one of the same rule is not said: the failure is excused, not new', async () => {
    const r = await run(
      `- rule: ${FAILS}\n  comment: "DI-6: old plan"\n  until: 2000-01-31\n- rule: ${FAILS}\n  comment: "DI-7: new plan"\n  until: 2999-12-31\n`,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.rules.find((x: { id: string }) => x.id === FAILS).expected_failure).toEqual({
      comment: 'DI-7: new plan',
    });
    expect(r.json.baseline.expired).toBeUndefined();
    expect(r.stdout).toContain(`Expected failures, excused by baseline.yaml (1)`);
    expect(r.stdout).not.toMatch(/expired/);
    expect(r.md).not.toMatch(/Expired on/);
  });

  it('B5: a %YAML 1.1 baseline with an unquoted until day excuses the failure', async () => {
    const r = await run(`%YAML 1.1\n---\n- rule: ${FAILS}\n  comment: "DI-7"\n  until: 2999-12-31\n`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.summary).toMatchObject({ must_failures: 0, expected_failures: 1 });
  });

  it('B2: lists the first 20 entries naming no rule, then how many more, on the console and in the HTML', async () => {
    const unknown = Array.from({ length: 25 }, (_, i) => `retired.rule-${String(i).padStart(2, '0')}`);
    const r = await run(unknown.map((id) => `- rule: ${id}\n  comment: gone\n`).join(''));
    expect(r.code, r.stderr).toBe(1);
    expect(r.json.baseline.unknown_rules).toEqual(unknown);
    const line = r.stdout.split('\n').find((l) => l.startsWith('Baseline entries naming no rule'))!;
    expect(line).toBe(
      `Baseline entries naming no rule of this run: ${unknown.slice(0, 20).join(', ')} and 5 more (report.json lists them all)`,
    );
    expect(r.html).toContain('<li><code>retired.rule-19</code></li>');
    expect(r.html).not.toContain('retired.rule-20');
    expect(r.html).toContain('<li>and 5 more (report.json lists them all)</li>');
  });

  it('B2: a file over the limit, or a FIFO, is a usage error (exit 2) naming the file, never a hang', async () => {
    writeFileSync(join(target.dir, 'big.yaml'), `# ${'x'.repeat(MAX_BASELINE_BYTES)}\n`);
    const big = await runCli(['--rule', PASSES, '--expected-failures', 'big.yaml', '--reporter', 'console'], {
      cwd: target.dir,
    });
    expect(big.code).toBe(2);
    expect(big.stderr).toContain(
      `The expected-failures file big.yaml is ${MAX_BASELINE_BYTES + 3} bytes, more than the 1 MiB it may hold.`,
    );
    expect(big.stderr).not.toMatch(/\n\s+at .*\.js:\d+/);
    execFileSync('mkfifo', [join(target.dir, 'fifo.yaml')]);
    // Opened for reading, a FIFO with no writer blocks: the run must refuse it without opening it.
    const fifo = await runCli(['--rule', PASSES, '--expected-failures', 'fifo.yaml', '--reporter', 'console'], {
      cwd: target.dir,
    });
    expect(fifo.code).toBe(2);
    expect(fifo.stderr).toContain(
      'Cannot read the expected-failures file fifo.yaml: it is not a regular file (a FIFO, socket or device).',
    );
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
    const res = await runCli(['--rule', PASSES, '--strict-baseline', '--reporter', 'console'], { cwd: target.dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--strict-baseline needs a baseline: give --expected-failures FILE');
  });
});
