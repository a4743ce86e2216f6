/**
 * Runs one rule and turns how it ended into a verdict: pass, fail (RuleFailure), skip (SkipRule or
 * a missing fixture), or error (the exchange broke, a setup step failed, the rule or the run ran out
 * of time, the rule saw too little to judge).
 */
import { setMaxListeners } from 'node:events';
import { ExchangeError, type Exchange } from '../http/exchange.js';
import type { Redactor } from '../http/redact.js';
import { RuleState } from './context.js';
import { DEADLINE_CAUSE, RunDeadline, RunInterrupted } from './interrupt.js';
import { NotImplemented, NotJudged, PreconditionError, RuleFailure, SkipRule } from './failures.js';
import type { Ending, Failure, RuleResult } from './result.js';
import { type Rule, declaredFacts } from './rule.js';
import { reportTranscript } from './transcripts.js';
import { gatewayAnswer, noAnswer } from './transient.js';

/** The result of a rule that made no request: skipped for a missing need, out of time, or --bail. */
export const notRun = (rule: Rule, ending: Ending): RuleResult =>
  ({ ...declaredFacts(rule), ...ending, observations: [], duration_ms: 0, transcript: [] }) as RuleResult;

/** One rule to run, and what its result is made with. */
export interface RuleExecution {
  rule: Rule;
  /** The rule's check over its state; `signal` aborts when the rule times out or the run stops. */
  run: (state: RuleState, signal: AbortSignal) => Promise<void>;
  /** The rule's exchanges so far. */
  transcript: () => Exchange[];
  /** The run's signal: aborted by its deadline (--max-time) or an interruption. */
  runSignal: AbortSignal;
  /** The rule's own time limit. */
  timeoutMs: number;
  redactor: Redactor;
  /** Keep every exchange (--full-transcripts), not the report's trimmed transcript. */
  fullTranscripts?: boolean;
}

