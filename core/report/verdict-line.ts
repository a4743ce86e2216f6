/**
 * The run's verdict in words, the same in every report: conformant, not conformant (with failures
 * counted as failures and unjudged rules as unjudged), incomplete, aborted, or interrupted.
 */
import { type JudgingLevel, isFailing } from '../engine/verdict.js';
import type { Report } from './schema.js';

export type RunState = 'conformant' | 'not conformant' | 'incomplete' | 'aborted' | 'interrupted';

export interface RunVerdict {
  state: RunState;
  /** "Conformant" (or "Conformant for what is implemented"), "Not conformant", "Incomplete", "Aborted", "Interrupted". */
  title: string;
  /** What the title rests on, e.g. "3 MUST failures and 1 MUST rule not judged (error)". */
  detail: string;
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** At most five names, then how many more: a verdict line stays one line. */
const names = (ids: readonly string[]) =>
  ids.length > 5 ? `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more` : ids.join(', ');

/**
 * The verdict in words, derived from the counts alone, so that the words never contradict them:
 * "nothing failed" is never said beside a SHOULD failure, "every MUST rule was judged" never beside
 * an accepted MUST skip, and failures and unjudged rules are counted apart.
 */
export function runVerdict(report: Report): RunVerdict {
  const { summary, run } = report;
  if (report.aborted) return { state: 'aborted', title: 'Aborted', detail: `no rule ran: ${report.aborted.reason}` };
  if (report.interrupted) return { state: 'interrupted', title: 'Interrupted', detail: interruptedDetail(report) };
  const counted = report.rules.filter((r) => isFailing(r.verdict) && !r.expected_failure);
  const excused = report.rules.filter((r) => isFailing(r.verdict) && r.expected_failure);
  const describe = (level: JudgingLevel, among = counted) => {
    const mine = among.filter((r) => r.level === level);
    const failed = mine.filter((r) => r.verdict === 'fail').length;
    const errored = mine.length - failed;
    return [
      ...(failed ? [plural(failed, `${level} failure`)] : []),
      ...(errored ? [`${plural(errored, `${level} rule`)} not judged (error)`] : []),
    ];
  };
  // Without --strict SHOULD results do not count; they are still said, as not counted.
  const uncounted = run.strict ? [] : describe('SHOULD');
  const notImplementedSkip = (r: Report['rules'][number]) =>
    r.verdict === 'skip' && r.cause?.startsWith('not-implemented.') === true;
  const acceptedRules = report.rules.filter(
    (r) => r.level === 'MUST' && r.verdict === 'skip' && summary.accepted_skips.includes(r.id),
  );
  const acceptedMust = acceptedRules.length;
  // Accepted by --partial: the skips of endpoints not implemented, when the run had --partial.
  const acceptedPartial = run.partial ? acceptedRules.filter(notImplementedSkip).length : 0;
  const notImplemented = summary.not_implemented ?? [];
  // Unjudged rules: skipped for a missing fixture (a key to set), or because an endpoint they needed
  // is not implemented (implement it, or accept it with --partial), said apart.
  const missingRules = report.rules.filter((r) => notImplementedSkip(r) && !r.skip_accepted);
  const missing = notImplemented.filter((id) => missingRules.some((r) => r.cause === `not-implemented.${id}`));
  const missingMust = missingRules.filter((r) => r.level === 'MUST').length;
  const unjudgedFixtures = summary.unjudged_must - missingMust;
  const skipped = [
    unjudgedFixtures
      ? `${plural(unjudgedFixtures, 'MUST rule')} not judged (skipped): set ${summary.missing_keys.join(', ')}, or accept the skips with --allow-skip`
      : '',
    missing.length
      ? `${plural(missing.length, 'endpoint')} not implemented (${names(missing)}), so ${plural(missingRules.length, 'rule')} (${missingMust} MUST) not judged: implement ${missing.length === 1 ? 'it' : 'them'}, or accept a partial implementation with --partial`
      : '',
  ]
    .filter(Boolean)
    .join('; ');
  const accepted = [
    acceptedMust - acceptedPartial
      ? // Traffic judges what it was given: a check it held nothing for skips by nature, no option accepted it.
        run.kind === 'traffic'
        ? `${plural(acceptedMust - acceptedPartial, 'MUST check')} had nothing in the traffic to judge`
        : `${plural(acceptedMust - acceptedPartial, 'MUST rule')} skipped, accepted by --allow-skip`
      : '',
    acceptedPartial ? `${plural(acceptedPartial, 'MUST rule')} skipped, accepted by --partial` : '',
  ]
    .filter(Boolean)
    .join('; ');
  // What the baseline excuses is said beside the verdict, so that "none failed" never stands above
  // a count of failures without saying which ones do not count.
  const excusedParts = [...describe('MUST', excused), ...(run.strict ? describe('SHOULD', excused) : [])];
  const excusedWords = excusedParts.length ? `${excusedParts.join(' and ')} excused by the baseline` : '';
  const notes = (...parts: string[]) =>
    [...parts, uncounted.length ? `${uncounted.join(' and ')}, not counted without --strict` : '']
      .filter(Boolean)
      .join('; ');
  if (!summary.conformant && !summary.incomplete) {
    const parts = [...describe('MUST'), ...(run.strict ? describe('SHOULD') : [])];
    return {
      state: 'not conformant',
      title: 'Not conformant',
      detail: notes(parts.join(' and '), excusedWords, skipped, accepted),
    };
  }
  const judged = run.strict ? 'MUST or SHOULD' : 'MUST';
  if (summary.incomplete)
    return {
      state: 'incomplete',
      title: 'Incomplete',
      detail: notes(`no ${judged} rule failed${excusedWords ? ` (${excusedWords})` : ''}, but ${skipped}`, accepted),
    };
  const scope = `${
    acceptedMust
      ? `every ${judged} ${run.kind === 'traffic' ? 'check that had traffic to judge' : 'rule that ran'} was judged and none failed`
      : `every ${run.strict ? 'MUST and SHOULD' : 'MUST'} rule was judged and none failed`
  }${excusedWords ? `, apart from ${excusedWords}` : ''}`;
  // A partial implementation, accepted as such: conformant for what it implements, never more.
  if (notImplemented.length)
    return {
      state: 'conformant',
      title: 'Conformant for what is implemented',
      detail: notes(
        `${scope}; ${plural(notImplemented.length, 'endpoint')} not implemented (${names(notImplemented)})`,
        accepted,
      ),
    };
  return { state: 'conformant', title: 'Conformant', detail: notes(scope, accepted) };
}

/**
 * An interrupted run judges nothing as a whole: what it says is how far it got, and the failures
 * found before the interruption (a fail is a verdict, whenever it was found).
 */
function interruptedDetail(report: Report): string {
  const { interrupted, rules } = report;
  const notJudged = interrupted?.not_judged ?? 0;
  const failures = rules.filter((r) => r.verdict === 'fail' && r.level === 'MUST' && !r.expected_failure).length;
  return [
    // A proxy session cut with exchanges in flight judged every check on what it saw: its reason
    // names what was cut, and "all rules ran, 0 not judged" would only hide it.
    notJudged > 0
      ? `${interrupted?.reason ?? 'the run was interrupted'}: ${rules.length - notJudged} of ${plural(rules.length, 'rule')} ran, ${notJudged} not judged`
      : (interrupted?.reason ?? 'the run was interrupted'),
    ...(failures ? [`${plural(failures, 'MUST failure')} among those that ran`] : []),
  ].join('; ');
}
