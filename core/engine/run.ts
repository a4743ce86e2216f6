/**
 * `runRules`: aims rules at one implementation and returns the run's record. It knows no suite: the entry
 * point (app/conformance.ts) hands the rules in.
 */
import { EDGE } from './edges.js';
import { ConfigError } from '../config/errors.js';
import { excuse } from './baseline.js';
import { notRun, stoppedEnding } from './execute.js';
import { RunDeadline, type RunInterrupted, interruptionOf } from './interrupt.js';
import { RUN_DEFAULTS, type RunOptions } from './options.js';
import type { RunRecord } from './record.js';
import type { RuleResult } from './result.js';
import type { Rule } from './rule.js';
import { selectRules } from './select.js';
import { openSession } from './session.js';
import { isFailing } from './verdict.js';

export { RUN_DEFAULTS, manyCases, type RunEvent, type RunOptions } from './options.js';
export { UnreachableError, type WithRecord } from './session.js';
export { RunInterrupted } from './interrupt.js';

/**
 * The order rules are started in (results keep the suite order). Property and model-based rules
 * make tens of requests one after another, and the §8 rules wait out the service's processing
 * between their bursts; started last, either alone would set the length of the run against a slow
 * target, so they start first and the short rules fill the other places. Longest of all are the
 * properties whose every case imports an account (they need the operations team), waiting out the
 * processing each time: there are more properties than places, so those go before the others.
 * Rules of a relation at many places of the model (MANY_PLACES: the defect and edge rules of the
 * account payload and the larger batches, some 80–240 requests each, bodies up to 1 MiB) start with
 * the properties: started last, in suite order, they ran while the embedded server held everything
 * a nightly run had stored, and their bodies came on top of it (peak RSS at `--num-runs 400`: 209 MB
 * started last, 192 MB first, median of 3 alternated runs each). So do the edge rules at any number
 * of places: an endpoint that takes its data once (billing documents, statements) sets up an account
 * for each of its edge requests, and started last in suite order the longest of them ran alone at the
 * end of a default run (3.12 s against 3.04 s started first, median of 10 alternated runs).
 */
const MANY_PLACES = 20;

function longestFirst(rules: readonly Rule[]): number[] {
  const weight = (rule: Rule) => {
    if (rule.property) return rule.needs?.includes('operationsTeam') ? 3 : 2;
    if ((rule.relation?.places.length ?? 0) >= MANY_PLACES || rule.relation?.kind === EDGE.id) return 2;
    return rule.needs?.includes('concurrencyLimit') ? 1 : 0;
  };
  return rules.map((_, i) => i).sort((a, b) => weight(rules[b]) - weight(rules[a]) || a - b);
}

