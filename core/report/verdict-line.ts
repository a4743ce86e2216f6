/**
 * The run's verdict in words, the same in every report: conformant, not conformant (with failures
 * counted as failures and unjudged rules as unjudged), incomplete, or aborted.
 */
import { type JudgingLevel, isFailing } from '../engine/verdict.js';
import type { Report } from './schema.js';

export type RunState = 'conformant' | 'not conformant' | 'incomplete' | 'aborted';

export interface RunVerdict {
  state: RunState;
  /** "Conformant", "Not conformant", "Incomplete", "Aborted". */
  title: string;
  /** What the title rests on, e.g. "3 MUST failures and 1 MUST rule not judged (error)". */
  detail: string;
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The verdict in words, derived from the counts alone, so that the words never contradict them:
 * "nothing failed" is never said beside a SHOULD failure, "every MUST rule was judged" never beside
 * an accepted MUST skip, and failures and unjudged rules are counted apart.
 */
export function runVerdict(report: Report): RunVerdict {
  const { summary, run } = report;
  if (report.aborted) return { state: 'aborted', title: 'Aborted', detail: `no rule ran: ${report.aborted.reason}` };
  const counted = report.rules.filter((r) => isFailing(r.verdict) && !r.expected_failure);
  const describe = (level: JudgingLevel) => {
    const mine = counted.filter((r) => r.level === level);
    const failed = mine.filter((r) => r.verdict === 'fail').length;
    const errored = mine.length - failed;
    return [
      ...(failed ? [plural(failed, `${level} failure`)] : []),
      ...(errored ? [`${plural(errored, `${level} rule`)} not judged (error)`] : []),
    ];
  };
  // Without --strict SHOULD results do not count; they are still said, as not counted.
  const uncounted = run.strict ? [] : describe('SHOULD');
  const acceptedMust = report.rules.filter(
    (r) => r.level === 'MUST' && r.verdict === 'skip' && summary.accepted_skips.includes(r.id),
  ).length;
  const skipped = summary.unjudged_must
    ? `${plural(summary.unjudged_must, 'MUST rule')} not judged (skipped): set ${summary.missing_keys.join(', ')}, or accept the skips with --allow-skip`
    : '';
  const accepted = acceptedMust ? `${plural(acceptedMust, 'MUST rule')} skipped, accepted by --allow-skip` : '';
  const notes = (...parts: string[]) =>
    [...parts, uncounted.length ? `${uncounted.join(' and ')}, not counted without --strict` : '']
      .filter(Boolean)
      .join('; ');
  if (!summary.conformant && !summary.incomplete) {
    const parts = [...describe('MUST'), ...(run.strict ? describe('SHOULD') : [])];
    return { state: 'not conformant', title: 'Not conformant', detail: notes(parts.join(' and '), skipped, accepted) };
  }
  const judged = run.strict ? 'MUST or SHOULD' : 'MUST';
  if (summary.incomplete)
    return {
      state: 'incomplete',
      title: 'Incomplete',
      detail: notes(`no ${judged} rule failed, but ${skipped}`, accepted),
    };
  const scope = acceptedMust
    ? `every ${judged} rule that ran was judged and none failed`
    : `every ${run.strict ? 'MUST and SHOULD' : 'MUST'} rule was judged and none failed`;
  return { state: 'conformant', title: 'Conformant', detail: notes(scope, accepted) };
}
