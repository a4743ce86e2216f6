/**
 * A session: one target, authenticated and checked, on which rules run one at a time. The runner
 * schedules rules over a session; the vitest adapter makes each rule a test over one.
 *
 * Opening one is a pipeline of four named steps: connect (the target, credentials, redactor, client),
 * authenticate (the first token, the preflight), set up (the setup chain, once) and run (a rule
 * runner over all of it). The run's record is kept beside them from the first step on, so an
 * aborted run still has one.
 */
import { randomInt } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { TokenSource } from '../auth/token-source.js';
import { AuthError } from '../auth/token.js';
import { targetConfigDigest } from '../config/digest.js';
import { Transcript } from '../http/client.js';
import type { Exchange } from '../http/exchange.js';
import { redactDeep } from '../http/redact-deep.js';
import { packageVersion } from '../spec/package-root.js';
import type { EndpointId } from '../spec/index.js';
import { Api, type PacingContext } from './api.js';
import { seededRandom } from '../http/pacing.js';
import { type Connection, UnreachableError, connect } from './connection.js';
import { createContext } from './context.js';
import { executeRule, notRun } from './execute.js';
import { historyTells } from './drivers.js';
import { Given } from './given.js';
import { type HistoryInvariant, RunHistory } from './history.js';
import { IdRegistry, Ids, newRunId } from './ids.js';
import { RunDeadline, interruptionOf } from './interrupt.js';
import { missingNeed } from './needs.js';
import { NotImplementedLog } from './not-implemented.js';
import { RUN_DEFAULTS, type RunOptions } from './options.js';
import type { RunRecord } from './record.js';
import type { Counterexample, RuleResult } from './result.js';
import type { Rule } from './rule.js';
import type { Setup } from './setup.js';
import { establishSetup } from './setup-chain.js';
import { transientCause } from './transient.js';
import { PROPERTY_KEEP_WHOLE, brief } from './transcripts.js';
import { type Concurrency, RuleWidth, baseWidth, widest } from './width.js';

export { UnreachableError };
export type { Counterexample };

/** What the engine attaches to an UnreachableError or AuthError: the record of the aborted run. */
export type WithRecord<E extends Error> = E & { record?: RunRecord };

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
  /** How many rules the run may have at once: fixed, or following the target (width.ts). */
  readonly width: RuleWidth;
  /**
   * Whether a rule running now read an answer larger than LARGE_BODY_BYTES (core/http/large-bodies.ts):
   * it may keep it parsed until it ends, and the run starts no other rule meanwhile (run.ts).
   */
  holdsLargeBodies(): boolean;
  /** The run's deadline: rules still running end at once as not judged (timeout), with `reason`. */
  stop(reason: string): void;
  /** The record of the rules run so far, with the facts of the run around them. */
  record(
    results: RunRecord['results'],
    extra?: { bailed?: boolean; interrupted?: RunRecord['interrupted'] },
  ): RunRecord;
  close(): Promise<void>;
}

/** The run's settings with every default filled in. */
interface Settings {
  /** Rules at once (`--concurrency`): a number, or "auto" (width.ts). */
  concurrency: Concurrency;
  /** Cases of a property at once, and the width pacing messages name: the fixed width or the auto base. */
  caseWidth: number;
  timeoutMs: number;
  numRuns: number;
  seed: number;
  runId: string;
  contractPath: string;
}

function settingsOf(options: RunOptions): Settings {
  return {
    concurrency: options.concurrency ?? RUN_DEFAULTS.concurrency,
    caseWidth: baseWidth(options.concurrency ?? RUN_DEFAULTS.concurrency),
    timeoutMs: options.timeoutMs ?? RUN_DEFAULTS.timeoutMs,
    numRuns: options.numRuns ?? RUN_DEFAULTS.numRuns,
    seed: options.seed ?? randomInt(2 ** 31),
    runId: options.runId ?? newRunId(),
    contractPath: options.contractPath ?? RUN_DEFAULTS.contractPath,
  };
}

/** Step 1: the target, its credentials and client; the embedded target when no base URL is given. */
function connectTo(options: RunOptions, settings: Settings, history: RunHistory): Promise<Connection> {
  return connect({
    baseUrl: options.baseUrl,
    startEmbedded: options.startEmbedded,
    auth: options.auth,
    fixtures: options.fixtures,
    payloads: options.payloads,
    contractPath: options.contractPath,
    timeoutMs: settings.timeoutMs,
    connections: Math.max(2, widest(settings.concurrency) * 2),
    rateLimit: options.rateLimit,
    transport: options.transport,
    redactor: options.redactor,
    // The run's history reads every exchange as it completes, beside whatever else observes them —
    // but for a near miss of a key sent on purpose, which a server may hold as the same key
    // (docs/freedoms.md): its answer is the near-miss rule's to judge, not another subject's fact.
    onExchange: (exchange, startedAt, origin, sender, response, requestFields) => {
      if (sender?.nearMiss === undefined) history.observe(exchange, startedAt, Date.now(), response, requestFields);
      options.onExchange?.(exchange, startedAt, origin, sender, response, requestFields);
    },
  });
}

