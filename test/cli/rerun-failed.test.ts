/**
 * `conformance --rerun-failed report.json`: the rules an earlier report left failing or not judged,
 * run again with its seed against the target given now. A run against a server with a fault, then
 * re-run against a faithful server: FIXED for each; against the same fault: STILL FAILING. A report
 * naming a rule that no longer exists names it and runs the rest; a missing or invalid report is a
 * usage error.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN, type ReferenceServer, startReferenceServer } from '../../reference/index.js';
import { MAX_REPORT_RULES } from '../../app/cli/report-input.js';
import { runCli } from '../helpers/cli.js';
import { fullConfig } from '../helpers/config.js';

/** Raw terminal control: C0 but the line feeds between lines, DEL, C1, line separators, bidi overrides. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

type Rule = { id: string; verdict: string; skip_accepted?: boolean };
type Report = { run: { seed: number }; rules: Rule[]; summary: { exit_code: number } };

let faithful: ReferenceServer;
let faulty: ReferenceServer;
let dir: string;
let first: Report;
let leftFailing: string[];

const config = (url: string) => fullConfig(url, `  token: ${DEFAULT_TOKEN}`);
const report = (sub: string): Report => JSON.parse(readFileSync(join(dir, sub, 'report.json'), 'utf8'));
const outcomes = (stdout: string) =>
  [...stdout.matchAll(/^ {2}(FIXED|STILL FAILING|STILL NOT JUDGED|NOW FAILING|NOT RUN|UNKNOWN RULE) +(\S+)/gm)]
    .map((m) => `${m[2]} ${m[1]}`)
    .sort();

beforeAll(async () => {
  [faithful, faulty] = await Promise.all([
    startReferenceServer(),
    startReferenceServer({ faults: ['notes.no-dedup'] }),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'rerun-'));
  writeFileSync(join(dir, 'faulty.yaml'), config(faulty.url));
  writeFileSync(join(dir, 'faithful.yaml'), config(faithful.url));
  const res = await runCli(
    ['--config', 'faulty.yaml', '--rule', 'notes.*', '--seed', '4242', '--reporter', 'json', '--report-dir', 'first'],
    { cwd: dir },
  );
  expect(res.code).toBe(1);
  first = report('first');
  leftFailing = first.rules
    .filter((r) => r.verdict === 'fail' || r.verdict === 'error' || (r.verdict === 'skip' && !r.skip_accepted))
    .map((r) => r.id)
    .sort();
});
afterAll(async () => {
  await Promise.all([faithful?.close(), faulty?.close()]);
});

describe('conformance --rerun-failed', () => {
  it('against a faithful server: exactly the failing rules run again, with the recorded seed, each FIXED', async () => {
    expect(leftFailing.length).toBeGreaterThan(0);
    expect(leftFailing.length).toBeLessThan(first.rules.length);
    const res = await runCli(
      [
        '--config',
        'faithful.yaml',
        '--rerun-failed',
        'first/report.json',
        '--reporter',
        'json',
        '--report-dir',
        'fixed',
      ],
      { cwd: dir },
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(outcomes(res.stdout)).toEqual(leftFailing.map((id) => `${id} FIXED`));
    expect(res.stdout).toContain(`seed ${first.run.seed}`);
    const again = report('fixed');
    expect(again.run.seed).toBe(4242);
    expect(again.rules.map((r) => r.id).sort()).toEqual(leftFailing);
  });

  it('against the same fault: STILL FAILING, exit 1; --seed overrides the recorded seed', async () => {
    const res = await runCli(
      [
        '--config',
        'faulty.yaml',
        '--rerun-failed',
        'first/report.json',
        '--seed',
        '7',
        '--reporter',
        'json',
        '--report-dir',
        'still',
      ],
      { cwd: dir },
    );
    expect(res.code).toBe(1);
    expect(outcomes(res.stdout)).toEqual(leftFailing.map((id) => `${id} STILL FAILING`));
    expect(report('still').run.seed).toBe(7);
  });

  it('names a rule the report has but no suite has now, and re-runs the rest', async () => {
    const renamed = structuredClone(first);
    const gone = renamed.rules.find((r) => r.id === leftFailing[0])!;
    gone.id = 'notes.renamed-since';
    writeFileSync(join(dir, 'renamed.json'), JSON.stringify(renamed));
    const res = await runCli(
      ['--config', 'faithful.yaml', '--rerun-failed', 'renamed.json', '--reporter', 'json', '--report-dir', 'renamed'],
      { cwd: dir },
    );
    expect(res.code).toBe(0);
    expect(outcomes(res.stdout)).toEqual(
      [...leftFailing.slice(1).map((id) => `${id} FIXED`), 'notes.renamed-since UNKNOWN RULE'].sort(),
    );
    expect(
      report('renamed')
        .rules.map((r) => r.id)
        .sort(),
    ).toEqual(leftFailing.slice(1));
  });

  it('names the first 20 unknown ids, controls written out, and counts the rest', async () => {
    const hostile = structuredClone(first);
    const forged = 'x\u001b]0;pwned\u0007\u001b[2J\u202e\u2028\n  FIXED             notes.forged\r\u009b';
    for (let i = 0; i < 25; i++) hostile.rules.push({ id: `${forged}${i}`, verdict: 'fail' });
    hostile.rules.push({ id: `${forged}0`, verdict: 'fail' }); // named twice, counted once
    writeFileSync(join(dir, 'hostile.json'), JSON.stringify(hostile));
    const res = await runCli(
      ['--config', 'faithful.yaml', '--rerun-failed', 'hostile.json', '--reporter', 'json', '--report-dir', 'hostile'],
      { cwd: dir },
    );
    expect(res.code).toBe(0);
    expect(res.stdout + res.stderr).not.toMatch(RAW_CONTROL);
    expect(res.stdout).not.toMatch(/notes\.forged\s*$/m);
    const unknown = res.stdout.split('\n').filter((l) => l.startsWith('  UNKNOWN RULE'));
    expect(unknown).toHaveLength(20);
    expect(unknown[0]).toBe(
      '  UNKNOWN RULE  x\\x1b]0;pwned\\x07\\x1b[2J\\u202e\\u2028\\n  FIXED             notes.forged\\r\\x9b0  (was failed; no rule has this id now: renamed or removed, not run)',
    );
    expect(res.stdout).toContain('\n  … and 5 more unknown rule ids, not run\n');
    expect(res.stdout).toMatch(/, 25 unknown\.$/m);
  });

  it(`a report of more than ${MAX_REPORT_RULES} rules is refused (exit 2)`, async () => {
    const many = structuredClone(first);
    many.rules = Array.from({ length: MAX_REPORT_RULES + 1 }, (_, i) => ({ id: `gone.${i}`, verdict: 'fail' }));
    writeFileSync(join(dir, 'many.json'), JSON.stringify(many));
    const res = await runCli(['--config', 'faithful.yaml', '--rerun-failed', 'many.json'], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr.split('\n')[0]).toBe(
      `conformance: --rerun-failed: many.json has ${MAX_REPORT_RULES + 1} rules, more than a report.json is read with (${MAX_REPORT_RULES}).`,
    );
  });

  it('a missing, unreadable or foreign report, or a rule selection beside it, is a usage error (exit 2)', async () => {
    writeFileSync(join(dir, 'broken.json'), '{"rules": [');
    writeFileSync(join(dir, 'foreign.json'), '{"hello": "world"}');
    const cases: [string[], RegExp][] = [
      [['--rerun-failed', 'nowhere.json'], /--rerun-failed: cannot read nowhere\.json \(ENOENT\)/],
      [['--rerun-failed', 'broken.json'], /--rerun-failed: broken\.json is not JSON/],
      [['--rerun-failed', 'foreign.json'], /--rerun-failed: foreign\.json is not a conformance report\.json/],
      [['--rerun-failed', 'first/report.json', '--rule', 'notes.*'], /--rerun-failed chooses the rules itself.*--rule/],
    ];
    for (const [args, message] of cases) {
      const res = await runCli(['--config', 'faithful.yaml', '--reporter', 'json', ...args], { cwd: dir });
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(message);
    }
  });
});
