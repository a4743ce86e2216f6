/**
 * Not implemented is a state, not a failure (core/engine/not-implemented.ts): a supplier's
 * mock that implements account migration (§4.1 validate, stage, process) and the §4.3 status
 * endpoint, and answers 501 everywhere else. Built by wrapping the reference server, so what it
 * implements is faithful: whatever the run says of the rest comes from the 501s alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN, startReferenceServer, type ReferenceServer } from '../../reference/index.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedFixtures, embeddedPayloads, embeddedSeed } from '../../app/embedded.js';
import { RUN_HELP } from '../../app/cli/run.js';
import { resolveRun } from '../../app/resolve.js';
import { runVerdict } from '../../core/report/verdict-line.js';
import { runConformance, type RunOptions } from '../../app/conformance.js';
import type { Report } from '../../core/report/schema.js';
import { model } from '../../core/spec/index.js';
import { runCli } from '../helpers/cli.js';
import { type Intercept, startProxy } from '../helpers/proxy.js';

const IMPLEMENTED = ['validateAccount', 'stageAccount', 'processAccount', 'accountTransferStatus'] as const;
const MISSING = Object.keys(model.endpoints).filter((id) => !(IMPLEMENTED as readonly string[]).includes(id));

const implemented = (path: string) =>
  path === '/v1/data-import/validate-account/' ||
  path.startsWith('/v1/data-import/account-import-process/') ||
  path.startsWith('/v1/data-import/account-transfer-status/');

const json = (status: number, body: unknown) => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** The mock: the token checked first (401 everywhere without it), or 501 before any check. */
function mock(order: 'token first' | '501 first'): Intercept {
  return (req) => {
    if (!req.path.startsWith('/v1/data-import/') || implemented(req.path)) return undefined;
    const authorised = req.headers.authorization === `Token ${DEFAULT_TOKEN}`;
    if (order === 'token first' && !authorised) return json(401, { detail: 'Invalid token.' });
    return json(501, { detail: 'Not implemented.' });
  };
}

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
});
afterAll(() => server.close());

async function runAgainst(intercept: Intercept, options: RunOptions = {}): Promise<Report> {
  const proxy = await startProxy(server.url, intercept);
  try {
    return await runConformance({
      baseUrl: proxy.url,
      auth: { token: DEFAULT_TOKEN },
      fixtures: await embeddedFixtures(),
      seed: 7,
      numRuns: 3,
      ...options,
    });
  } finally {
    await proxy.close();
  }
}

const notImplementedCauses = (report: Report) =>
  report.causes.filter((c) => c.id.startsWith('not-implemented.')).map((c) => c.id);
const statusOf = (report: Report, endpoint: string) => report.capabilities.find((c) => c.endpoint === endpoint)?.status;
const rule = (report: Report, id: string) => {
  const found = report.rules.find((r) => r.id === id);
  if (!found) throw new Error(`no result for ${id}`);
  return found;
};

/** The matrix a partial mock must get: its four endpoints conform, every other one is not implemented. */
function expectPartialMatrix(report: Report): void {
  for (const id of IMPLEMENTED) expect([id, statusOf(report, id)]).toEqual([id, 'conforms']);
  for (const id of MISSING) expect([id, statusOf(report, id)]).toEqual([id, 'not implemented']);
  expect(report.summary.not_implemented).toEqual(MISSING);
}

// The run uses a static token, so the one rule of the §5.1 mutation is skipped for its key (not the
// subject here); every other fixture and template is configured, so each skip left is a 501's.
const base: RunOptions = { payloads: embeddedPayloads(), allowSkip: ['auth.api-key.*'] };

