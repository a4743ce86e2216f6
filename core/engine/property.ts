/**
 * Runs a fast-check property inside a rule: `num_runs` cases from the run's seed, several at once
 * (docs/design.md §7; `--concurrency` of them), or exactly one case with `--path`. A failing property reports its shrunk counterexample with the seed and path
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
import { inPlace } from './probes.js';

/** Bounds a property's wall time, shrinking included; the best counterexample so far is kept. */
const TIME_LIMIT_MS = 120_000;

/**
 * Shrinking runs at most this many cases (the failing case replayed included). Against a target that
 * fails every case, fast-check takes the first smaller case at every step, and a complete account
 * shrinks for 500 steps, each a validate and a stage: over 1,000 requests, minutes at a staging
 * server's latency. The counterexample is then the smallest failing case found within the budget, and
 * `--path` replays it (and shrinks on from it, within the budget again). Counted, not timed, so the
 * same seed gives the same counterexample on any machine.
 */
export const SHRINK_BUDGET = 200;

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

/**
 * Cases `start` to `start + count - 1` exactly as `fc.check(property, { seed })` generates them:
 * fast-check replays from a path (`"7"` is the eighth case), and a path of one segment goes on with
 * the cases after it, each drawn as the full run draws it (case n from the n-th jump of the seeded
 * generator). One call per batch: reaching case n costs n jumps.
 */
function casesFrom<T>(arbitrary: fc.Arbitrary<T>, seed: number, start: number, count: number): T[] {
  const values: T[] = [];
  fc.check(
    fc.property(arbitrary, (v) => {
      values.push(v);
    }),
    { seed, path: String(start), numRuns: count },
  );
  return values;
}

/** The exchange broke, a setup step was refused, a call was starved: no case can be judged. */
const isBroken = (error: unknown): error is Error =>
  error instanceof ExchangeError ||
  error instanceof PreconditionError ||
  error instanceof NotJudged ||
  error instanceof NotImplemented;

/**
 * The predicate, run again (on a fresh copy of the value: a case makes fresh identifiers each time it
 * runs) up to `--retries` times while it ends because the implementation did not answer
 * (transient.ts). A case, not the whole property, is what a blip costs: a property makes hundreds of
 * requests, so a re-run of all of them would meet a blip again as often as the first run did. The
 * rule is then reported as flaky if it passes.
 */
function retrying<T>(ctx: RuleContext, predicate: (value: T) => Promise<void>) {
  return (value: T, label: string): Promise<void> => {
    // The first run uses fast-check's own value: a command sequence marks on it the commands that
    // ran, which shrinking and the readable counterexample read. A re-run gets a fresh copy.
    let runs = 0;
    return inPlace(ctx, () => predicate(runs++ ? fc.cloneIfNeeded(value) : value), `${label} run again`);
  };
}

/**
 * A fast-check property over `attempt` that fails every case at once, with the same error, after a
 * case broke (a broken exchange, a refused setup step, a call starved of the rate limit, an endpoint
 * not implemented): no case can be judged then, and shrinking must not turn a broken target into
 * minutes of timeouts. `broken()` is that error, if a case broke.
 */
function haltingOnBroken<T>(
  arbitrary: fc.Arbitrary<T>,
  attempt: (value: T, label: string) => Promise<void>,
  label: string,
) {
  let broken: Error | undefined;
  // Cases run since the first that failed: the shrinking. Cases before it (a replayed path goes on
  // with the cases after the one it names, up to --num-runs) are not counted.
  let shrinking = 0;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    if (broken) throw broken;
    // Past the budget a case is not run, and passes: fast-check finds no smaller failing case and
    // stops at the last one that failed.
    if (shrinking >= SHRINK_BUDGET) return;
    if (shrinking > 0) shrinking++;
    try {
      await attempt(value, label);
    } catch (error) {
      if (isBroken(error)) broken = error;
      if (shrinking === 0) shrinking = 1;
      throw error;
    }
  });
  return { property, broken: () => broken, spent: () => shrinking >= SHRINK_BUDGET };
}

/**
 * Runs `num_runs` cases, `ctx.property.concurrency` of them at once (each case makes its own
 * identifiers, so cases never share an account), then shrinks the first failing case one case at a
 * time. The verdict, the counterexample, its seed, path and shrinks are the ones a sequential
 * `fc.check` with the same seed gives: cases are handed out in fast-check's order, no case after a
 * known failure is started, every case before it finishes, and the lowest failing case is replayed
 * by its path (`--path <index>`), which is where fast-check itself starts shrinking. `--path` runs
 * exactly as fast-check replays it, one case at a time. Predicates must not use `fc.pre`.
 */
