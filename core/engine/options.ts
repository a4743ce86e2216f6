/**
 * What a run is asked to do (RunOptions), what it tells as it goes (RunEvent) and the defaults. Its own
 * module so that the runner, the session and the applications share it without importing each other.
 */
import type { Baseline } from './baseline.js';
import type { TargetOptions } from './connection.js';
import type { DeclaredLimits } from './limits.js';
import type { Counterexample, RuleResult } from './result.js';
import type { Rule } from './rule.js';
import type { Selection } from './select.js';
import type { Setup, SetupDeadline } from './setup.js';
import type { Concurrency } from './width.js';

export const RUN_DEFAULTS = {
  /** Rules at once: 8, more while the target answers slowly (width.ts). */
  concurrency: 'auto' as Concurrency,
  /** Runs again of a rule that ended in error because an exchange got no response. */
  retries: 1,
  numRuns: 25,
  timeoutMs: 10_000,
  idPrefix: 'cf',
  contractPath: 'business.business_contract_identifier',
};

/**
 * A run of more cases per property than the default (a nightly's `--num-runs 400`): it holds much
 * from the start, so memory binds it before time does (app/cli/memory.ts, app/embedded.ts).
 */
export const manyCases = (numRuns: number | undefined): boolean =>
  (numRuns ?? RUN_DEFAULTS.numRuns) > RUN_DEFAULTS.numRuns;

export type RunEvent =
  | { type: 'target'; baseUrl: string; embedded: boolean }
  | { type: 'start'; total: number; runId: string; seed: number }
  | { type: 'setup'; setup: Setup }
  | { type: 'rule'; result: RuleResult; done: number; total: number };

export interface RunOptions extends TargetOptions {
  /** Rules at once: a number, or "auto" (the default: 8, up to 32 against a slow target; width.ts). */
  concurrency?: Concurrency;
  seed?: number;
  numRuns?: number;
  timeoutMs?: number;
  idPrefix?: string;
  selection?: Selection;
  bail?: boolean;
  strict?: boolean;
  /** Keep every exchange of every rule in full in the report (default: passing rules keep one line each). */
  fullTranscripts?: boolean;
  /** Rule ids or globs whose skips are accepted: skipped MUST rules matching them leave the run complete. */
  allowSkip?: string[];
  /**
   * Accept the skips of every endpoint the target answers as not implemented (501, 405, an
   * undocumented 404; core/engine/not-implemented.ts): a partial implementation can then be
   * conformant for what it implements. Without it such MUST skips leave the run incomplete.
   */
  partial?: boolean;
  /**
   * Limits the target has where the spec shows none (`limits:` in the config, core/engine/limits.ts):
   * generated values stay inside them, and a refusal at one is no discovery.
   */
  limits?: DeclaredLimits;
  /** Replays one property case (with `seed`). */
  replayPath?: string;
  /**
   * Overall deadline of the run (ms): rules still running then, and rules not started yet, are
   * reported as not judged (error) with the reason; the report is still complete.
   */
  maxTimeMs?: number;
  /**
   * Ends the run early when aborted (the CLI aborts it on SIGINT or SIGTERM), its reason what
   * interrupted the run (a signal's name, or a RunInterrupted): no rule starts after it, rules still
   * running end at once as not judged (their requests are aborted), and the record says the run was
   * interrupted (exit code 130).
   */
  interrupt?: AbortSignal;
  /** Set by the runner from maxTimeMs: when the setup chain must be done by. */
  deadline?: SetupDeadline;
  /**
   * How many times a rule that ended in error because an exchange got no response (reset, timeout,
   * refused) is run again, with fresh identifiers (default 1; 0: never). A rule that passes on a
   * later run is reported as flaky. A fail is never run again.
   */
  retries?: number;
  /** How long setup steps keep retrying a process request the §8 limit refused (default 30 s). */
  processRetryBudgetMs?: number;
  baseline?: Baseline;
  /** The rules to choose from (the entry point, app/conformance.ts, defaults to every suite). */
  rules?: readonly Rule[];
  runId?: string;
  /** Builds the command that replays one rule; the CLI supplies one that mirrors its own flags. */
  replayCommand?: (ruleId: string, seed: number, counterexample?: Counterexample) => string;
  onEvent?: (event: RunEvent) => void;
}
