/**
 * The runner against hostile and broken targets: it must finish within its timeouts, mark affected
 * rules fail or error with a reason, never crash or follow a redirect, still write every report
 * format, and exit with a documented code.
 *
 * Deterministic under load, so a busy CI runner cannot turn it red: a behaviour the runner must time
 * out on (`hang`, `slow-body`) gets a request timeout short enough to keep the test quick but far
 * above what an innocent request takes on a busy machine; every other behaviour ends its exchange by
 * itself (an answer, a reset, a close), so its run gets a timeout it never needs. The test waits on
 * the CLI's exit, never a duration.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN, startReferenceServer, type ReferenceServer } from '../../reference/index.js';
import { embeddedSeed } from '../../app/embedded.js';
import { ReportSchema } from '../../core/report/schema.js';
import { type Behaviour, BEHAVIOURS, startChaos } from '../helpers/chaos.js';
import { CLI_WAIT_MS, runCli } from '../helpers/cli.js';
import { fullConfig } from '../helpers/config.js';
import { writeFileSync } from 'node:fs';

let reference: ReferenceServer;
beforeAll(async () => {
  reference = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
});
afterAll(() => reference.close());

const FILES = ['report.json', 'junit.xml', 'report.html', 'summary.md', 'ctrf.json'];

/** The runner's request timeout: the timeout under test for the behaviours that never finish an answer. */
const requestTimeout = (behaviour: Behaviour) => (behaviour === 'hang' || behaviour === 'slow-body' ? 5_000 : 60_000);

async function runAgainst(plan: Parameters<typeof startChaos>[1], args: string[], timeoutMs: number) {
  const chaos = await startChaos(reference.url, plan);
  const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
  writeFileSync(join(dir, 'conformance.config.yaml'), fullConfig(chaos.url, '  token: ${T}'));
  try {
    // The helper gives up (with the machine's load in the error) only after a generous wait.
    const res = await runCli(['--timeout', String(timeoutMs), '--concurrency', '8', ...args], {
      cwd: dir,
      env: { T: DEFAULT_TOKEN },
    });
    const report = ReportSchema.parse(JSON.parse(readFileSync(join(dir, 'conformance-report', 'report.json'), 'utf8')));
    return { res, report, dir, chaos };
  } finally {
    await chaos.close();
  }
}

function expectWellBehaved(r: Awaited<ReturnType<typeof runAgainst>>) {
  expect([1, 3]).toContain(r.res.code);
  expect(r.res.stderr).not.toMatch(/Unhandled|TypeError|ReferenceError|\n\s+at /);
  for (const file of FILES) expect(existsSync(join(r.dir, 'conformance-report', file)), file).toBe(true);
  for (const rule of r.report.rules) {
    if (rule.verdict === 'fail' || rule.verdict === 'error') expect(rule.reason, rule.id).toMatch(/\S/);
    expect(rule.error_kind, `${rule.id} hit a bug of the runner: ${rule.reason}`).not.toBe('internal');
  }
  expect(r.chaos.redirected, 'a redirect was followed').toEqual([]);
}

/** Each test waits for one CLI run, which the helper bounds: vitest's own limit sits above it. */
const TEST_TIMEOUT = { timeout: CLI_WAIT_MS + 30_000 };

describe.concurrent('a hostile endpoint makes its rules fail or error, and nothing else', TEST_TIMEOUT, () => {
  const broken = (path: string) =>
    path.includes('/account-transfer-status/') && !path.includes('conformance-preflight');
  it.each(BEHAVIOURS)('%s on the status endpoint', async (behaviour: Behaviour) => {
    const r = await runAgainst(
      (req) => (broken(req.path) ? behaviour : undefined),
      ['--rule', 'status.*', '--rule', 'migration.process.*', '--rule', 'notes.create.*'],
      requestTimeout(behaviour),
    );
    expectWellBehaved(r);
    expect(r.res.code).toBe(1);
    const affected = r.report.rules.filter((rule) =>
      rule.transcript.some((x) => x.request.url.includes('/account-transfer-status/')),
    );
    expect(affected.length).toBeGreaterThan(0);
    for (const rule of affected)
      if (rule.level !== 'INFO') expect(['fail', 'error'], `${rule.id} saw ${behaviour}`).toContain(rule.verdict);
    {
      const untouched = r.report.rules.find((rule) => rule.id === 'notes.create.one-result-per-note');
      expect(untouched?.verdict, `a rule that never calls the status endpoint: ${untouched?.reason}`).toBe('pass');
    }
  });
});

describe.concurrent('a hostile target as a whole', TEST_TIMEOUT, () => {
  it.each(BEHAVIOURS)('%s everywhere: exit 1 or 3, every report written', async (behaviour: Behaviour) => {
    const r = await runAgainst(() => behaviour, ['--section', '4.3'], requestTimeout(behaviour));
    expectWellBehaved(r);
    if (r.res.code === 3) {
      expect(r.report.aborted?.reason).toMatch(/unreachable|refused/);
      expect(r.res.stderr).toMatch(/No rule ran/);
      expect(readFileSync(join(r.dir, 'conformance-report', 'junit.xml'), 'utf8')).toMatch(
        /<error message="\[MUST\] .*unreachable/,
      );
    } else {
      expect(r.report.summary.counts.fail + r.report.summary.counts.error).toBeGreaterThan(0);
    }
  });
});