export async function checkProperty<T>(
  ctx: RuleContext,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  timeLimitMs = TIME_LIMIT_MS,
): Promise<void> {
  const { numRuns, seed, path } = ctx.property;
  const attempt = retrying(ctx, predicate);
  if (path) return replay(ctx, arbitrary, attempt, timeLimitMs);
  const deadline = Date.now() + timeLimitMs;
  const width = Math.max(1, Math.min(ctx.property.concurrency ?? 1, numRuns));
  let next = 0;
  // Generated a batch at a time, handed out in order.
  let generated: { from: number; values: T[] } = { from: 0, values: [] };
  let passed = 0;
  let interrupted = false;
  // What the workers found: the lowest failing case, and the lowest case whose exchange broke.
  const seen: { failure?: { index: number; value: T; error: unknown }; broken?: { index: number; error: Error } } = {};
  const worker = async () => {
    for (;;) {
      if (seen.broken || next >= numRuns || (seen.failure && next > seen.failure.index)) return;
      if (Date.now() >= deadline) {
        interrupted = true;
        return;
      }
      const index = next++;
      if (index >= generated.from + generated.values.length)
        generated = { from: index, values: casesFrom(arbitrary, seed, index, Math.min(width, numRuns - index)) };
      const value = generated.values[index - generated.from];
      try {
        await attempt(value, `case ${index}`);
        passed++;
      } catch (error) {
        if (fc.PreconditionFailure.isFailure(error))
          throw new Error('checkProperty runs its cases concurrently and does not support fc.pre');
        if (isBroken(error)) {
          if (index < lowest(seen.broken)) seen.broken = { index, error };
        } else if (index < lowest(seen.failure)) seen.failure = { index, value, error };
      }
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  const { failure, broken } = seen;
  const limit = limitText(timeLimitMs);
  // A broken exchange before the first failing case: a sequential run would have met it first.
  if (broken && (!failure || broken.index < failure.index)) {
    ctx.observe(`${broken.index + 1} of ${numRuns} generated case(s) ran`);
    throw broken.error;
  }
  if (!failure) {
    ctx.observe(
      `${passed} of ${numRuns} generated case(s) ran${interrupted ? ` before the ${limit} time limit cut the property off` : ''}`,
    );
    if (passed < numRuns)
      throw new NotJudged(
        `only ${passed} of the ${numRuns} cases asked for ran within the property's ${limit} time limit, and they passed`,
      );
    return;
  }
  // Shrinking, one case at a time, from the first failing case as fast-check replays it.
  const { property, broken: shrinkBroken, spent } = haltingOnBroken(arbitrary, attempt, 'a shrunk case');
  const left = deadline - Date.now();
  const shrunk =
    left > 0
      ? await fc.check(property, {
          seed,
          numRuns: 1,
          path: String(failure.index),
          interruptAfterTimeLimit: left,
          markInterruptAsFailure: false,
        })
      : undefined;
  const cut = left <= 0 || shrunk?.interrupted;
  ctx.observe(
    `${failure.index + 1} of ${numRuns} generated case(s) ran${cut ? ` before the ${limit} time limit cut the property off` : ''}`,
  );
  const brokenWhileShrinking = shrinkBroken();
  if (brokenWhileShrinking) throw brokenWhileShrinking;
  if (spent()) ctx.observe(shrinkingStopped);
  const reproduced = shrunk?.failed === true && shrunk.counterexample !== null;
  if (!reproduced)
    ctx.observe(
      `case ${failure.index} did not fail again when replayed to shrink it${cut ? ' (out of time)' : ''}: it is reported as it first failed`,
    );
  const found = reproduced
    ? {
        value: shrunk.counterexample[0],
        path: shrunk.counterexamplePath ?? String(failure.index),
        shrinks: shrunk.numShrinks,
        error: shrunk.errorInstance,
      }
    : { value: failure.value, path: String(failure.index), shrinks: 0, error: failure.error };
  report(ctx, seed, found);
}

const lowest = (found: { index: number } | undefined) => found?.index ?? Number.POSITIVE_INFINITY;

const shrinkingStopped = `shrinking stopped after ${SHRINK_BUDGET} cases: the counterexample is the smallest failing case found by then (--path shrinks on from it)`;

const limitText = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);

/** Records the counterexample and throws the failure with where to replay it. */
function report(
  ctx: RuleContext,
  seed: number,
  found: { value: unknown; path: string; shrinks: number; error: unknown },
): never {
  const value = readable(found.value);
  const { path, shrinks, error } = found;
  ctx.counterexample({ seed, path, value, shrinks });
  const where = `counterexample (seed ${seed}, path ${path}, ${shrinks} shrinks): ${short(value)}`;
  if (error instanceof RuleFailure)
    throw new RuleFailure({ ...error.detail, message: `${error.detail.message} — ${where}` });
  throw error instanceof Error ? error : new Error(String(error));
}

/** `--path`: the case it names, and shrinking from it, exactly as fast-check replays them. */
async function replay<T>(
  ctx: RuleContext,
  arbitrary: fc.Arbitrary<T>,
  attempt: (value: T, label: string) => Promise<void>,
  timeLimitMs: number,
): Promise<void> {
  const { property, broken, spent } = haltingOnBroken(arbitrary, attempt, 'the replayed case');
  const { numRuns, seed, path } = ctx.property;
  const result = await fc.check(property, {
    seed,
    numRuns,
    path,
    interruptAfterTimeLimit: timeLimitMs,
    markInterruptAsFailure: false,
  });
  // A replay (--path) runs exactly the one case it names.
  const asked = 1;
  const limit = limitText(timeLimitMs);
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
  const brokenCase = broken();
  if (brokenCase) throw brokenCase;
  if (spent()) ctx.observe(shrinkingStopped);
  report(ctx, result.seed, {
    value: result.counterexample?.[0],
    path: result.counterexamplePath ?? '',
    shrinks: result.numShrinks,
    error: result.errorInstance,
  });
}
