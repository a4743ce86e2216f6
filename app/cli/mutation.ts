/** `conformance mutation`: proves the suite against the reference server's fault catalogue. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from './usage.js';
import { EXIT, UsageError, intFlag, parseCommandLine } from './usage.js';

const help = `Usage: conformance mutation [options]

Runs the whole suite against the faithful reference server, against each variant profile (other
sets of legal choices wherever the spec leaves freedom; see "conformance serve --help") and against
every fault of the catalogue
("conformance faults"), in parallel. Writes the kill matrix (fault -> rules that caught it) as
kill-matrix.md and kill-matrix.json. Fails (exit 1) when the faithful server or a variant profile
has a MUST or SHOULD failure (but for the SHOULD rules a profile takes the other reading of, which
the matrix lists), when a fault is caught by no rule, when a fault that breaks a stated rule
(MUST level) is caught only by SHOULD rules, or when a fault placed to show a family's worth
(placed where no older rule looks) is missed by that family or caught by an older rule. Run with
the whole catalogue, it also fails when a MUST rule is made to fail by no fault and is not listed
with why in reference/faults/uncaught.ts (a rule, or an endpoint's own rules, added without a fault
that shows it can fail). A rule listed there that a fault made fail this time is said, not failed
(a rule some fault catches only in some runs, by a race, is listed): take it out once it always is.

Options:
  --fault ID         only these faults (repeatable)
  --workers N        worker threads (default: one per core; 0 runs in this thread)
  --seed N           seed of the generated data (default 20261121)
  --num-runs N       cases per property rule (default 10)
  --report-dir DIR   where to write the kill matrix (default conformance-report)`;

const options = {
  fault: { type: 'string', multiple: true },
  workers: { type: 'string' },
  seed: { type: 'string' },
  'num-runs': { type: 'string' },
  'report-dir': { type: 'string' },
} as const;

async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, options, 'mutation');
  const workers = intFlag(values.workers, 'workers', 0, 64, 'mutation');
  const seed = intFlag(values.seed, 'seed', -(2 ** 31), 2 ** 31 - 1, 'mutation');
  const numRuns = intFlag(values['num-runs'], 'num-runs', 1, 10_000, 'mutation');
  const dir = values['report-dir'] ?? 'conformance-report';
  const { faultById } = await import('../../reference/index.js');
  for (const id of values.fault ?? [])
    if (!faultById(id)) throw new UsageError(`--fault: unknown fault "${id}" (see "conformance faults").`, 'mutation');
  const { runKillMatrix, renderKillMatrixMarkdown } = await import('../mutation/kill-matrix.js');
  const matrix = await runKillMatrix({
    faults: values.fault,
    workers,
    seed,
    numRuns,
    onTask: (r, done, total) => {
      const name =
        r.target.kind === 'fault'
          ? r.target.id
          : r.target.kind === 'variant'
            ? `(variant profile ${r.target.profile})`
            : '(faithful server)';
      const must = r.failed.filter((f) => f.level === 'MUST').length;
      const verdict =
        r.target.kind === 'fault'
          ? r.failed.length
            ? `caught by ${r.failed.length} rule${r.failed.length === 1 ? '' : 's'} (${must} MUST)`
            : `NOT CAUGHT${notJudged(r.errored)}`
          : r.failed.length + r.errored.length
            ? `${r.failed.length} failed, ${r.errored.length} errored`
            : 'clean';
      process.stdout.write(`[${String(done).padStart(String(total).length)}/${total}] ${name}: ${verdict}\n`);
    },
  });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'kill-matrix.json'), `${JSON.stringify(matrix, null, 2)}\n`);
  writeFileSync(join(dir, 'kill-matrix.md'), renderKillMatrixMarkdown(matrix));
  const t = matrix.totals;
  const servers = [
    ['faithful', matrix.faithful] as const,
    ...matrix.variants.map((v) => [v.target.kind === 'variant' ? `variant ${v.target.profile}` : '?', v] as const),
  ];
  const dirty = (x: { failed: unknown[]; errored: unknown[] }) => x.failed.length + x.errored.length > 0;
  console.log(
    `\n${t.caught}/${t.faults} faults caught (${t.caughtByMust} by a MUST rule, ${t.caughtOnlyByShould} only by SHOULD rules; ${t.mustLevel} break a stated rule; ${t.subtle} subtle); ${servers.map(([name, x]) => `${name} ${dirty(x) ? 'NOT clean' : 'clean'}`).join(', ')}; ${(matrix.durationMs / 1000).toFixed(1)} s with ${matrix.workers} workers.`,
  );
  for (const [name, target] of servers) {
    for (const f of [...target.failed, ...target.errored]) console.log(`  ${name}: ${f.rule} (${f.level}) ${f.reason}`);
    for (const f of target.otherReadings ?? [])
      console.log(`  ${name}: takes the other reading of ${f.rule} (SHOULD, expected): ${f.why}`);
  }
  if (t.missed.length) console.log(`Not caught: ${t.missed.join(', ')}`);
  if (t.mustLevelCaughtOnlyByShould.length)
    console.log(`Break a stated rule but caught only by SHOULD rules: ${t.mustLevelCaughtOnlyByShould.join(', ')}`);
  for (const r of matrix.faults)
    for (const problem of r.misplaced ?? []) console.log(`Placement of ${r.id} does not hold: ${problem}`);
  if (t.uncaught) {
    console.log(
      `${t.uncaught.rules.length} MUST rules no fault makes fail, each listed with why (reference/faults/uncaught.ts).`,
    );
    if (t.uncaught.unlisted.length)
      console.log(
        `MUST rules no fault makes fail, not listed: ${t.uncaught.unlisted.join(', ')}: add a fault that breaks each, or say why in reference/faults/uncaught.ts.`,
      );
    if (t.uncaught.stale.length)
      console.log(
        `Listed in reference/faults/uncaught.ts, but a fault makes them fail (or they are gone): ${t.uncaught.stale.join(', ')}: take them out once every run makes them fail.`,
      );
  }
  console.log(`Kill matrix: ${join(dir, 'kill-matrix.md')}, ${join(dir, 'kill-matrix.json')}`);
  return matrix.ok ? EXIT.OK : EXIT.MUST_FAILURES;
}

/**
 * A fault no rule caught: the rules that could not be judged in its run, with why, since a race
 * missed or a rule that errored is the usual cause and the CI log is all there is to read afterwards.
 */
function notJudged(errored: { rule: string; reason: string }[]): string {
  if (errored.length === 0) return '';
  const shown = errored.slice(0, 5).map((e) => `${e.rule} (${e.reason.replace(/\s+/g, ' ').slice(0, 160)})`);
  return `; not judged: ${shown.join('; ')}${errored.length > shown.length ? `; and ${errored.length - shown.length} more` : ''}`;
}

export const mutationCommand: Command = { help, run };
