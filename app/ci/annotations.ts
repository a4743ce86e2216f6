/**
 * The failing rules of a report as GitHub annotations: an error per MUST rule that failed or could
 * not be judged, a warning per SHOULD rule — the rules `summary.must_failures` and
 * `summary.should_failures` count (a baseline's known failures are not annotated again).
 *
 * GitHub shows at most 10 error and 10 warning annotations of a step and drops the rest without a
 * word, so no more than that are printed, MUST failures first, and the rest are counted for the
 * job summary: a reader is told what the annotations left out.
 */
import { isFailing } from '../../core/engine/verdict.js';
import type { Report, RuleResult } from '../../core/report/schema.js';
import { plural } from '../../core/report/verdict-line.js';
import { shortReason } from '../../reports/plain-text.js';
import { shown } from '../../reports/terminal.js';
import { workflowCommand } from './workflow-commands.js';

/** What GitHub shows of one step: 10 errors and 10 warnings (docs.github.com, annotation limits). */
export const ANNOTATIONS_SHOWN = 10;

/** Long enough for the console's line and then some; the report keeps all of it. */
const MESSAGE_LIMIT = 1024;

export interface Annotations {
  /** The workflow command lines to print, errors first. */
  lines: string[];
  /** Failing rules per kind, and how many of them the lines leave out. */
  must: { total: number; dropped: number };
  should: { total: number; dropped: number };
}

const counted = (r: RuleResult) => isFailing(r.verdict) && !r.expected_failure;

/**
 * One annotation: the title names the level, the rule and its section; the message is the console's
 * line for the rule. Both came from the report, and the reason from the target, so both pass the
 * console's terminal safety (controls written out, bounded) before the command's own escaping.
 */
function annotation(kind: 'error' | 'warning', r: RuleResult): string {
  const what = r.verdict === 'fail' ? 'failed' : 'not judged';
  const title = shown(`${r.level} ${what}: ${r.id} (${r.spec})`, 512);
  const message = shown(r.reason ? shortReason(r.reason) : r.title, MESSAGE_LIMIT);
  return workflowCommand(kind, { title }, message);
}

export function annotationsOf(report: Report, limit = ANNOTATIONS_SHOWN): Annotations {
  // A fail before an error: what broke the spec before what could not be judged.
  const order = (r: RuleResult) => (r.verdict === 'fail' ? 0 : 1);
  const failing = (level: 'MUST' | 'SHOULD') =>
    report.rules.filter((r) => r.level === level && counted(r)).sort((a, b) => order(a) - order(b));
  const must = failing('MUST');
  const should = failing('SHOULD');
  return {
    lines: [
      ...must.slice(0, limit).map((r) => annotation('error', r)),
      ...should.slice(0, limit).map((r) => annotation('warning', r)),
    ],
    must: { total: must.length, dropped: Math.max(0, must.length - limit) },
    should: { total: should.length, dropped: Math.max(0, should.length - limit) },
  };
}

/**
 * The job summary's line about the annotations, or nothing when there were none: how many were
 * shown, and the failures GitHub would have dropped, counted, with where to read them.
 */
export function annotationsNote(a: Annotations): string | undefined {
  if (a.must.total + a.should.total === 0) return undefined;
  const shownOf = (k: { total: number; dropped: number }, word: string) =>
    `${k.total - k.dropped} of ${plural(k.total, word)}`;
  const parts = [
    ...(a.must.total ? [shownOf(a.must, 'MUST failure')] : []),
    ...(a.should.total ? [shownOf(a.should, 'SHOULD failure')] : []),
  ];
  const more = [
    ...(a.must.dropped ? [`${a.must.dropped} more MUST ${a.must.dropped === 1 ? 'failure' : 'failures'}`] : []),
    ...(a.should.dropped ? [`${a.should.dropped} more SHOULD ${a.should.dropped === 1 ? 'failure' : 'failures'}`] : []),
  ];
  const head = `Annotations: ${parts.join(' and ')} shown (GitHub shows at most ${ANNOTATIONS_SHOWN} errors and ${ANNOTATIONS_SHOWN} warnings per step)`;
  return more.length
    ? `${head}; and ${more.join(' and ')} not annotated: see the summary above, or report.json in the report directory.`
    : `${head}.`;
}
