/**
 * Runs a fast-check property inside a rule: `num_runs` cases from the run's seed, or exactly one
 * case with `--path`. A failing property reports its shrunk counterexample with the seed and path
 * that replay it. When the exchange itself breaks (or a setup step cannot be established), every
 * later case fails at once with the same error, so shrinking cannot turn a broken target into
 * minutes of timeouts — and the verdict stays an error, never a failure. A property cut off by its
 * time limit before it ran every case it was asked for is not judged (an error, not a pass): the
 * cases it ran are recorded either way.
 */
import fc from 'fast-check';
import type { RuleContext } from './context.js';
import { NotImplemented, NotJudged, PreconditionError, RuleFailure } from './failures.js';
import { ExchangeError } from '../http/exchange.js';

/** Bounds a property's wall time, shrinking included; the best counterexample so far is kept. */
const TIME_LIMIT_MS = 120_000;

const short = (value: unknown) => {
  const text = JSON.stringify(value);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
};

/**
 * The counterexample as a person reads it. A model-based property's value is fast-check's command
 * sequence, whose JSON is engine internals (`{"cmd":{"slot":0},"hasRan":true}`); it becomes the list of
 * steps that ran, named as the transcript names the requests they made (`stage(0, valid)`).
 */
export function readable(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !(Symbol.iterator in value)) return value;
  const wrappers = [...(value as Iterable<{ cmd?: unknown; hasRan?: boolean }>)];
  if (!wrappers.every((w) => w !== null && typeof w === 'object' && 'cmd' in w)) return value;
  const ran = wrappers.filter((w) => w.hasRan);
  return { steps: (ran.length ? ran : wrappers).map((w) => String(w.cmd)) };
}

export async function checkProperty<T>(
  ctx: RuleContext,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  timeLimitMs = TIME_LIMIT_MS,
): Promise<void> {
  let broken: Error | undefined;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (broken) throw broken;
    try {
      await predicate(value);
    } catch (error) {
      // A broken exchange, a refused setup step, a call starved of the rate limit or an endpoint not
      // implemented: no case can be judged.
      if (
        error instanceof ExchangeError ||
        error instanceof PreconditionError ||
        error instanceof NotJudged ||
        error instanceof NotImplemented
      )
        broken = error;
      throw error;
    }
  });
  const { numRuns, seed, path } = ctx.property;
  const result = await fc.check(property, {
    seed,
    numRuns,
    ...(path ? { path } : {}),
    interruptAfterTimeLimit: timeLimitMs,
    markInterruptAsFailure: false,
  });
  // A replay (--path) runs exactly the one case it names.
  const asked = path ? 1 : numRuns;
  const limit = timeLimitMs >= 1000 ? `${Math.round(timeLimitMs / 1000)} s` : `${timeLimitMs} ms`;
  ctx.observe(
    `${result.numRuns} of ${asked} generated case(s) ran${result.interrupted ? ` before the ${limit} time limit cut the property off` : ''}`,
  );
  if (!result.failed) {
    if (result.numRuns < asked)
      throw new NotJudged(
        `only ${result.numRuns} of the ${asked} cases asked for ran within the property's ${limit} time limit, and they passed`,
      );
    return;
  }
  const error = result.errorInstance;
  const value = readable(result.counterexample?.[0]);
  if (broken) throw broken;
  ctx.counterexample({ seed: result.seed, path: result.counterexamplePath ?? '', value, shrinks: result.numShrinks });
  const where = `counterexample (seed ${result.seed}, path ${result.counterexamplePath}, ${result.numShrinks} shrinks): ${short(value)}`;
  if (error instanceof RuleFailure)
    throw new RuleFailure({ ...error.detail, message: `${error.detail.message} — ${where}` });
  throw error instanceof Error ? error : new Error(String(error));
}
