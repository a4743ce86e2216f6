/**
 * What a run yields: every rule's result with the facts of the run around them (target, seed,
 * setup chain, identifiers created, HTTP counts). The engine returns it; the report is built from
 * it (core/report/build.ts), so the engine needs nothing of the report.
 */
import type { Silence } from '../http/answers.js';
import type { Exchange } from '../http/exchange.js';
import type { Baseline } from './baseline.js';
import type { CreatedIdentifiers } from './ids.js';
import type { NotImplementedEntry } from './not-implemented.js';
import type { RuleResult } from './result.js';
import type { Selection } from './select.js';
import type { StepRecord } from './setup.js';
import type { Cause } from './verdict.js';

export interface RunRecord {
  tool: { name: string; version: string };
  run: {
    id: string;
    seed: number;
    numRuns: number;
    /** Rules at once: the fixed width, or with auto the most the run had. */
    concurrency: number;
    /**
     * Set when the width followed the target (width.ts): whether it went back to its base, the
     * latency it saw, and whether a busy runner kept it from widening.
     */
    concurrencyAuto?: { backedOff: boolean; medianLatencyMs?: number; runnerBusy: boolean };
    timeoutMs: number;
    strict: boolean;
    startedAt: Date;
    finishedAt: Date;
    selection: Selection;
    bailed: boolean;
    /**
     * `traffic`: exchanges someone else made, judged (a proxy session, check-traffic): no seed, no
     * property runs, and a check the traffic held nothing for is skipped by nature, not by --allow-skip.
     */
    kind?: 'traffic';
  };
  /** configDigest: of the settings that decide what is judged there, no secret in it (core/config/digest.ts). */
  target: { baseUrl: string; embedded: boolean; auth: 'token' | 'api_key'; configDigest?: string };
  /** Each rule's result as the engine returned it; the report annotates it and trims its transcript. */
  results: RuleResult[];
  /** The setup chain's steps, the causes it found and its exchanges. */
  setup?: { steps: StepRecord[]; causes: Cause[]; transcript: Exchange[] };
  /** Keep every exchange in full (--full-transcripts); by default passing rules keep one line each. */
  fullTranscripts?: boolean;
  /** Globs of rules whose skips are accepted (--allow-skip). */
  allowSkip?: readonly string[];
  /** Accept the skips of every endpoint found not implemented (--partial, run.partial). */
  partial?: boolean;
  /** The endpoints the target answered as not implemented (501, 405, an undocumented 404), first answer each. */
  notImplemented?: NotImplementedEntry[];
  baseline?: Baseline;
  /** Set when the caller interrupted the run (RunOptions.interrupt): by what, and in words. */
  interrupted?: { by: string; reason: string };
  /** Why no rule could run (unreachable target, refused credentials): exit code 3. */
  aborted?: string;
  created: CreatedIdentifiers;
  http: {
    requests: number;
    failures: number;
    token_renewals: number;
    token_refused_mid_run: number;
    /** Why renewing the token stopped for the rest of the run (core/auth/token-source.ts), once it did. */
    token_renewal_stopped?: string;
    /** 429s per endpoint: answered, and waited out and sent again. */
    rate_limited?: Record<string, { answered: number; absorbed: number }>;
    resent_after_reset?: number;
  };
  /** Set when the target stopped answering mid-run (core/http/answers.ts); the report names it once. */
  silence?: Silence;
}
