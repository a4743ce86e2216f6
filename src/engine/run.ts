/**
 * `runConformance`: aims the rules at one implementation and returns the report. The CLI is a thin
 * layer over it; library users call it directly.
 */
import { randomInt } from 'node:crypto';
import type { FixturesConfig } from '../config/schema.js';
import { ConfigError } from '../config/errors.js';
import { TokenSource } from '../auth/token-source.js';
import { AuthError, type AuthSettings, authorizationHeader, obtainServiceToken } from '../auth/token.js';
import { HttpClient, Transcript } from '../http/client.js';
import { ExchangeError } from '../http/exchange.js';
import { Redactor } from '../http/redact.js';
import { packageVersion } from '../package-root.js';
import { type BuildInput, buildReport } from '../report/build.js';
import type { Report } from '../report/schema.js';
import { model, endpointPath } from '../spec/index.js';
import { Api } from './api.js';
import type { Baseline } from './baseline.js';
import { excuse } from './baseline.js';
import { type Counterexample, createContext } from './context.js';
import { startEmbeddedTarget } from './embedded.js';
import { type RuleOutcome, executeRule } from './execute.js';
import { RunFixtures } from './fixtures.js';
import { Given } from './given.js';
import { IdRegistry, Ids, newRunId } from './ids.js';
import { NEEDS, missingNeed } from './needs.js';
import type { Rule } from './rule.js';
import { type Selection, selectRules } from './select.js';

/** The target could not be reached before any rule ran: exit code 3. */
export class UnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreachableError';
  }
}

/** What runConformance attaches to an UnreachableError or AuthError: the report of the aborted run. */
export type WithReport<E extends Error> = E & { report?: Report };

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

export const RUN_DEFAULTS = { concurrency: 8, numRuns: 25, timeoutMs: 10_000, idPrefix: 'cf', contractPath: 'business.business_contract_identifier' };

async function allRules(): Promise<Rule[]> {
  return (await import('../../suites/index.js')).allRules;
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

export async function runConformance(options: RunOptions = {}): Promise<Report> {
  const startedAt = new Date();
  const concurrency = options.concurrency ?? RUN_DEFAULTS.concurrency;
  const timeoutMs = options.timeoutMs ?? RUN_DEFAULTS.timeoutMs;
  const numRuns = options.numRuns ?? RUN_DEFAULTS.numRuns;
  const seed = options.seed ?? randomInt(2 ** 31);
  const runId = options.runId ?? newRunId();

  const candidates = options.rules ?? (await allRules());
  const { rules, unmatched } = selectRules(candidates, options.selection ?? {});
  if (unmatched.length) throw new ConfigError(`Nothing matches ${unmatched.join(', ')} (see "conformance list").`);

  const embedded = options.baseUrl === undefined ? await startEmbeddedTarget() : undefined;
  const redactor = new Redactor([options.auth?.token, options.auth?.apiKey, embedded?.apiKey, ...urlCredentials(options.baseUrl)]);
  let http: HttpClient | undefined;
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
    http = new HttpClient({ baseUrl, timeoutMs, connections: Math.max(2, concurrency * 2), redactor, rateLimit: options.rateLimit });
    const fixtures = new RunFixtures(embedded?.fixtures ?? options.fixtures ?? {});
    const registry = new IdRegistry(options.idPrefix ?? RUN_DEFAULTS.idPrefix, runId);
    const report = (parts: Pick<BuildInput, 'results'> & Partial<BuildInput>) =>
      buildReport({
        tool: { name: 'data-import-conformance', version: packageVersion() },
        run: { id: runId, seed, numRuns, concurrency, timeoutMs, strict: options.strict ?? false, startedAt, finishedAt: new Date(), selection: options.selection ?? {}, bailed: false },
        target: { baseUrl: redactor.text(baseUrl), embedded: !!embedded, auth: auth.token ? 'token' : 'api_key' },
        baseline: options.baseline,
        created: registry.created,
        http: { ...http!.stats, token_renewals: 0, token_refused_mid_run: 0 },
        ...parts,
      });

    let tokens: TokenSource;
    const obtain = auth.apiKey ? () => obtainServiceToken(baseUrl, auth, timeoutMs, redactor) : undefined;
    try {
      tokens = new TokenSource(auth.token ?? (await obtain!()), obtain);
      await preflight(http, tokens.current(), fixtures.config.import_suppliers?.ongoing ?? 'conformance-preflight', redactor);
    } catch (error) {
      if (error instanceof UnreachableError || error instanceof AuthError) (error as WithReport<typeof error>).report = report({ results: [], aborted: error.message });
      throw error;
    }

    const contractPath = options.contractPath ?? RUN_DEFAULTS.contractPath;
    const replay = options.replayCommand ?? defaultReplay(options.baseUrl);
    const runAbort = new AbortController();
    const results: { rule: Rule; outcome: RuleOutcome; replay?: string }[] = new Array(rules.length);
    let bailed = false;
    let done = 0;
    options.onEvent?.({ type: 'start', total: rules.length, runId, seed });

    const runOne = async (rule: Rule): Promise<RuleOutcome> => {
      const missing = missingNeed(rule.needs ?? [], fixtures.config);
      if (missing) {
        return { verdict: 'skip', reason: `needs ${missing.describe}: set ${missing.key}`, skipKey: missing.key, observations: [], transcript: [], durationMs: 0 };
      }
      if (bailed) return { verdict: 'skip', reason: 'not run: --bail stopped the run after a MUST failure', observations: [], transcript: [], durationMs: 0 };
      const transcript = new Transcript();
      const ruleTimeout = Math.max(120_000, timeoutMs * 30) * (rule.property ? Math.max(1, numRuns / 10) : 1);
      return executeRule(
        rule,
        async (state, signal) => {
          const api = new Api(http!, tokens, transcript);
          const ids = new Ids(registry);
          const given = new Given(api, ids, fixtures, contractPath, signal, options.processRetryBudgetMs);
          const ctx = createContext({ rule, api, given, ids, fixtures, property: { numRuns, seed, path: options.replayPath }, contractPath, signal }, state);
          await rule.check(ctx);
        },
        () => transcript.exchanges,
        runAbort.signal,
        ruleTimeout,
        redactor,
      );
    };

    let next = 0;
    const worker = async () => {
      while (next < rules.length) {
        const index = next++;
        const rule = rules[index];
        const outcome = await runOne(rule);
        const failing = outcome.verdict === 'fail' || outcome.verdict === 'error';
        results[index] = { rule, outcome, replay: failing ? redactor.text(replay(rule.id, seed, outcome.counterexample)) : undefined };
        if (options.bail && failing && rule.level === 'MUST' && !excuse(options.baseline, rule.id, outcome.reason)) bailed = true;
        options.onEvent?.({ type: 'rule', rule, outcome, done: ++done, total: rules.length });
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, rules.length) }, worker));

    const final = report({ results, http: { ...http.stats, token_renewals: tokens.stats.renewals, token_refused_mid_run: tokens.stats.refusedMidRun } });
    final.run.bailed = bailed;
    return final;
  } finally {
    await http?.close();
    await embedded?.close();
  }
}

export { NEEDS };
