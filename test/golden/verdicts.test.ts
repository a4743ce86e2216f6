/**
 * Behaviour kept through refactoring: for one seed, the verdicts against the faithful server, both
 * variant profiles and one fault of each area, and the shape of report.json, compared with what was
 * recorded (`verdicts.snap.json`, `report-shape.snap.json`).
 *
 * Per target the snapshot records only the rules that did not pass (fail, skip, error with its kind):
 * a rule absent from a target passed, or was not judged because of a setup cause recorded by name. So a new rule that passes everywhere leaves the snapshot as it
 * is, while a rule that stops passing appears and one that starts passing disappears — each a diff.
 * Which rule catches which fault is the kill matrix's job (test/mutation/kill-matrix.test.ts); this
 * file guards the verdicts a refactoring must not move.
 *
 * To update it on purpose (a rule added that does not pass somewhere, a verdict meant to change):
 * `npx tsc -p tsconfig.build.json && npx vitest run test/golden/verdicts.test.ts -u`, then read the
 * diff of the .snap.json files line by line — `-u` accepts whatever the run said — and say in the
 * commit why each verdict moved.
 */
import { describe, expect, it } from 'vitest';
import { runAgainstReference } from '../../app/against-reference.js';
import type { Report } from '../../core/report/schema.js';

const SEED = 20261123;
const NUM_RUNS = 10;

/**
 * One fault per area, none of them timing-dependent, so the verdicts are the same on every run.
 * Not `status.listings-other-supplier-leak`: its leaked records reach the run-wide history, where
 * whether another rule's status read was sent after a leaking listing's answer arrived (so that
 * `history.account.state-agrees` may hold the two against each other) depends on scheduling — it
 * failed on one CI run and passed on the next. The kill matrix keeps it caught, by its own rule.
 */
const FAULTS = [
  'auth.bearer-accepted',
  'errors.attr-one-based',
  'conventions.impossible-dates-accepted',
  'migration.stage.paused-allowed',
  'migration.process.dry-run-creates',
  'status.staged-404',
  'notes.dedup-body-only',
  'transactions.no-dedup',
  'billing.no-once-per-ledger',
  'statements.answer-202',
  'additions.supply-points-200',
  'payments.account-number-wrong',
  'business.duplicate-creates-another',
];

interface Target {
  profile?: string;
  fault?: string;
  /** false: the profile's payload templates are not given, so its setup chain is refused (causes, errors, skips). */
  templates?: false;
}

async function run(target: Target): Promise<Report> {
  const { report } = await runAgainstReference(
    { profile: target.profile, fault: target.fault, templates: target.templates },
    { seed: SEED, numRuns: NUM_RUNS },
  );
  return report;
}

/**
 * The verdict of every rule that did not pass, and the error kind of those not judged. A rule that
 * stands on a setup step the target refused is not judged, by a cause the report names once
 * (report.causes): the cause is recorded, with what it must do to every rule standing on it, and
 * not each such rule — so an endpoint added later, whose rules stand on the same account, leaves
 * the record as it is, while a stopped rule that stops being "not judged, precondition" (judged
 * instead, or failed) is recorded by its id.
 */
function verdicts(report: Report): Record<string, string> {
  const stopped = (r: Report['rules'][number]) =>
    r.cause !== undefined &&
    report.causes.some((c) => c.id === r.cause) &&
    r.verdict === 'error' &&
    r.error_kind === 'precondition';
  return Object.fromEntries([
    ...report.causes.map((c) => [`cause ${c.id}`, 'every rule standing on it: error (precondition)'] as const),
    ...report.rules
      .filter((r) => r.verdict !== 'pass' && !stopped(r))
      .map((r) => [r.id, r.verdict === 'error' ? `error (${r.error_kind})` : r.verdict] as const),
  ]);
}

/** The report's field paths (arrays collapsed to `[]`), leaving out what the implementation sent. */
function shape(value: unknown, at = '', paths = new Set<string>()): Set<string> {
  if (/\.(transcript\[\]\.(request|response)\.(headers|body)|observations|counterexample|expected|actual)$/.test(at))
    return paths;
  if (Array.isArray(value)) for (const item of value) shape(item, `${at}[]`, paths);
  else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value))
      if (!/^created_identifiers\./.test(`${at}.${key}`.slice(1)) || at === '.created_identifiers')
        shape(v, `${at}.${key}`, paths);
  } else paths.add(`${at}: ${value === null ? 'null' : typeof value}`);
  return paths;
}

describe('the same seed gives the same verdicts and the same report shape', () => {
  it('faithful, both variant profiles and one fault per area', { timeout: 300_000 }, async () => {
    const recorded: Record<string, Record<string, string>> = {};
    // The shape of every report together, so the fields of failures, skips and errors are in it too.
    const paths = new Set<string>();
    const record = async (name: string, target: Target) => {
      const report = await run(target);
      recorded[name] = verdicts(report);
      shape(report, '', paths);
    };
    await record('faithful', {});
    for (const profile of ['variant', 'demanding']) await record(`profile ${profile}`, { profile });
    await record('profile demanding without its templates', { profile: 'demanding', templates: false });
    for (const fault of FAULTS) await record(`fault ${fault}`, { fault });
    await expect(`${JSON.stringify(recorded, null, 2)}\n`).toMatchFileSnapshot('./verdicts.snap.json');
    await expect(`${JSON.stringify([...paths].sort(), null, 2)}\n`).toMatchFileSnapshot('./report-shape.snap.json');
  });
});
