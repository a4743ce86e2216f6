/**
 * `runConformance`: aims the rules at one implementation and returns the report. The CLI is a thin
 * layer over it; library users call it directly.
 */
import type { TransportOptions } from '../http/transport.js';
import type { AuthSettings } from '../auth/token.js';
import type { FixturesConfig } from '../config/schema.js';
import { ConfigError } from '../config/errors.js';
import type { BuildInput } from '../report/build.js';
import type { Report } from '../report/schema.js';
import type { Baseline } from './baseline.js';
import { excuse } from './baseline.js';
import type { Counterexample } from './context.js';
import type { RuleOutcome } from './execute.js';
import type { Rule } from './rule.js';
import { type Selection, selectRules } from './select.js';
import { RUN_DEFAULTS, openSession } from './session.js';

export { RUN_DEFAULTS, UnreachableError, type WithReport } from './session.js';

export type RunEvent =
  | { type: 'target'; baseUrl: string; embedded: boolean }
  | { type: 'start'; total: number; runId: string; seed: number }
  | { type: 'rule'; rule: Rule; outcome: RuleOutcome; done: number; total: number };

export interface RunOptions {
  /** The implementation under test; unset starts the embedded reference server. */
  baseUrl?: string;
  auth?: Partial<AuthSettings>;
  fixtures?: FixturesConfig;
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
  /** Replays one property case (with `seed`). */
  replayPath?: string;
  /** How long setup steps keep retrying a process request the §8 limit refused (default 30 s). */
  processRetryBudgetMs?: number;
  baseline?: Baseline;
  /** The rules to choose from (default: every suite). */
  rules?: Rule[];
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

export async function runConformance(options: RunOptions = {}): Promise<Report> {
  const candidates = options.rules ?? (await import('../../suites/index.js')).allRules;
  const { rules, unmatched } = selectRules(candidates, options.selection ?? {});
  if (unmatched.length) throw new ConfigError(`Nothing matches ${unmatched.join(', ')} (see "conformance list").`);

  const session = await openSession(options);
  try {
    const results: BuildInput['results'] = new Array(rules.length);
    let bailed = false;
    let done = 0;
    options.onEvent?.({ type: 'start', total: rules.length, runId: session.runId, seed: session.seed });
    const order = longestFirst(rules);
    let next = 0;
    const worker = async () => {
      while (next < order.length) {
        const index = order[next++];
        const rule = rules[index];
        const outcome: RuleOutcome = bailed
          ? { verdict: 'skip', reason: 'not run: --bail stopped the run after a MUST failure', observations: [], transcript: [], durationMs: 0 }
          : await session.run(rule);
        const failing = outcome.verdict === 'fail' || outcome.verdict === 'error';
        results[index] = { rule, outcome, replay: failing ? session.replay(rule, outcome) : undefined };
        if (options.bail && failing && rule.level === 'MUST' && !excuse(options.baseline, rule.id, outcome.reason)) bailed = true;
        options.onEvent?.({ type: 'rule', rule, outcome, done: ++done, total: rules.length });
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency ?? RUN_DEFAULTS.concurrency, rules.length) }, worker));
    return session.report(results, { bailed });
  } finally {
    await session.close();
  }
}

