/**
 * The overall verdict of a claim, worked out from the per-rule verdicts with the runner's own
 * function (`summarize`, core/report/build.ts), so a claim and the run it describes never count
 * differently. Four words, each exactly:
 *
 * - `conformant`: every selected rule that counts (MUST; SHOULD too with --strict) was judged and
 *   none failed, and no endpoint was found not implemented. MUST skips accepted with --allow-skip
 *   (a fixture the target cannot provide) are listed in the statement beside it.
 * - `conformant for what is implemented`: the same, but endpoints answered as not implemented and
 *   the user accepted that (--partial, or --allow-skip of their rules); they are listed.
 * - `incomplete`: no rule that counts failed, but some could not be judged: skipped and not accepted
 *   (a missing fixture, an endpoint not implemented), or ended in error (an exchange broke, a setup
 *   step was refused, a time limit ran out) — an error says nothing of conformance.
 * - `not conformant`: a rule that counts failed.
 *
 * Where it differs from the run's exit code, on purpose: a failure a baseline excused
 * (--expected-failures) still counts, since a baseline is the run owner's own acceptance and a
 * claim is read by others; and a run whose counted rules only errored is `incomplete`, not
 * `not conformant` (the run's exit code 1 covers both). Interrupted and aborted runs make no claim.
 */
import { summarize } from '../../core/report/build.js';
import type { Report, RuleResult } from '../../core/report/schema.js';
import { counts } from '../../core/engine/verdict.js';

export const CLAIM_VERDICTS = [
  'conformant',
  'conformant for what is implemented',
  'incomplete',
  'not conformant',
] as const;
export type ClaimVerdict = (typeof CLAIM_VERDICTS)[number];

/** What the verdict is worked out from: the rules as report.json holds them, and how the run counted. */
export interface VerdictInput {
  rules: readonly RuleResult[];
  strict: boolean;
  notImplemented: readonly string[];
}

export function claimVerdict({ rules, strict, notImplemented }: VerdictInput): ClaimVerdict {
  // A baseline's excuse is dropped: the runner's function then counts every failure.
  const unexcused = rules.map(({ expected_failure: _, ...r }) => r as RuleResult);
  const { summary } = summarize(unexcused, strict, false, notImplemented);
  if (!summary.conformant && !summary.incomplete) {
    const failed = unexcused.some((r) => r.verdict === 'fail' && counts(r.level, strict));
    return failed ? 'not conformant' : 'incomplete';
  }
  if (summary.incomplete) return 'incomplete';
  return (summary.not_implemented ?? []).length ? 'conformant for what is implemented' : 'conformant';
}

/** Why a report makes no claim, or undefined when it can make one. */
export function noClaimReason(report: Report): string | undefined {
  if (report.aborted) return `the run was aborted (${report.aborted.reason}): no rule ran`;
  if (report.interrupted)
    return `the run was interrupted (${report.interrupted.signal}): it judged only part of what it selected`;
  if (report.run.kind === 'traffic') return 'it is a traffic report (proxy, check-traffic), not a run of the suite';
  return undefined;
}

/** The claim's verdict of a report. */
export const verdictOf = (report: Report): ClaimVerdict =>
  claimVerdict({
    rules: report.rules,
    strict: report.run.strict,
    notImplemented: report.summary.not_implemented ?? [],
  });
