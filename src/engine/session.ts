/**
 * A session: one target, authenticated and checked, on which rules run one at a time. The runner
 * schedules rules over a session; the vitest adapter makes each rule a test over one.
 */
import { randomInt } from 'node:crypto';
import type { TokenSource } from '../auth/token-source.js';
import { AuthError } from '../auth/token.js';
import { Transcript } from '../http/client.js';
import { packageVersion } from '../package-root.js';
import { type BuildInput, buildReport } from '../report/build.js';
import type { Report } from '../report/schema.js';
import { Api } from './api.js';
import { UnreachableError, connect } from './connection.js';
import { type Counterexample, createContext } from './context.js';
import { type RuleOutcome, executeRule } from './execute.js';
import { Given } from './given.js';
import { IdRegistry, Ids, newRunId } from './ids.js';
import { missingNeed } from './needs.js';
import type { Rule } from './rule.js';
import type { RunOptions } from './run.js';

export { UnreachableError };

/** What runConformance attaches to an UnreachableError or AuthError: the report of the aborted run. */
export type WithReport<E extends Error> = E & { report?: Report };

export const RUN_DEFAULTS = { concurrency: 8, numRuns: 25, timeoutMs: 10_000, idPrefix: 'cf', contractPath: 'business.business_contract_identifier' };

export interface Session {
  /** The target, with any credentials in it redacted. */
  readonly baseUrl: string;
  readonly embedded: boolean;
  readonly runId: string;
  readonly seed: number;
  /** Runs one rule (or skips it when a fixture it needs is missing). */
  run(rule: Rule): Promise<RuleOutcome>;
  /** The command that replays a failing rule, redacted. */
  replay(rule: Rule, outcome: RuleOutcome): string;
  /** The report of the rules run so far. */
  report(results: BuildInput['results'], extra?: { bailed?: boolean }): Report;
  close(): Promise<void>;
}

function defaultReplay(baseUrl: string | undefined) {
  return (ruleId: string, seed: number, counterexample?: Counterexample) =>
    ['npx conformance', ...(baseUrl ? [`--base-url ${baseUrl}`] : []), `--rule ${ruleId}`, `--seed ${seed}`, ...(counterexample ? [`--path ${counterexample.path}`] : [])].join(' ');
}

/**
 * Starts the embedded target when no base URL is given, authenticates, and checks that the target
 * answers. An unreachable target or refused credentials throw UnreachableError / AuthError with the
 * report of the aborted run attached (exit code 3).
 */
export async function openSession(options: RunOptions = {}): Promise<Session> {
  const startedAt = new Date();
  const concurrency = options.concurrency ?? RUN_DEFAULTS.concurrency;
  const timeoutMs = options.timeoutMs ?? RUN_DEFAULTS.timeoutMs;
  const numRuns = options.numRuns ?? RUN_DEFAULTS.numRuns;
  const seed = options.seed ?? randomInt(2 ** 31);
  const runId = options.runId ?? newRunId();

  const connection = await connect({
    baseUrl: options.baseUrl,
    auth: options.auth,
    fixtures: options.fixtures,
    timeoutMs,
    connections: Math.max(2, concurrency * 2),
    rateLimit: options.rateLimit,
    transport: options.transport,
  });
  const { redactor, http: client, fixtures, auth, embedded, close } = connection;
  try {
    const baseUrl = redactor.text(connection.baseUrl);
    options.onEvent?.({ type: 'target', baseUrl, embedded });
    const registry = new IdRegistry(options.idPrefix ?? RUN_DEFAULTS.idPrefix, runId);
    const contractPath = options.contractPath ?? RUN_DEFAULTS.contractPath;
    const replay = options.replayCommand ?? defaultReplay(options.baseUrl);
    const runAbort = new AbortController();

    const report = (results: BuildInput['results'], extra: { bailed?: boolean; aborted?: string } = {}) =>
      buildReport({
        tool: { name: 'data-import-conformance', version: packageVersion() },
        run: { id: runId, seed, numRuns, concurrency, timeoutMs, strict: options.strict ?? false, startedAt, finishedAt: new Date(), selection: options.selection ?? {}, bailed: extra.bailed ?? false },
        target: { baseUrl, embedded, auth: auth.token ? 'token' : 'api_key' },
        results,
        baseline: options.baseline,
        ...(extra.aborted ? { aborted: extra.aborted } : {}),
        created: registry.created,
        http: { ...client.stats, token_renewals: connection.tokens?.stats.renewals ?? 0, token_refused_mid_run: connection.tokens?.stats.refusedMidRun ?? 0 },
      });

    let source: TokenSource;
    try {
      source = await connection.authenticate();
    } catch (error) {
      if (error instanceof UnreachableError || error instanceof AuthError) (error as WithReport<typeof error>).report = report([], { aborted: error.message });
      throw error;
    }

    return {
      baseUrl,
      embedded,
      runId,
      seed,
      async run(rule) {
        const missing = missingNeed(rule.needs ?? [], fixtures.config);
        if (missing) return { verdict: 'skip', reason: `needs ${missing.describe}: set ${missing.key}`, skipKey: missing.key, observations: [], transcript: [], durationMs: 0 };
        const transcript = new Transcript();
        const ruleTimeout = Math.max(120_000, timeoutMs * 30) * (rule.property ? Math.max(1, numRuns / 10) : 1);
        return executeRule(
          rule,
          async (state, signal) => {
            const api = new Api(client, source, transcript);
            const ids = new Ids(registry);
            const given = new Given(api, ids, fixtures, contractPath, signal, options.processRetryBudgetMs);
            await rule.check(createContext({ rule, api, given, ids, fixtures, property: { numRuns, seed, path: options.replayPath }, contractPath, signal }, state));
          },
          () => transcript.exchanges,
          runAbort.signal,
          ruleTimeout,
          redactor,
        );
      },
      replay: (rule, outcome) => redactor.text(replay(rule.id, seed, outcome.counterexample)),
      report,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

export type { Counterexample };
