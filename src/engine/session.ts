/**
 * A session: one target, authenticated and checked, on which rules run one at a time. The runner
 * schedules rules over a session; the vitest adapter makes each rule a test over one.
 */
import { randomInt } from 'node:crypto';
import { TokenSource } from '../auth/token-source.js';
import { AuthError, type AuthSettings, authorizationHeader, obtainServiceToken } from '../auth/token.js';
import { ConfigError } from '../config/errors.js';
import { HttpClient, Transcript } from '../http/client.js';
import { ExchangeError } from '../http/exchange.js';
import { Redactor } from '../http/redact.js';
import { packageVersion } from '../package-root.js';
import { type BuildInput, buildReport } from '../report/build.js';
import type { Report } from '../report/schema.js';
import { endpointPath, model } from '../spec/index.js';
import { Api } from './api.js';
import { type Counterexample, createContext } from './context.js';
import { startEmbeddedTarget } from './embedded.js';
import { type RuleOutcome, executeRule } from './execute.js';
import { RunFixtures } from './fixtures.js';
import { Given } from './given.js';
import { IdRegistry, Ids, newRunId } from './ids.js';
import { missingNeed } from './needs.js';
import type { Rule } from './rule.js';
import type { RunOptions } from './run.js';

/** The target could not be reached before any rule ran: exit code 3. */
export class UnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreachableError';
  }
}

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
 * Learns whether the target answers at all, and whether it takes the token, before any rule runs.
 * One broken endpoint must not make the whole target "unreachable", so a second one is tried when
 * the first does not answer; a refused connection needs no second try.
 */
async function preflight(http: HttpClient, token: string, supplier: string, redactor: Redactor): Promise<void> {
  const paths = [
    endpointPath(model.endpoints.accountTransferStatus, { import_supplier_code: supplier, external_account_number: 'conformance-preflight' }),
    endpointPath(model.endpoints.pendingAccountImportProcesses, { import_supplier_code: supplier }),
  ];
  let failure: ExchangeError | undefined;
  for (const path of paths) {
    try {
      const { status } = await http.send({ method: 'GET', path, headers: { authorization: authorizationHeader(token) } }, new Transcript());
      if (status === 401) throw new AuthError(`The target refused the token: GET ${path} answered 401.`);
      return;
    } catch (error) {
      if (!(error instanceof ExchangeError)) throw error;
      // An answer too large to read is still an answer: the target is there, only hostile.
      if (error.kind === 'too_large') return;
      failure = error;
      if (error.kind === 'refused') break;
    }
  }
  throw new UnreachableError(`The target ${redactor.text(http.origin)} is unreachable (${failure!.kind}): ${redactor.text(failure!.message)}`);
}

/** Credentials written into a base URL (`https://user:secret@host`) are secrets too. */
function urlCredentials(baseUrl: string | undefined): string[] {
  if (!baseUrl) return [];
  try {
    const url = new URL(baseUrl);
    return [decodeURIComponent(url.password), url.password].filter((s) => s.length > 0);
  } catch {
    return [];
  }
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

  const embedded = options.baseUrl === undefined ? await startEmbeddedTarget() : undefined;
  const redactor = new Redactor([options.auth?.token, options.auth?.apiKey, embedded?.apiKey, ...urlCredentials(options.baseUrl)]);
  let http: HttpClient | undefined;
  const close = async () => {
    await http?.close();
    await embedded?.close();
  };
  try {
    const baseUrl = embedded?.baseUrl ?? options.baseUrl!;
    options.onEvent?.({ type: 'target', baseUrl: redactor.text(baseUrl), embedded: !!embedded });
    const auth: AuthSettings = {
      graphqlUrl: '/v1/graphql/',
      mutation: '',
      tokenPath: 'data.obtainServiceToken.token',
      ...options.auth,
      ...(embedded ? { token: undefined, apiKey: embedded.apiKey } : {}),
    };
    if (!auth.token && !auth.apiKey) throw new ConfigError('No credentials for the target: set auth.token or auth.api_key in the config, or CONFORMANCE_TOKEN / CONFORMANCE_API_KEY.');
    if (!auth.mutation) auth.mutation = (await import('../config/schema.js')).DEFAULT_MUTATION;
    const client = (http = new HttpClient({ baseUrl, timeoutMs, connections: Math.max(2, concurrency * 2), redactor, rateLimit: options.rateLimit }));
    const fixtures = new RunFixtures(embedded?.fixtures ?? options.fixtures ?? {});
    const registry = new IdRegistry(options.idPrefix ?? RUN_DEFAULTS.idPrefix, runId);
    const contractPath = options.contractPath ?? RUN_DEFAULTS.contractPath;
    const replay = options.replayCommand ?? defaultReplay(options.baseUrl);
    const runAbort = new AbortController();
    let tokens: TokenSource | undefined;

    const report = (results: BuildInput['results'], extra: { bailed?: boolean; aborted?: string } = {}) =>
      buildReport({
        tool: { name: 'data-import-conformance', version: packageVersion() },
        run: { id: runId, seed, numRuns, concurrency, timeoutMs, strict: options.strict ?? false, startedAt, finishedAt: new Date(), selection: options.selection ?? {}, bailed: extra.bailed ?? false },
        target: { baseUrl: redactor.text(baseUrl), embedded: !!embedded, auth: auth.token ? 'token' : 'api_key' },
        results,
        baseline: options.baseline,
        ...(extra.aborted ? { aborted: extra.aborted } : {}),
        created: registry.created,
        http: { ...client.stats, token_renewals: tokens?.stats.renewals ?? 0, token_refused_mid_run: tokens?.stats.refusedMidRun ?? 0 },
      });

    const obtain = auth.apiKey ? () => obtainServiceToken(baseUrl, auth, timeoutMs, redactor) : undefined;
    try {
      tokens = new TokenSource(auth.token ?? (await obtain!()), obtain);
      await preflight(client, tokens.current(), fixtures.config.import_suppliers?.ongoing ?? 'conformance-preflight', redactor);
    } catch (error) {
      if (error instanceof UnreachableError || error instanceof AuthError) (error as WithReport<typeof error>).report = report([], { aborted: error.message });
      throw error;
    }
    const source = tokens;

    return {
      baseUrl: redactor.text(baseUrl),
      embedded: !!embedded,
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