const medianOf = (connection: Connection) => {
  const median = connection.http.latency.median();
  return median === undefined ? undefined : Math.round(median);
};

/** The run's record as it stands: redacted as it is made, so no secret of the run reaches output. */
class Recorder {
  private readonly startedAt = new Date();
  /** Set once rules may run: the record names the width the run had (the most rules at once, when auto). */
  width?: RuleWidth;
  setup?: Setup;
  readonly setupExchanges: Exchange[] = [];
  /** The endpoints found not implemented, by the setup chain and the rules (not-implemented.ts). */
  readonly notImplemented: NotImplementedLog;

  constructor(
    private readonly connection: Connection,
    private readonly registry: IdRegistry,
    private readonly options: RunOptions,
    private readonly settings: Settings,
  ) {
    const suppliers = connection.preconditions.config.import_suppliers;
    this.notImplemented = new NotImplementedLog(Object.values(suppliers ?? {}).filter((c) => typeof c === 'string'));
  }

  record(
    results: RunRecord['results'],
    extra: { bailed?: boolean; aborted?: string; interrupted?: RunRecord['interrupted'] } = {},
  ): RunRecord {
    const { connection, options, settings } = this;
    const silence = connection.http.answers.silence();
    return {
      ...redactDeep(
        {
          tool: { name: 'data-import-conformance', version: packageVersion() },
          run: {
            id: settings.runId,
            seed: settings.seed,
            numRuns: settings.numRuns,
            // Auto: the most rules the run had at once (width.ts), 8 when none ran yet.
            concurrency:
              settings.concurrency === 'auto'
                ? Math.max(this.width?.peak ?? 0, baseWidth('auto'))
                : settings.concurrency,
            ...(settings.concurrency === 'auto'
              ? {
                  concurrencyAuto: {
                    backedOff: this.width?.pushback ?? false,
                    medianLatencyMs: medianOf(connection),
                    runnerBusy: this.width?.heldBack ?? false,
                  },
                }
              : {}),
            timeoutMs: settings.timeoutMs,
            strict: options.strict ?? false,
            startedAt: this.startedAt,
            finishedAt: new Date(),
            selection: options.selection ?? {},
            bailed: extra.bailed ?? false,
          },
          target: {
            baseUrl: connection.redactor.text(connection.baseUrl),
            embedded: connection.embedded,
            auth: connection.auth.token ? 'token' : 'api_key',
            configDigest: targetConfigDigest(
              { ...options, headerNames: Object.keys(options.transport?.headers ?? {}) },
              connection.embedded,
            ),
          } as const,
          setup: this.setup
            ? { steps: this.setup.steps, causes: this.setup.causes, transcript: this.setupExchanges }
            : undefined,
          allowSkip: options.allowSkip,
          ...(options.partial ? { partial: true } : {}),
          notImplemented: this.notImplemented.entries,
          fullTranscripts: options.fullTranscripts,
          baseline: options.baseline,
          ...(extra.aborted ? { aborted: extra.aborted } : {}),
          ...(extra.interrupted ? { interrupted: extra.interrupted } : {}),
          created: this.registry.created,
          http: {
            ...connection.http.stats,
            token_renewals: connection.tokens?.stats.renewals ?? 0,
            token_refused_mid_run: connection.tokens?.stats.refusedMidRun ?? 0,
            ...(connection.tokens?.stopped ? { token_renewal_stopped: connection.tokens.stopped } : {}),
          },
        },
        connection.redactor,
      ),
      results,
      // Outside redactDeep: its exchanges are the results' own (the report matches them by identity),
      // recorded redacted by the client like every exchange.
      ...(silence ? { silence } : {}),
    };
  }
}

/** Step 2: the first token and the preflight; refused or unreachable, the error carries the record. */
async function authenticate(connection: Connection, recorder: Recorder): Promise<TokenSource> {
  try {
    return await connection.authenticate();
  } catch (error) {
    if (error instanceof UnreachableError || error instanceof AuthError)
      (error as WithRecord<typeof error>).record = recorder.record([], { aborted: error.message });
    throw error;
  }
}

/** What the setup chain and every rule run over: the session's connection, token, identifiers and record. */
interface SessionParts {
  connection: Connection;
  tokens: TokenSource;
  registry: IdRegistry;
  recorder: Recorder;
  options: RunOptions;
  settings: Settings;
  /** Aborted when the run stops (its deadline, an interruption). */
  signal: AbortSignal;
  history: RunHistory;
  /** The transcripts of the rules running now. */
  running: Set<Transcript>;
}