describe('a partial mock (§4.1 and §4.3 status implemented, 501 elsewhere)', () => {
  let tokenFirst: Report;
  beforeAll(async () => {
    tokenFirst = await runAgainst(mock('token first'), base);
  });

  it('without acceptance: exit 4, no failure, exactly one cause per missing endpoint', () => {
    expect(tokenFirst.summary).toMatchObject({ must_failures: 0, should_failures: 0, incomplete: true, exit_code: 4 });
    expect(tokenFirst.summary.counts.fail).toBe(0);
    expect(tokenFirst.summary.counts.error).toBe(0);
    expect(notImplementedCauses(tokenFirst).sort()).toEqual(MISSING.map((id) => `not-implemented.${id}`).sort());
    // Only the 501s leave MUST rules unjudged: no fixture key is missing.
    expect(tokenFirst.summary.missing_keys).toEqual([]);
    const pending = tokenFirst.causes.find((c) => c.id === 'not-implemented.pendingAccountImportProcesses')!;
    expect(pending).toMatchObject({ step: 'pending listing not implemented (501)', status: 501 });
    expect(pending.answer).toMatch(/^GET .*\/pending-account-import-processes\/.* answered 501$/);
    // Every rule stopped by a 501 is skipped with its endpoint's cause and listed under it, once.
    for (const r of tokenFirst.rules.filter((x) => x.cause?.startsWith('not-implemented.'))) {
      expect([r.id, r.verdict]).toEqual([r.id, 'skip']);
      expect(tokenFirst.causes.find((c) => c.id === r.cause)?.rules).toContain(r.id);
    }
    const verdict = runVerdict(tokenFirst);
    expect(verdict.state).toBe('incomplete');
    expect(verdict.detail).toMatch(
      new RegExp(
        `${MISSING.length} endpoints not implemented \\(.*and ${MISSING.length - 5} more\\), so \\d+ rules \\(\\d+ MUST\\) not judged`,
      ),
    );
    expect(verdict.detail).toMatch(/--partial/);
  });

  it("a rule that only observes through a missing endpoint is not judged, with that cause (the issue's example)", () => {
    // The process is implemented and refuses the unknown team correctly; only the pending listing
    // it looks through answers 501.
    expect(rule(tokenFirst, 'migration.process.refuses-unknown-team')).toMatchObject({
      verdict: 'skip',
      cause: 'not-implemented.pendingAccountImportProcesses',
    });
    // The setup chain's business step met the 501: the rules standing on it share that cause.
    expect(tokenFirst.setup?.steps.find((s) => s.step === 'business')).toMatchObject({
      outcome: 'refused',
      cause: 'not-implemented.createBusiness',
    });
  });

  it('a history rule with nothing to compare from a missing endpoint is not judged, and no section reads judged by it', () => {
    expect(rule(tokenFirst, 'history.business.ids-unique')).toMatchObject({
      verdict: 'skip',
      cause: 'not-implemented.createBusiness',
    });
    expect(rule(tokenFirst, 'history.account.created-at-stable')).toMatchObject({
      verdict: 'skip',
      cause: 'not-implemented.allAccountImportProcesses',
    });
    // What the implemented endpoints showed is judged.
    expect(rule(tokenFirst, 'history.ids.unique').verdict).toBe('pass');
    // §2.8 (businesses) was never served: no rule judged it, so it has no score, not 100%.
    expect(tokenFirst.sections.find((s) => s.section === '2.8')?.score).toBeNull();
  });

  it('a rule that would need a fixture for a missing endpoint is not judged for the endpoint, not the fixture', async () => {
    // A supplier whose mock has no payment instructions configures none: the 501 explains those rules.
    const { payment_instruction: _none, ...fixtures } = await embeddedFixtures();
    const report = await runAgainst(mock('token first'), { ...base, fixtures, partial: true });
    const asking = report.rules.filter((r) => r.skip_key?.startsWith('fixtures.payment_instruction'));
    expect(asking.map((r) => r.id)).toEqual([]);
    for (const id of ['payments.account.created', 'conventions.types.create-payment-instruction'])
      expect(rule(report, id)).toMatchObject({ verdict: 'skip', cause: 'not-implemented.createPaymentInstruction' });
    expect(report.summary.missing_keys).toEqual([]);
    expect(report.summary.exit_code).toBe(0);
  });

  it('a §5 rule on a missing endpoint may pass on its 401, but the matrix still says not implemented', () => {
    const auth401 = tokenFirst.rules.filter((r) => r.id.startsWith('auth.') && r.verdict === 'pass');
    expect(auth401.some((r) => r.endpoints.some((e) => MISSING.includes(e)))).toBe(true);
    expectPartialMatrix(tokenFirst);
  });

  it('with --partial: exit 0, conformant for what is implemented, the same matrix', async () => {
    const report = await runAgainst(mock('token first'), { ...base, partial: true });
    expect(report.run.partial).toBe(true);
    expect(report.summary).toMatchObject({ conformant: true, incomplete: false, unjudged_must: 0, exit_code: 0 });
    expectPartialMatrix(report);
    expect(notImplementedCauses(report)).toHaveLength(MISSING.length);
    for (const r of report.rules.filter((x) => x.cause?.startsWith('not-implemented.')))
      expect([r.id, r.skip_accepted]).toEqual([r.id, true]);
    const verdict = runVerdict(report);
    expect(verdict.title).toBe('Conformant for what is implemented');
    expect(verdict.detail).toMatch(`${MISSING.length} endpoints not implemented`);
    expect(verdict.detail).toMatch(/MUST rules skipped, accepted by --partial/);
  });

  it('--allow-skip globs accept these skips as they accept missing-fixture skips', async () => {
    const skipped = tokenFirst.rules.filter((r) => r.cause?.startsWith('not-implemented.')).map((r) => r.id);
    const report = await runAgainst(mock('token first'), { ...base, allowSkip: ['auth.api-key.*', ...skipped] });
    expect(report.summary).toMatchObject({ conformant: true, exit_code: 0 });
    expect(runVerdict(report).detail).toMatch(/accepted by --allow-skip/);
    expectPartialMatrix(report);
  });

  it('a mock answering 501 before it checks the token gets the same matrix and the same exit codes', async () => {
    const accepted = await runAgainst(mock('501 first'), { ...base, partial: true });
    expectPartialMatrix(accepted);
    expect(accepted.summary.exit_code).toBe(0);
    const unaccepted = await runAgainst(mock('501 first'), base);
    expectPartialMatrix(unaccepted);
    expect(unaccepted.summary.exit_code).toBe(4);
    expect(notImplementedCauses(unaccepted).sort()).toEqual(MISSING.map((id) => `not-implemented.${id}`).sort());
  });
});

