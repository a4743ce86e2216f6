/**
 * `conformance --rerun-failed report.json`: the rules an earlier report left failing or not judged,
 * run again with its seed against the target that report recorded. Against the same fault: STILL
 * FAILING; pointed at another target: refused (exit 2) unless --rerun-target-changed, and then no
 * rule reads FIXED; once the fault is removed from the same target (a faithful server on the same
 * port): FIXED for each, also when the base URL is taken from the report. A report naming a rule that
 * no longer exists names it and runs the rest; a missing or invalid report is a usage error.
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
type Report = {
  run: { seed: number };
  rules: Rule[];
  summary: { exit_code: number };
  target: { base_url: string; config_digest?: string };
};

let faithful: ReferenceServer;
let faulty: ReferenceServer;
/** The faithful server started where the faulty one was: the same target, its fault removed. */
let repaired: ReferenceServer | undefined;
let dir: string;
/** Requests the faithful server answered: a refused re-run sends none. */
let faithfulRequests = 0;
let first: Report;
let leftFailing: string[];

const config = (url: string) => fullConfig(url, `  token: ${DEFAULT_TOKEN}`);
const report = (sub: string): Report => JSON.parse(readFileSync(join(dir, sub, 'report.json'), 'utf8'));
const outcomes = (stdout: string) =>
  [
    ...stdout.matchAll(
      /^ {2}(FIXED|STILL FAILING|STILL NOT JUDGED|NOW FAILING|NOT RUN|UNKNOWN RULE|PASSES HERE|FAILS HERE|NOT JUDGED HERE) +(\S+)/gm,
    ),
  ]
    .map((m) => `${m[2]} ${m[1]}`)
    .sort();

beforeAll(async () => {
  [faithful, faulty] = await Promise.all([
    startReferenceServer({ onRequest: () => faithfulRequests++ }),
    startReferenceServer({ faults: ['notes.no-dedup'] }),
  ]);
  dir = mkdtempSync(join(tmpdir(), 'rerun-'));
  writeFileSync(join(dir, 'faulty.yaml'), config(faulty.url));
  writeFileSync(join(dir, 'faithful.yaml'), config(faithful.url));
  // The same settings without base_url: the re-run takes the base URL from the report.
  writeFileSync(join(dir, 'no-base-url.yaml'), config(faulty.url).replace(/^base_url: .*\n/, ''));
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
  await Promise.all([faithful?.close(), faulty?.close(), repaired?.close()]);
});

