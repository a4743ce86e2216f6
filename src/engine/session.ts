/**
 * A session: one target, authenticated and checked, on which rules run one at a time. The runner
 * schedules rules over a session; the vitest adapter makes each rule a test over one.
 */
import { randomInt } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { TokenSource } from '../auth/token-source.js';
import { AuthError } from '../auth/token.js';
import { Transcript } from '../http/client.js';
import { packageVersion } from '../package-root.js';
import { redactDeep } from '../http/redact-deep.js';
import { Api } from './api.js';
import { UnreachableError, connect } from './connection.js';
import { type Counterexample, createContext } from './context.js';
import { executeRule, notRun } from './execute.js';
import type { RuleResult } from './result.js';
import { Given } from './given.js';
import { type Setup, establishSetup } from './setup.js';
import { IdRegistry, Ids, newRunId } from './ids.js';
import type { RunRecord } from './record.js';
import { missingNeed } from './needs.js';
import type { Rule } from './rule.js';
import type { RunOptions } from './run.js';

export { UnreachableError };

/** What the engine attaches to an UnreachableError or AuthError: the record of the aborted run. */
export type WithRecord<E extends Error> = E & { record?: RunRecord };

export const RUN_DEFAULTS = {
  concurrency: 8,
  numRuns: 25,
  timeoutMs: 10_000,
  idPrefix: 'cf',
  contractPath: 'business.business_contract_identifier',
};

export interface Session {
  /** The target, with any credentials in it redacted. */
  readonly baseUrl: string;
  readonly embedded: boolean;
  readonly runId: string;
  readonly seed: number;
  /** Runs one rule (or skips it when a fixture it needs is missing). */
  run(rule: Rule): Promise<RuleResult>;
  /** The command that replays a failing rule, redacted. */
  replay(result: RuleResult): string;
  /** What the setup chain established or found refused, before any rule. */
  readonly setup: Setup;
  /** Stops the run: rules still running end at once as not judged, with `reason`. */
  stop(reason: string): void;
  /** The record of the rules run so far, with the facts of the run around them. */
  record(results: RunRecord['results'], extra?: { bailed?: boolean }): RunRecord;
  close(): Promise<void>;
}

function defaultReplay(baseUrl: string | undefined) {
  return (ruleId: string, seed: number, counterexample?: Counterexample) =>
    [
      'npx conformance',
      ...(baseUrl ? [`--base-url ${baseUrl}`] : []),
      `--rule ${ruleId}`,
      `--seed ${seed}`,
      ...(counterexample ? [`--path ${counterexample.path}`] : []),
    ].join(' ');
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
    payloads: options.payloads,
    contractPath: options.contractPath,
    timeoutMs,
    connections: Math.max(2, concurrency * 2),
    rateLimit: options.rateLimit,
    transport: options.transport,
  });
  const { redactor, http: client, preconditions, auth, embedded, close } = connection;
  try {
    const baseUrl = redactor.text(connection.baseUrl);
    options.onEvent?.({ type: 'target', baseUrl, embedded });
    const registry = new IdRegistry(options.idPrefix ?? RUN_DEFAULTS.idPrefix, runId);
    const contractPath = options.contractPath ?? RUN_DEFAULTS.contractPath;
    const replay = options.replayCommand ?? defaultReplay(options.baseUrl);
    const runAbort = new AbortController();
    setMaxListeners(1000, runAbort.signal); // each running rule listens for the run being stopped
    let setupFound: Setup | undefined;
    const setupExchanges: import('../http/exchange.js').Exchange[] = [];

    // Every result was redacted as it was returned; the rest of the record is here, so that no
    // secret of the run reaches a file or the console.
    const record = (results: RunRecord['results'], extra: { bailed?: boolean; aborted?: string } = {}): RunRecord => ({
      ...redactDeep(
        {
          tool: { name: 'data-import-conformance', version: packageVersion() },
          run: {
            id: runId,
            seed,
            numRuns,
            concurrency,
            timeoutMs,
            strict: options.strict ?? false,
            startedAt,
            finishedAt: new Date(),
            selection: options.selection ?? {},
            bailed: extra.bailed ?? false,
          },
          target: { baseUrl, embedded, auth: auth.token ? 'token' : 'api_key' } as const,
          setup: setupFound
            ? { steps: setupFound.steps, causes: setupFound.causes, transcript: setupExchanges }
            : undefined,
          allowSkip: options.allowSkip,
          fullTranscripts: options.fullTranscripts,
          baseline: options.baseline,
          ...(extra.aborted ? { aborted: extra.aborted } : {}),
          created: registry.created,
          http: {
            ...client.stats,
            token_renewals: connection.tokens?.stats.renewals ?? 0,
            token_refused_mid_run: connection.tokens?.stats.refusedMidRun ?? 0,
          },
        },
        redactor,
      ),
      results,
    });

    // §5.1 rules exercise the mutation themselves (with keys of their own), only when the run uses it.
    const tokenMutation = auth.token
      ? undefined
      : {
          path: /^https?:\/\//i.test(auth.graphqlUrl) ? undefined : `/${auth.graphqlUrl.replace(/^\/+/, '')}`,
          mutation: auth.mutation,
          tokenPath: auth.tokenPath,
        };
    let source: TokenSource;
    try {
      source = await connection.authenticate();
    } catch (error) {
      if (error instanceof UnreachableError || error instanceof AuthError)
        (error as WithRecord<typeof error>).record = record([], { aborted: error.message });
      throw error;
    }

    // The setup chain, once: a refused step becomes one cause shared by every rule that needs it.
    const setupTranscript = new Transcript();
    const setup = await establishSetup(
      new Given(
        new Api(client, source, setupTranscript),
        new Ids(registry),
        preconditions,
        contractPath,
        runAbort.signal,
        options.processRetryBudgetMs,
      ),
      preconditions,
      options.deadline,
    );
    setupExchanges.push(...setupTranscript.exchanges);
    setupFound = setup;

    return {
      baseUrl,
      embedded,
      runId,
      seed,
      setup,
      async run(rule) {
        const missing = missingNeed(rule.needs ?? [], preconditions.config, preconditions.payloads);
        if (missing)
          return notRun(rule, {
            verdict: 'skip',
            reason: `needs ${missing.describe}: set ${missing.key}`,
            skip_key: missing.key,
          });
        const transcript = new Transcript();
        const ruleTimeout = Math.max(120_000, timeoutMs * 30) * (rule.property ? Math.max(1, numRuns / 10) : 1);
        const result = await executeRule(
          rule,
          async (state, signal) => {
            const api = new Api(client, source, transcript);
            const ids = new Ids(registry);
            const given = new Given(api, ids, preconditions, contractPath, signal, options.processRetryBudgetMs, setup);
            await rule.check(
              createContext(
                {
                  rule,
                  api,
                  given,
                  ids,
                  preconditions,
                  property: { numRuns, seed, path: options.replayPath },
                  contractPath,
                  signal,
                  tokenMutation,
                },
                state,
              ),
            );
          },
          () => transcript.exchanges,
          runAbort.signal,
          ruleTimeout,
          redactor,
        );
        // Progress events carry the result too (console, library callers): redacted like the report.
        return redactDeep(result, redactor);
      },
      replay: (result) => redactor.text(replay(result.id, seed, result.counterexample)),
      stop: (reason) => runAbort.abort(new Error(reason)),
      record,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

export type { Counterexample };
