/**
 * `--rerun-failed report.json`: the rules an earlier report left failing or not judged (fail,
 * error, or a skip not accepted), run again against the target given now with the seed that report
 * recorded, and each one's outcome said as FIXED, STILL FAILING or STILL NOT JUDGED.
 */
import type { Report } from '../../core/report/schema.js';
import { shown } from '../../reports/terminal.js';
import { MAX_REPORT_RULES, pathShown, readReportText } from './report-input.js';
import { UsageError } from './usage.js';

/** What an earlier report left to judge again. */
export interface Rerun {
  /** The report's path as printed: its control characters written out. */
  file: string;
  /** The seed the report recorded. */
  seed: number;
  /** The rules to run again, with their verdict then. */
  rules: { id: string; was: 'fail' | 'error' | 'skip' }[];
  /** Rules of the report no suite has now (renamed or removed): named, not run. */
  unknown: { id: string; was: 'fail' | 'error' | 'skip' }[];
}

type OldRule = { id?: unknown; verdict?: unknown; skip_accepted?: unknown };

/** Reads the report; a missing, unreadable or oversized one is a usage error that says what is wrong. */
export function loadRerun(file: string, known: ReadonlySet<string>): Rerun {
  const name = pathShown(file);
  const text = readReportText(file, 'run', '--rerun-failed: ');
  let doc: { run?: { seed?: unknown }; rules?: unknown; aborted?: unknown };
  try {
    doc = JSON.parse(text);
  } catch {
    throw new UsageError(`--rerun-failed: ${name} is not JSON; give the report.json of an earlier run.`, 'run');
  }
  if (typeof doc !== 'object' || doc === null || !Array.isArray(doc.rules) || typeof doc.run?.seed !== 'number')
    throw new UsageError(
      `--rerun-failed: ${name} is not a conformance report.json (no rules array or run.seed); give the report.json of an earlier run.`,
      'run',
    );
  if (doc.rules.length > MAX_REPORT_RULES)
    throw new UsageError(
      `--rerun-failed: ${name} has ${doc.rules.length} rules, more than a report.json is read with (${MAX_REPORT_RULES}).`,
      'run',
    );
  if (doc.aborted)
    throw new UsageError(
      `--rerun-failed: no rule ran in ${name} (the run was aborted before the first rule); run the suite in full instead.`,
      'run',
    );
  // Each id once: a report naming a rule twice runs it once.
  const left = new Map<string, Rerun['rules'][number]>();
  for (const r of doc.rules as OldRule[]) {
    if (typeof r?.id !== 'string' || left.has(r.id)) continue;
    const v = r.verdict;
    if (v === 'fail' || v === 'error' || (v === 'skip' && r.skip_accepted !== true))
      left.set(r.id, { id: r.id, was: v });
  }
  const all = [...left.values()];
  return {
    file: name,
    seed: doc.run.seed,
    rules: all.filter((r) => known.has(r.id)),
    unknown: all.filter((r) => !known.has(r.id)),
  };
}

export type RerunOutcome = 'FIXED' | 'STILL FAILING' | 'STILL NOT JUDGED' | 'NOW FAILING' | 'NOT RUN';

/** What became of each rule run again: by its verdict now (an accepted skip counts as judged nothing). */
export function rerunOutcomes(rerun: Rerun, report: Report): { id: string; was: string; outcome: RerunOutcome }[] {
  const now = new Map(report.rules.map((r) => [r.id, r]));
  return rerun.rules.map(({ id, was }) => {
    const r = now.get(id);
    const outcome: RerunOutcome = !r
      ? 'NOT RUN'
      : r.verdict === 'pass'
        ? 'FIXED'
        : r.verdict === 'fail'
          ? was === 'fail'
            ? 'STILL FAILING'
            : 'NOW FAILING'
          : 'STILL NOT JUDGED';
    return { id, was, outcome };
  });
}

const WAS: Record<string, string> = { fail: 'failed', error: 'error, not judged', skip: 'skipped, not judged' };

/** The lines printed before the reports: one per rule, then the unknown ones, then the tally. */
export function rerunLines(rerun: Rerun, report: Report): string[] {
  const outcomes = rerunOutcomes(rerun, report);
  const width = outcomes.reduce((w, o) => Math.max(w, o.outcome.length), 0);
  const tally = new Map<string, number>();
  for (const o of outcomes) tally.set(o.outcome, (tally.get(o.outcome) ?? 0) + 1);
  return [
    `Re-run of ${outcomes.length} rule${outcomes.length === 1 ? '' : 's'} left failing or not judged in ${rerun.file} (seed ${report.run.seed}):`,
    ...outcomes.map((o) => `  ${o.outcome.padEnd(width)}  ${o.id}  (was ${WAS[o.was]})`),
    ...unknownLines(rerun),
    `Re-run: ${[...tally].map(([k, n]) => `${n} ${k}`).join(', ') || 'nothing run'}${rerun.unknown.length ? `, ${rerun.unknown.length} unknown` : ''}.`,
  ];
}

/** Unknown rule ids named one per line; the rest are counted. */
export const UNKNOWN_NAMED = 20;

/**
 * The rules of the old report no rule answers to now: the first UNKNOWN_NAMED one line each, the
 * rest counted. An id is the old report's text, so it is shown with its controls written out and
 * cut short: it can neither drive the terminal nor forge a line.
 */
export function unknownLines(rerun: Rerun): string[] {
  const named = rerun.unknown
    .slice(0, UNKNOWN_NAMED)
    .map(
      (u) =>
        `  UNKNOWN RULE  ${shown(u.id, 200)}  (was ${WAS[u.was]}; no rule has this id now: renamed or removed, not run)`,
    );
  const rest = rerun.unknown.length - named.length;
  return rest > 0 ? [...named, `  … and ${rest} more unknown rule ids, not run`] : named;
}