describe('conformance --rerun-failed', () => {
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

  it('records its target: base URL, auth mode and a digest of its settings with no secret in it', () => {
    expect(first.target.base_url).toBe(faulty.url);
    expect(first.target.config_digest).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(JSON.stringify(first)).not.toContain(DEFAULT_TOKEN);
  });

  it('pointed at another target: refused with one line naming both, exit 2, nothing sent', async () => {
    const before = faithfulRequests;
    const res = await runCli(['--config', 'faithful.yaml', '--rerun-failed', 'first/report.json'], { cwd: dir });
    expect(res.code).toBe(2);
    const line = res.stderr.split('\n')[0];
    expect(line).toBe(
      `conformance: --rerun-failed: first/report.json was made against another target (${faulty.url}, now ${faithful.url}); give its target, or add --rerun-target-changed to judge this one on purpose (its passes are then not called FIXED).`,
    );
    expect(res.stdout).toBe('');
    expect(faithfulRequests).toBe(before);
  });

  it('another configuration at the same base URL is another target too', async () => {
    writeFileSync(
      join(dir, 'other-team.yaml'),
      config(faulty.url).replace('operations_team: Migrations', 'operations_team: Elsewhere'),
    );
    const res = await runCli(['--config', 'other-team.yaml', '--rerun-failed', 'first/report.json'], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      new RegExp(
        `another target \\(configuration ${first.target.config_digest}, now sha256:[0-9a-f]{16} \\(fixtures, payloads, account or auth settings differ\\)\\)`,
      ),
    );
  });

  it('--rerun-target-changed judges the other target on purpose: PASSES HERE, never FIXED', async () => {
    const res = await runCli(
      [
        '--config',
        'faithful.yaml',
        '--rerun-failed',
        'first/report.json',
        '--rerun-target-changed',
        '--reporter',
        'json',
        '--report-dir',
        'elsewhere',
      ],
      { cwd: dir },
    );
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(
      `Re-run against another target than first/report.json's, on purpose: ${faulty.url}, now ${faithful.url}.`,
    );
    expect(outcomes(res.stdout)).toEqual(leftFailing.map((id) => `${id} PASSES HERE`));
    expect(res.stdout).not.toContain('FIXED');
  });

  it('a report that recorded no target configuration is refused, or judged as another target on purpose', async () => {
    const legacy = structuredClone(first);
    delete legacy.target.config_digest;
    writeFileSync(join(dir, 'legacy.json'), JSON.stringify(legacy));
    const refused = await runCli(['--config', 'faulty.yaml', '--rerun-failed', 'legacy.json'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^conformance: --rerun-failed: legacy\.json records no target configuration/);
    const res = await runCli(
      [
        '--config',
        'faulty.yaml',
        '--rerun-failed',
        'legacy.json',
        '--rerun-target-changed',
        '--reporter',
        'json',
        '--report-dir',
        'legacy',
      ],
      { cwd: dir },
    );
    expect(res.code).toBe(1);
    expect(outcomes(res.stdout)).toEqual(leftFailing.map((id) => `${id} FAILS HERE`));
  });

  it('the embedded reference server is one target whatever its port; a base URL instead of it is another', async () => {
    const embedded = mkdtempSync(join(tmpdir(), 'rerun-embedded-'));
    const run = await runCli(
      ['--rule', 'notes.create.one-result-per-note', '--reporter', 'json', '--report-dir', 'first'],
      { cwd: embedded },
    );
    expect(run.code).toBe(0);
    const doc = JSON.parse(readFileSync(join(embedded, 'first', 'report.json'), 'utf8'));
    expect(doc.target.embedded).toBe(true);
    // As if it had failed: the re-run starts the embedded server anew, on another port.
    Object.assign(doc.rules[0], { verdict: 'fail', reason: 'r', failure: { message: 'r' } });
    writeFileSync(join(embedded, 'failed.json'), JSON.stringify(doc));
    const again = await runCli(['--rerun-failed', 'failed.json', '--reporter', 'json', '--report-dir', 'again'], {
      cwd: embedded,
    });
    expect(again.code).toBe(0);
    expect(outcomes(again.stdout)).toEqual(['notes.create.one-result-per-note FIXED']);
    const elsewhere = await runCli(['--rerun-failed', 'failed.json', '--base-url', faithful.url], {
      cwd: embedded,
      env: { CONFORMANCE_TOKEN: DEFAULT_TOKEN },
    });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain(
      `another target (the embedded reference server, now ${faithful.url}; auth api_key, now token)`,
    );
  });

  it('--rerun-target-changed without --rerun-failed is a usage error', async () => {
    const res = await runCli(['--config', 'faulty.yaml', '--rerun-target-changed'], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--rerun-target-changed goes with --rerun-failed REPORT.');
  });
});

describe('conformance --rerun-failed, the fault removed from the same target', () => {
  beforeAll(async () => {
    const { port } = faulty;
    await faulty.close();
    repaired = await startReferenceServer({ port });
    writeFileSync(join(dir, 'faithful.yaml'), config(repaired.url));
  });

  it('exactly the failing rules run again, with the recorded seed, each FIXED', async () => {
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

  it("with no base URL given, the report's own is used and said", async () => {
    const res = await runCli(
      [
        '--config',
        'no-base-url.yaml',
        '--rerun-failed',
        'first/report.json',
        '--reporter',
        'json',
        '--report-dir',
        'adopted',
      ],
      { cwd: dir },
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(
      `conformance: Re-run against ${repaired!.url}, the target first/report.json recorded.\n`,
    );
    expect(outcomes(res.stdout)).toEqual(leftFailing.map((id) => `${id} FIXED`));
    expect(report('adopted').target.base_url).toBe(repaired!.url);
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
    // What check-traffic and the proxy write (app/traffic/report.ts): failing checks, no seed.
    const traffic = structuredClone(first) as unknown as { run: Record<string, unknown> };
    traffic.run = { kind: 'traffic', started_at: new Date().toISOString() };
    writeFileSync(join(dir, 'traffic.json'), JSON.stringify(traffic));
    const cases: [string[], RegExp][] = [
      [['--rerun-failed', 'nowhere.json'], /--rerun-failed: cannot read nowhere\.json \(ENOENT\)/],
      [['--rerun-failed', 'broken.json'], /--rerun-failed: broken\.json is not JSON/],
      [['--rerun-failed', 'foreign.json'], /--rerun-failed: foreign\.json is not a conformance report\.json/],
      [
        ['--rerun-failed', 'traffic.json'],
        /--rerun-failed: traffic\.json is the report of recorded traffic \(check-traffic or proxy\).*nothing of the suite's to re-run/,
      ],
      [['--rerun-failed', 'first/report.json', '--rule', 'notes.*'], /--rerun-failed chooses the rules itself.*--rule/],
    ];
    for (const [args, message] of cases) {
      const res = await runCli(['--config', 'faithful.yaml', '--reporter', 'json', ...args], { cwd: dir });
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(message);
    }
  });
});