export async function executeRule({
  rule,
  run,
  transcript,
  runSignal,
  timeoutMs,
  redactor,
  fullTranscripts = false,
}: RuleExecution): Promise<RuleResult> {
  const state = new RuleState();
  const started = performance.now();
  // The transcript is trimmed to what the report keeps as the result is made (transcripts.ts), so the
  // run holds no more of it than the report shows; --full-transcripts keeps every exchange.
  const kept = (ending: Ending) => {
    const failureSeq = ending.verdict === 'fail' ? ending.failure.exchange_seq : undefined;
    const { transcript: trimmed, omitted } = reportTranscript(
      transcript(),
      ending.verdict,
      failureSeq,
      fullTranscripts,
    );
    return { transcript: trimmed, ...(omitted ? { transcript_omitted: omitted } : {}) };
  };
  const finish = (ending: Ending): RuleResult => ({
    ...declaredFacts(rule),
    ...(ending.reason === undefined ? ending : { ...ending, reason: redactor.text(ending.reason) }),
    observations: state.observations.map((o) => redactor.text(o)),
    ...(state.counterexample ? { counterexample: state.counterexample } : {}),
    ...(state.discoveredLimits.length ? { discovered_limits: state.discoveredLimits } : {}),
    duration_ms: Math.round(performance.now() - started),
    ...kept(ending),
  });

  // The rule's own signal: aborted when it times out or the run stops, so its requests end too.
  const controller = new AbortController();
  // A rule may have many requests in flight at once (the §8 burst); each listens while it runs.
  setMaxListeners(1000, controller.signal);
  // The run stopped (--max-time, or a library caller): the rule is not judged, whatever its
  // requests are still waiting for. One listener per running rule both ends those requests and
  // ends the wait below.
  let stopped!: Promise<'stopped'>;
  let stop = () => {};
  if (runSignal.aborted) stopped = Promise.resolve('stopped');
  else {
    stopped = new Promise<'stopped'>((resolve) => {
      stop = () => {
        controller.abort(runSignal.reason);
        resolve('stopped');
      };
    });
    runSignal.addEventListener('abort', stop, { once: true });
  }
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const running = run(state, controller.signal).then(() => 'done' as const);
  running.catch(() => undefined); // a rejection after a timeout is already accounted for
  const signal = controller.signal;
  try {
    const result = await Promise.race([running, timedOut, stopped]);
    if (result === 'stopped') {
      controller.abort(runSignal.reason);
      return finish(stoppedEnding(runSignal.reason, 'before the rule finished'));
    }
    if (result === 'timeout') {
      controller.abort(new Error('rule timeout'));
      return finish({
        verdict: 'error',
        error_kind: 'timeout',
        reason: `the rule did not finish within ${Math.round(timeoutMs / 1000)} s`,
      });
    }
    return finish(state.flaky ? { verdict: 'pass', flaky: state.flaky } : { verdict: 'pass' });
  } catch (error) {
    if (error instanceof RuleFailure) {
      // Only what the failure knows: report.json leaves out what is undefined, and so does the result.
      const known = Object.entries(error.detail).filter(([, value]) => value !== undefined);
      const failure = { ...(Object.fromEntries(known) as Failure), message: redactor.text(error.detail.message) };
      const unavailable = gatewayAnswer(transcript(), failure.exchange_seq);
      // 502–504 are no statement of the spec (§7.2 documents 400, 401, 404, 429, 500): a gateway, or the
      // service saying it is unavailable, answered instead of the implementation. Not judged, and run
      // again like a reset — never a fail on the implementation's behalf.
      if (unavailable)
        return finish({
          verdict: 'error',
          error_kind: 'exchange',
          transient: true,
          reason: `not judged: ${unavailable} instead of the implementation (${failure.message})`,
        });
      return finish({ verdict: 'fail', reason: failure.message, failure });
    }
    // An endpoint the rule needed is not implemented (not-implemented.ts): not judged, with its cause.
    if (error instanceof NotImplemented)
      return finish({ verdict: 'skip', reason: `not judged: ${error.message}`, cause: error.causeId });
    if (error instanceof SkipRule)
      return finish({ verdict: 'skip', reason: error.message, ...(error.key ? { skip_key: error.key } : {}) });
    if (error instanceof NotJudged)
      return finish({ verdict: 'error', error_kind: 'not-judged', reason: `not judged: ${error.message}` });
    if (error instanceof PreconditionError)
      return finish({
        verdict: 'error',
        error_kind: 'precondition',
        reason: `precondition: ${error.message}`,
        ...(error.causeId ? { cause: error.causeId } : {}),
      });
    if (error instanceof ExchangeError)
      return finish({
        verdict: 'error',
        error_kind: 'exchange',
        reason: error.message,
        ...(noAnswer(error) ? { transient: true as const } : {}),
      });
    if (signal.aborted) return finish(stoppedEnding(runSignal.reason, 'before the rule finished'));
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return finish({
      verdict: 'error',
      error_kind: 'internal',
      reason: `internal error in the rule (please report it): ${message}`,
    });
  } finally {
    clearTimeout(timer);
    runSignal.removeEventListener('abort', stop);
  }
}

/**
 * A rule the run stopped: interrupted (SIGINT, SIGTERM) or ended by the run's deadline (--max-time),
 * whose rules share one cause saying the run, not the target, ran out of time.
 */
export function stoppedEnding(reason: unknown, when: string): Ending {
  const why = reason instanceof Error ? reason.message : 'the run was stopped';
  if (reason instanceof RunInterrupted)
    return { verdict: 'error', error_kind: 'interrupted', reason: `not judged: ${why} ${when}` };
  return {
    verdict: 'error',
    error_kind: 'timeout',
    reason: `not judged: ${why} ${when}`,
    ...(reason instanceof RunDeadline ? { cause: DEADLINE_CAUSE } : {}),
  };
}