/** Aims `candidates` (narrowed by the selection) at one implementation and returns the run's record. */
export async function runRules(candidates: readonly Rule[], options: RunOptions = {}): Promise<RunRecord> {
  const { rules, unmatched } = selectRules(candidates, options.selection ?? {});
  if (unmatched.length) throw new ConfigError(`Nothing matches ${unmatched.join(', ')} (see "conformance list").`);

  // --max-time bounds the whole run: the setup chain too, and the rules with what is left.
  const limit = options.maxTimeMs
    ? {
        at: Date.now() + options.maxTimeMs,
        words: `the run reached its time limit (--max-time ${formatSeconds(options.maxTimeMs)})`,
      }
    : undefined;
  const session = await openSession({ ...options, deadline: limit });
  try {
    const results: RuleResult[] = new Array(rules.length);
    let bailed = false;
    let done = 0;
    options.onEvent?.({ type: 'start', total: rules.length, runId: session.runId, seed: session.seed });
    options.onEvent?.({ type: 'setup', setup: session.setup });
    const order = longestFirst(rules);
    let expired: string | undefined;
    // An interruption (SIGINT, SIGTERM): the session stops the rules running (session.ts); no rule starts after it.
    let interrupted: RunInterrupted | undefined;
    const interrupt = options.interrupt;
    const onInterrupt = () => {
      interrupted ??= interruptionOf(interrupt!);
    };
    if (interrupt?.aborted) onInterrupt();
    else interrupt?.addEventListener('abort', onInterrupt, { once: true });
    const deadline = limit
      ? setTimeout(
          () => {
            expired = limit.words;
            session.stop(expired);
          },
          Math.max(0, limit.at - Date.now()),
        )
      : undefined;
    const runOne = async (index: number) => {
      const rule = rules[index];
      const stoppedBy = interrupted ?? (expired ? new RunDeadline(expired) : undefined);
      const ran = stoppedBy
        ? notRun(rule, stoppedEnding(stoppedBy, 'before the rule started'))
        : bailed
          ? notRun(rule, { verdict: 'skip', reason: 'not run: --bail stopped the run after a MUST failure' })
          : await runWithRetries(
              session,
              rule,
              options.retries ?? RUN_DEFAULTS.retries,
              () => !expired && !bailed && !interrupted,
            );
      // Only a failing or errored result carries the command that replays it.
      const result = isFailing(ran.verdict) ? ({ ...ran, replay: session.replay(ran) } as RuleResult) : ran;
      results[index] = result;
      if (options.bail && isFailing(result.verdict) && rule.level === 'MUST' && !excuse(options.baseline, result))
        bailed = true;
      options.onEvent?.({ type: 'rule', result, done: ++done, total: rules.length });
    };
    // Rules start in `order` while fewer than the width run; the width may change as the run goes
    // (width.ts), so it is asked again each time a rule ends. No rule starts while a running rule
    // holds a large answer (session.holdsLargeBodies): each may keep one parsed (some 125 MB for
    // 15 MiB of small keys) until it ends, and the rules running then are the only ones that can add
    // another. The wait ends when a running rule ends, which its own time limit bounds: a rule not
    // yet started holds nothing any running rule waits on, and its time limit has not begun.
    const running = new Set<Promise<void>>();
    const start = async (indexes: number[]) => {
      for (const index of indexes) {
        while (running.size >= session.width.current() || (running.size > 0 && session.holdsLargeBodies()))
          await Promise.race(running);
        const started = runOne(index).finally(() => running.delete(started));
        running.add(started);
        session.width.started(running.size);
      }
      await Promise.all(running);
    };
    try {
      // The rules judging the run's history start once every other rule has ended: the history is then whole.
      await start(order.filter((i) => !rules[i].judgesHistory));
      await start(order.filter((i) => rules[i].judgesHistory));
    } finally {
      clearTimeout(deadline);
      interrupt?.removeEventListener('abort', onInterrupt);
    }
    return session.record(results, {
      bailed,
      ...(interrupted ? { interrupted: { by: interrupted.by, reason: interrupted.message } } : {}),
    });
  } finally {
    await session.close();
  }
}

/**
 * Did the rule end in error only because an exchange got no answer from the implementation (a reset,
 * a timeout, a refused connection, a gateway's 502–504)? `executeRule` says so from the error that
 * ended the rule, not from whichever exchange failed last. Such a rule is run again; a fail never is
 * (docs/design.md §2: a fail is a verdict).
 */
export function transient(result: RuleResult): boolean {
  return result.verdict === 'error' && result.error_kind === 'exchange' && result.transient === true;
}

/**
 * Runs a rule, and runs it again (with fresh identifiers: every run of a rule makes its own) up to
 * `retries` times while it ends in a transient error. A rule that passes only on a later run is a
 * pass marked `flaky`, with why the first run was not judged; whatever a later run ends in is
 * reported with the number of attempts.
 */
export async function runWithRetries(
  session: { run(rule: Rule): Promise<RuleResult> },
  rule: Rule,
  retries: number,
  mayContinue: () => boolean,
): Promise<RuleResult> {
  const first = await session.run(rule);
  let result = first;
  let attempts = 1;
  while (attempts <= retries && transient(result) && mayContinue()) {
    result = await session.run(rule);
    attempts++;
  }
  if (attempts === 1) return result;
  const firstReason = `first run not judged: ${first.reason ?? ''}`;
  return result.verdict === 'pass'
    ? { ...result, attempts, flaky: firstReason }
    : ({ ...result, attempts, observations: [...result.observations, firstReason] } as RuleResult);
}

const formatSeconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;
