/**
 * What a run is asked to do (RunOptions), what it tells as it goes (RunEvent) and the defaults. Its own
 * module so that the runner, the session and the applications share it without importing each other.
 */
import type { AuthSettings } from '../auth/token.js';
import type { PayloadTemplatesInput } from '../config/payloads.js';
import type { FixturesConfig } from '../config/schema.js';
import type { TransportOptions } from '../http/transport.js';
import type { Baseline } from './baseline.js';
import type { EmbeddedTarget } from './connection.js';
import type { Counterexample, RuleResult } from './result.js';
import type { Rule } from './rule.js';
import type { Selection } from './select.js';
import type { Setup, SetupDeadline } from './setup.js';

export const RUN_DEFAULTS = {
  concurrency: 8,
  numRuns: 25,
  timeoutMs: 10_000,
  idPrefix: 'cf',
  contractPath: 'business.business_contract_identifier',
};

export type RunEvent =
  | { type: 'target'; baseUrl: string; embedded: boolean }
  | { type: 'start'; total: number; runId: string; seed: number }
  | { type: 'setup'; setup: Setup }
  | { type: 'rule'; result: RuleResult; done: number; total: number };

export interface RunOptions {
  /** The implementation under test; unset starts the embedded target (`startEmbedded`). */
  baseUrl?: string;
  /**
   * Starts the target to use when no base URL is given. The application hands it in (the library and
   * the CLI hand in the reference server, app/embedded.ts); the engine never imports a server.
   */
  startEmbedded?: () => Promise<EmbeddedTarget>;
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
  /** The rules to choose from (the entry point, app/conformance.ts, defaults to every suite). */
  rules?: readonly Rule[];
  runId?: string;
  /** Builds the command that replays one rule; the CLI supplies one that mirrors its own flags. */
  replayCommand?: (ruleId: string, seed: number, counterexample?: Counterexample) => string;
  onEvent?: (event: RunEvent) => void;
}