/** Step 3: the setup chain, once; a refused step becomes one cause shared by every rule that needs it. */
async function setUp({
  connection,
  tokens,
  registry,
  recorder,
  options,
  settings,
  signal,
}: SessionParts): Promise<Setup> {
  const transcript = new Transcript(undefined, 'setup');
  const given = new Given({
    api: new Api(connection.http, tokens, transcript, {
      ...pacingOf(connection, options, settings),
      notImplemented: recorder.notImplemented,
      signal,
      // The setup chain waits out 429s as long as a rule would (one rule's time limit), within --max-time.
      until: waitingEnds(
        Date.now() + ruleTimeoutOf(settings.timeoutMs),
        ruleTimeoutOf(settings.timeoutMs),
        settings.timeoutMs,
        options,
      ),
    }),
    ids: new Ids(registry),
    preconditions: connection.preconditions,
    contractPath: settings.contractPath,
  });
  const setup = await establishSetup(given, connection.preconditions, options.deadline);
  // The findings are shown live (the `setup` event) before any record is made: redacted here, in
  // place, as the record would be, since Given throws these same causes into the rules.
  for (const cause of setup.causes) Object.assign(cause, redactDeep({ ...cause }, connection.redactor));
  for (const exchange of transcript.exchanges) recorder.setupExchanges.push(exchange);
  recorder.setup = setup;
  return setup;
}

/** The §5.1 mutation as the rules may exercise it (with keys of their own), only when the run uses it. */
function tokenMutationOf(connection: Connection) {
  const { auth } = connection;
  if (auth.token) return undefined;
  return {
    path: /^https?:\/\//i.test(auth.graphqlUrl) ? undefined : `/${auth.graphqlUrl.replace(/^\/+/, '')}`,
    mutation: auth.mutation,
    tokenPath: auth.tokenPath,
  };
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
 * How a rule's (or the setup chain's) calls are paced: the seeded jitter, the process retry budget,
 * and the facts a starved call names. A rule that needs the §8 limit provokes it on purpose: its own
 * process calls are sent raw (given.process still paces them).
 */
function pacingOf(connection: Connection, options: RunOptions, settings: Settings, rule?: Rule): PacingContext {
  const limit = connection.preconditions.config.concurrency_limit;
  return {
    random: seededRandom(settings.seed + (rule ? hashOf(rule.id) : 0)),
    ...(options.processRetryBudgetMs !== undefined ? { processBudgetMs: options.processRetryBudgetMs } : {}),
    ...(rule?.needs?.includes('concurrencyLimit') ? { deliberate: ['processAccount'] as const } : {}),
    concurrency: settings.caseWidth,
    ...(typeof limit === 'number' ? { concurrencyLimit: limit } : {}),
  };
}

/** When a rule stops waiting out 429s: one request's timeout before its own time limit, or before --max-time. */
function waitingEnds(ruleDeadline: number, ruleTimeout: number, timeoutMs: number, options: RunOptions) {
  const own = {
    at: ruleDeadline - timeoutMs,
    words: `the rule's time limit (${Math.round(ruleTimeout / 1000)} s, from --timeout)`,
  };
  const run = options.deadline && { at: options.deadline.at - timeoutMs, words: "the run's time limit (--max-time)" };
  return run && run.at < own.at ? run : own;
}

/** A rule's time limit (a property rule's grows with --num-runs): 30 request timeouts, at least 2 minutes. */
const ruleTimeoutOf = (timeoutMs: number) => Math.max(120_000, timeoutMs * 30);

const hashOf = (text: string) => [...text].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 0);

