/**
 * One run of the kill matrix: the whole suite against the reference server in one mode (faithful,
 * a variant profile) or with one fault switched on. Runs in a worker thread or in-process.
 */
import type { Selection } from '../../core/engine/select.js';
import { runAgainstReference } from '../against-reference.js';

export type Target = { kind: 'faithful' } | { kind: 'variant'; profile: string } | { kind: 'fault'; id: string };

export interface TaskResult {
  target: Target;
  /** MUST and SHOULD rules that failed (the fault was caught by them, or the faithful run is wrong). */
  failed: { rule: string; level: string; reason: string }[];
  /** MUST and SHOULD rules that errored (could not be judged). */
  errored: { rule: string; level: string; reason: string }[];
  /** SHOULD rules a variant profile fails on purpose (it takes the other legal reading), with why. */
  otherReadings?: { rule: string; level: string; reason: string; why: string }[];
  rules: number;
  durationMs: number;
}

export async function runTask(
  target: Target,
  options: {
    seed: number;
    numRuns: number;
    selection?: Selection;
    /** How long a process call the §8 limit refused is retried (default: against-reference.ts's). */
    processRetryBudgetMs?: number;
  },
): Promise<TaskResult> {
  const started = performance.now();
  const { report, profile } = await runAgainstReference(
    target.kind === 'variant' ? { profile: target.profile } : target.kind === 'fault' ? { fault: target.id } : {},
    {
      seed: options.seed,
      numRuns: options.numRuns,
      selection: options.selection,
      ...(options.processRetryBudgetMs !== undefined ? { processRetryBudgetMs: options.processRetryBudgetMs } : {}),
    },
  );
  const pick = (verdict: string) =>
    report.rules
      .filter((r) => r.verdict === verdict && r.level !== 'INFO')
      .map((r) => ({ rule: r.id, level: r.level, reason: r.reason ?? '' }));
  const failed = pick('fail');
  const why = (rule: { rule: string; level: string }) =>
    rule.level === 'SHOULD' ? profile?.otherReadings[rule.rule] : undefined;
  return {
    target,
    failed: failed.filter((f) => why(f) === undefined),
    errored: pick('error'),
    ...(profile
      ? { otherReadings: failed.filter((f) => why(f) !== undefined).map((f) => ({ ...f, why: why(f)! })) }
      : {}),
    rules: report.rules.length,
    durationMs: performance.now() - started,
  };
}
