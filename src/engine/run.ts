/**
 * `runRules`: aims rules at one implementation and returns the run's record. It knows no suite: the entry
 * point (src/conformance.ts) hands the rules in.
 */
import type { TransportOptions } from '../http/transport.js';
import type { AuthSettings } from '../auth/token.js';
import type { FixturesConfig } from '../config/schema.js';
import { ConfigError } from '../config/errors.js';
import type { RunRecord } from './record.js';
import type { Baseline } from './baseline.js';
import { excuse } from './baseline.js';
import type { Counterexample } from './context.js';
import type { RuleResult } from './result.js';
import { notRun } from './execute.js';
import type { Rule } from './rule.js';
import type { Setup, SetupDeadline } from './setup.js';
import type { PayloadTemplatesInput } from './templates.js';
import { type Selection, selectRules } from './select.js';
import { isFailing } from './verdict.js';
import { RUN_DEFAULTS, openSession } from './session.js';

export { RUN_DEFAULTS, UnreachableError, type WithRecord } from './session.js';

export type RunEvent =
  | { type: 'target'; baseUrl: string; embedded: boolean }
  | { type: 'start'; total: number; runId: string; seed: number }
  | { type: 'setup'; setup: Setup }
  | { type: 'rule'; result: RuleResult; done: number; total: number };

export interface RunOptions {
  /** The implementation under test; unset starts the embedded reference server. */
  baseUrl?: string;
  auth?: Partial<AuthSettings>;
  fixtures?: FixturesConfig;
  /** Payload templates per request kind (`payloads:`): bodies the implementation accepts, the base of every payload of that kind. */
  payloads?: PayloadTemplatesInput;
  /** Where business.business_contract_identifier sits in the account payload (default `business.business_contract_identifier`). */
  contractPath?: string;
  concurrency?: number;
  seed?: number;
  numRuns?: number;
  timeoutMs?: number;
  idPrefix?: string;
  rateLimit?: number;
  /** Extra headers and TLS trust for a staging target (HTTPS_PROXY / HTTP_PROXY / NO_PROXY are read from the environment). */
  transport?: TransportOptions;
  selection?: Selection;
  bail?: boolean;
  strict?: boolean;
  /** Keep every exchange of every rule in full in the report (default: passing rules keep one line each). */
  fullTranscripts?: boolean;
  /** Rule ids or globs whose skips are accepted: skipped MUST rules matching them leave the run complete. */
  allowSkip?: string[];
  /** Replays one property case (with `seed`). */
  replayPath?: string;
  /**
   * Overall deadline of the run (ms): rules still running then, and rules not started yet, are
   * reported as not judged (error) with the reason; the report is still complete.
   */
  maxTimeMs?: number;
  /** Set by the runner from maxTimeMs: when the setup chain must be done by. */
  deadline?: SetupDeadline;
  /** How long setup steps keep retrying a process request the §8 limit refused (default 30 s). */
  processRetryBudgetMs?: number;
  baseline?: Baseline;
  /** The rules to choose from (the entry point, src/conformance.ts, defaults to every suite). */
  rules?: readonly Rule[];
  runId?: string;
  /** Builds the command that replays one rule; the CLI supplies one that mirrors its own flags. */
  replayCommand?: (ruleId: string, seed: number, counterexample?: Counterexample) => string;
  onEvent?: (event: RunEvent) => void;
}

/**
 * The order rules are started in (results keep the suite order). Property and model-based rules
 * make tens of requests one after another; started last, they alone would set the length of the
 * run against a slow target, so they start first and the short rules fill the other workers.
 */
function longestFirst(rules: readonly Rule[]): number[] {
  const indices = rules.map((_, i) => i);
  return [...indices.filter((i) => rules[i].property), ...indices.filter((i) => !rules[i].property)];
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
    let next = 0;
    let expired: string | undefined;
    const deadline = limit
      ? setTimeout(
          () => {
            expired = limit.words;
            session.stop(expired);
          },
          Math.max(0, limit.at - Date.now()),
        )
      : undefined;
    const worker = async () => {
      while (next < order.length) {
        const index = order[next++];
        const rule = rules[index];
        const ran = expired
          ? notRun(rule, {
              verdict: 'error',
              error_kind: 'timeout',
              reason: `not judged: ${expired} before the rule started`,
            })
          : bailed
            ? notRun(rule, { verdict: 'skip', reason: 'not run: --bail stopped the run after a MUST failure' })
            : await session.run(rule);
        // Only a failing or errored result carries the command that replays it.
        const result = isFailing(ran.verdict) ? ({ ...ran, replay: session.replay(ran) } as RuleResult) : ran;
        results[index] = result;
        if (
          options.bail &&
          isFailing(result.verdict) &&
          rule.level === 'MUST' &&
          !excuse(options.baseline, rule.id, result.reason)
        )
          bailed = true;
        options.onEvent?.({ type: 'rule', result, done: ++done, total: rules.length });
      }
    };
    try {
      await Promise.all(
        Array.from({ length: Math.min(options.concurrency ?? RUN_DEFAULTS.concurrency, rules.length) }, worker),
      );
    } finally {
      clearTimeout(deadline);
    }
    return session.record(results, { bailed });
  } finally {
    await session.close();
  }
}

const formatSeconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;