describe('a 501 cannot hide a broken rule', () => {
  it('a server answering 501 on one endpoint it should implement is not conformant unless that is accepted', async () => {
    // The faithful reference, but the notes endpoint answers 501: its rules are not judged, and the
    // run says so (exit 4), never "conformant".
    const notes: Intercept = (req) =>
      req.path === '/v1/data-import/notes/create/' ? json(501, { detail: 'Not implemented.' }) : undefined;
    const options: RunOptions = { ...base, selection: { rules: ['notes.*', 'migration.stage.*'] } };
    const report = await runAgainst(notes, options);
    expect(report.summary).toMatchObject({ conformant: false, exit_code: 4, not_implemented: ['createNotes'] });
    expect(notImplementedCauses(report)).toEqual(['not-implemented.createNotes']);
    expect(statusOf(report, 'createNotes')).toBe('not implemented');
    expect(statusOf(report, 'stageAccount')).toBe('conforms');
    expect(report.rules.filter((r) => r.id.startsWith('notes.')).every((r) => r.verdict === 'skip')).toBe(true);
  });

  it('a 404 is "not implemented" only where the spec documents none: the notes 404s stay judged', async () => {
    // §7.2 documents 404 for the notes endpoint (account not found): a server answering 404 to
    // every notes request is judged (its creation rules fail), not excused as a missing endpoint.
    const notes404: Intercept = (req) =>
      req.path === '/v1/data-import/notes/create/' ? json(404, { detail: 'Not found.' }) : undefined;
    const report = await runAgainst(notes404, { ...base, partial: true, selection: { rules: ['notes.*'] } });
    expect(report.summary.not_implemented).toEqual([]);
    expect(report.summary.must_failures).toBeGreaterThan(0);
    expect(report.summary.exit_code).toBe(1);
    // On an endpoint whose 404 the spec never documents (a listing), the same 404 means "not there".
    const listing404: Intercept = (req) =>
      req.path.startsWith('/v1/data-import/pending-account-import-processes/')
        ? json(404, { detail: 'Not found.' })
        : undefined;
    const listed = await runAgainst(listing404, { ...base, selection: { rules: ['migration.process.*'] } });
    expect(listed.summary.not_implemented).toEqual(['pendingAccountImportProcesses']);
    expect(rule(listed, 'migration.process.refuses-unknown-team')).toMatchObject({
      verdict: 'skip',
      cause: 'not-implemented.pendingAccountImportProcesses',
    });
  });
});

describe('accepting a partial implementation from the command line and the config', () => {
  it('--partial and run.partial set the option; neither leaves it off', () => {
    const dir = mkdtempSync(join(tmpdir(), 'partial-'));
    expect(resolveRun({}, dir, {}).options.partial).toBe(false);
    expect(resolveRun({ partial: true }, dir, {}).options.partial).toBe(true);
    writeFileSync(join(dir, 'conformance.config.yaml'), 'run:\n  partial: true\n');
    expect(resolveRun({}, dir, {}).options.partial).toBe(true);
    expect(RUN_HELP).toMatch(/--partial {2,}accept a partial implementation \(config: run\.partial\)/);
  });
});

describe('the CLI against the partial mock', () => {
  it('exits 4 naming --partial, and 0 with --partial, saying "Conformant for what is implemented"', {
    timeout: 300_000,
  }, async () => {
    const proxy = await startProxy(server.url, mock('token first'));
    try {
      const dir = mkdtempSync(join(tmpdir(), 'partial-cli-'));
      // JSON is YAML: the fixtures and templates of the embedded target, the API-key rule's skip accepted.
      const config = {
        fixtures: await embeddedFixtures(),
        payloads: embeddedPayloads(),
        run: { allow_skip: ['auth.api-key.*'], seed: 7, num_runs: 3 },
        report: { dir: join(dir, 'report'), formats: ['console', 'json'] },
      };
      writeFileSync(join(dir, 'conformance.config.yaml'), JSON.stringify(config));
      const env = { CONFORMANCE_TOKEN: DEFAULT_TOKEN };
      const without = await runCli(['--base-url', proxy.url], { cwd: dir, env });
      expect(without.code).toBe(4);
      expect(without.stdout).toMatch(
        new RegExp(`Incomplete: .*${MISSING.length} endpoints not implemented .*--partial`),
      );
      const withPartial = await runCli(['--base-url', proxy.url, '--partial'], { cwd: dir, env });
      expect(withPartial.code).toBe(0);
      expect(withPartial.stdout).toMatch(
        new RegExp(`Conformant for what is implemented: .*${MISSING.length} endpoints not implemented`),
      );
    } finally {
      await proxy.close();
    }
  });
});
