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
  if (!summary.conformant && !summary.incomplete) {
    const parts = [...describe('MUST'), ...(run.strict ? describe('SHOULD') : [])];
    return { state: 'not conformant', title: 'Not conformant', detail: parts.join(' and ') };
  }
  if (summary.incomplete) {
    return {
      state: 'incomplete',
      title: 'Incomplete',
      detail: `nothing failed, but ${plural(summary.unjudged_must, 'MUST rule')} ${summary.unjudged_must === 1 ? 'was' : 'were'} not judged (skipped): set ${summary.missing_keys.join(', ')}, or accept the skips with --allow-skip`,
    };
  }
  const accepted = summary.accepted_skips.length
    ? ` (${plural(summary.accepted_skips.length, 'skip')} accepted by --allow-skip)`
    : '';
  return {
    state: 'conformant',
    title: 'Conformant',
    detail: `every ${run.strict ? 'MUST and SHOULD' : 'MUST'} rule was judged and none failed${accepted}`,
  };
}