/** Step 4: runs one rule over the session (or skips it when a fixture it needs is missing). */
function ruleRunner({
  connection,
  tokens,
  registry,
  recorder,
  setup,
  options,
  settings,
  signal: runSignal,
  history: runHistory,
  running,
}: SessionParts & { setup: Setup }): (rule: Rule) => Promise<RuleResult> {
  const { http: client, preconditions, redactor } = connection;
  const { numRuns, seed, timeoutMs, contractPath } = settings;
  const tokenMutation = tokenMutationOf(connection);
  return async (rule) => {
    const missing = missingNeed(rule.needs ?? [], preconditions.config, preconditions.payloads);
    if (missing)
      return notRun(rule, {
        verdict: 'skip',
        reason: `needs ${missing.describe}: set ${missing.key}`,
        skip_key: missing.key,
      });
    const transcript = new Transcript(
      rule.property && !options.fullTranscripts ? { keep: PROPERTY_KEEP_WHOLE, brief } : undefined,
      rule.id,
    );
    const ruleTimeout = ruleTimeoutOf(timeoutMs) * (rule.property ? Math.max(1, numRuns / 10) : 1);
    const ruleDeadline = Date.now() + ruleTimeout;
    running.add(transcript);
    const result = await executeRule({
      rule,
      run: async (state, signal) => {
        const api = new Api(client, tokens, transcript, {
          ...pacingOf(connection, options, settings, rule),
          notImplemented: recorder.notImplemented,
          signal,
          until: waitingEnds(ruleDeadline, ruleTimeout, timeoutMs, options),
        });
        const ids = new Ids(registry);
        const given = new Given({ api, ids, preconditions, contractPath, setup });
        const property = {
          numRuns,
          seed,
          path: options.replayPath,
          concurrency: settings.caseWidth,
        };
        const retry = {
          times: options.retries ?? RUN_DEFAULTS.retries,
          cause: (error: unknown) => transientCause(error, transcript.exchanges),
        };
        const history = {
          contradictions: (invariant: HistoryInvariant) => runHistory.contradictions(invariant),
          get stats() {
            return runHistory.stats;
          },
          baseUrl: redactor.text(connection.baseUrl),
          // Numbered anew in this rule's transcript: the kept exchange's own seq is the client's.
          cite: ({ seq: _, ...exchange }: Exchange, step: string) => transcript.record({ ...exchange, step }).seq,
          notImplemented: (endpoint: EndpointId) =>
            recorder.notImplemented.entries.find((e) => e.endpoint === endpoint)?.status,
        };
        const parts = {
          rule,
          api,
          given,
          ids,
          preconditions,
          property,
          retry,
          contractPath,
          signal,
          tokenMutation,
          history,
          ...(options.limits ? { declaredLimits: options.limits } : {}),
        };
        await rule.check(createContext(parts, state));
      },
      transcript: () => transcript.exchanges,
      runSignal,
      timeoutMs: ruleTimeout,
      redactor,
      fullTranscripts: options.fullTranscripts,
    }).finally(() => running.delete(transcript));
    // Progress events carry the result too (console, library callers): redacted like the report.
    return redactDeep(result, redactor);
  };
}

/**
 * Connects, authenticates, sets up and returns the session. An unreachable target or refused
 * credentials throw UnreachableError / AuthError with the record of the aborted run attached (exit 3).
 */
export async function openSession(options: RunOptions = {}): Promise<Session> {
  const settings = settingsOf(options);
  const namespace = `${options.idPrefix ?? RUN_DEFAULTS.idPrefix}-${settings.runId}`;
  const history = new RunHistory(historyTells(), { ours: (ext) => ext.startsWith(namespace) });
  const connection = await connectTo(options, settings, history);
  try {
    const baseUrl = connection.redactor.text(connection.baseUrl);
    options.onEvent?.({ type: 'target', baseUrl, embedded: connection.embedded });
    const registry = new IdRegistry(options.idPrefix ?? RUN_DEFAULTS.idPrefix, settings.runId);
    const recorder = new Recorder(connection, registry, options, settings);
    const runAbort = new AbortController();
    setMaxListeners(1000, runAbort.signal); // each running rule listens for the run being stopped
    // An interruption (SIGINT, SIGTERM) ends the setup chain's requests too, and every rule running.
    const interrupt = options.interrupt;
    const interrupted = () => runAbort.abort(interruptionOf(interrupt!));
    if (interrupt?.aborted) interrupted();
    else interrupt?.addEventListener('abort', interrupted, { once: true });

    // The §8 limit, when the operator gave it, bounds the run's own process calls (core/http/pacing.ts).
    const limit = connection.preconditions.config.concurrency_limit;
    if (typeof limit === 'number' && limit > 0) connection.http.pacing.limit('processAccount', limit);
    const tokens = await authenticate(connection, recorder);
    const parts: SessionParts = {
      connection,
      tokens,
      registry,
      recorder,
      options,
      settings,
      signal: runAbort.signal,
      history,
      running: new Set(),
    };
    const setup = await setUp(parts);
    const replay = options.replayCommand ?? defaultReplay(options.baseUrl);
    const width = new RuleWidth(settings.concurrency, {
      latency: connection.http.latency,
      rateLimited: connection.http.pacing.counts,
      expected429: typeof limit === 'number' ? ['processAccount'] : [],
    });
    recorder.width = width;
    return {
      width,
      baseUrl,
      embedded: connection.embedded,
      runId: settings.runId,
      seed: settings.seed,
      setup,
      run: ruleRunner({ ...parts, setup }),
      holdsLargeBodies: () => [...parts.running].some((transcript) => transcript.largeBodies > 0),
      replay: (result) => connection.redactor.text(replay(result.id, settings.seed, result.counterexample)),
      stop: (reason) => runAbort.abort(new RunDeadline(reason)),
      record: (results, extra) => recorder.record(results, extra),
      close: () => {
        interrupt?.removeEventListener('abort', interrupted);
        return connection.close();
      },
    };
  } catch (error) {
    await connection.close();
    throw error;
  }
}
