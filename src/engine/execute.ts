/**
 * Runs one rule and turns how it ended into a verdict: pass, fail (RuleFailure), skip (SkipRule or
 * a missing fixture), or error (the exchange broke, a setup step failed, the rule timed out).
 */
import { setMaxListeners } from 'node:events';
import { ExchangeError, type Exchange } from '../http/exchange.js';
import type { Redactor } from '../http/redact.js';
import { type Counterexample, RuleState } from './context.js';
import { type FailureDetail, NotJudged, PreconditionError, RuleFailure, SkipRule } from './failures.js';
import type { Rule, Verdict } from './rule.js';

export interface RuleOutcome {
  verdict: Verdict;
  /** One line: why it failed, errored or was skipped. */
  reason?: string;
  failure?: FailureDetail;
  /** The config key that would let a skipped rule run. */
  skipKey?: string;
  /** What kind of error: the exchange, a precondition, a timeout, or a bug in the rule. */
  errorKind?: 'exchange' | 'precondition' | 'timeout' | 'internal';
  observations: string[];
  counterexample?: Counterexample;
  transcript: Exchange[];
  durationMs: number;
}

export async function executeRule(
  rule: Rule,
  run: (state: RuleState, signal: AbortSignal) => Promise<void>,
  transcript: () => Exchange[],
  runSignal: AbortSignal,
  timeoutMs: number,
  redactor: Redactor,
): Promise<RuleOutcome> {
  const state = new RuleState();
  const started = performance.now();
  const finish = (outcome: Omit<RuleOutcome, 'observations' | 'transcript' | 'durationMs' | 'counterexample'>): RuleOutcome => ({
    ...outcome,
    ...(outcome.reason ? { reason: redactor.text(outcome.reason) } : {}),
    observations: state.observations.map((o) => redactor.text(o)),
    ...(state.counterexample ? { counterexample: state.counterexample } : {}),
    transcript: transcript(),
    durationMs: Math.round(performance.now() - started),
  });

  // The rule's own signal: aborted when it times out or the run stops, so its requests end too.
  const controller = new AbortController();
  // A rule may have many requests in flight at once (the §8 burst); each listens while it runs.
  setMaxListeners(1000, controller.signal);
  const stop = () => controller.abort(runSignal.reason);
  runSignal.addEventListener('abort', stop, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const running = run(state, controller.signal).then(() => 'done' as const);
  running.catch(() => undefined); // a rejection after a timeout is already accounted for
  const signal = controller.signal;
  try {
    const result = await Promise.race([running, timedOut]);
    if (result === 'timeout') {
      controller.abort(new Error('rule timeout'));
      return finish({ verdict: 'error', errorKind: 'timeout', reason: `the rule did not finish within ${Math.round(timeoutMs / 1000)} s` });
    }
    return finish({ verdict: 'pass' });
  } catch (error) {
    if (error instanceof RuleFailure) {
      const failure = { ...error.detail, message: redactor.text(error.detail.message) };
      return finish({ verdict: 'fail', reason: failure.message, failure });
    }
    if (error instanceof SkipRule) return finish({ verdict: 'skip', reason: error.message, skipKey: error.key });
    if (error instanceof NotJudged) return finish({ verdict: 'error', errorKind: 'timeout', reason: `not judged: ${error.message}` });
    if (error instanceof PreconditionError) return finish({ verdict: 'error', errorKind: 'precondition', reason: `precondition: ${error.message}` });
    if (error instanceof ExchangeError) return finish({ verdict: 'error', errorKind: 'exchange', reason: error.message });
    if (signal.aborted) return finish({ verdict: 'error', errorKind: 'timeout', reason: 'the run was stopped before the rule finished' });
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return finish({ verdict: 'error', errorKind: 'internal', reason: `internal error in the rule (please report it): ${message}` });
  } finally {
    clearTimeout(timer);
    runSignal.removeEventListener('abort', stop);
  }
}
