/**
 * Calls of the interface by endpoint, as rules make them. Paths come from the spec model's endpoint
 * catalogue; the token is attached unless the rule asks for something else (the §5 rules).
 */
import type { TokenSource } from '../auth/token-source.js';
import { authorizationHeader } from '../auth/token.js';
import type { HttpClient, HttpResponse, Transcript } from '../http/client.js';
import { seededRandom, sleep, waitAfter429 } from '../http/pacing.js';
import { type EndpointId, type EndpointSpec, endpointPath, model } from '../spec/index.js';
import { NotJudged } from './failures.js';
import { documentedShape } from './judgements.js';
import { type NotImplementedLog, answersNotImplemented, supplierOf } from './not-implemented.js';
import { labelOfTry } from './tries.js';

/**
 * How many times one request is sent again after its token expired: each time needs a token the
 * target accepted and then refused (an expiry between renewing and sending), and a target whose
 * tokens live shorter than a request takes gets its 401 after this many.
 */
const MAX_RESENDS_AFTER_EXPIRY = 4;

/**
 * `token` (default): `Authorization: Token <token>`; `none`: no Authorization header;
 * `{authorization}`: that literal header; `{scheme}`: the real token under another scheme word
 * (`''` sends the bare token) — so §5 rules can vary the form without ever holding the secret.
 */
export type AuthMode =
  | 'token'
  | 'none'
  | { authorization: string }
  | { scheme: string }
  /** The run's token spelled otherwise (a near miss of it, §5.3), in the documented form; `what` says how. */
  | { nearToken: (token: string) => string; what: string };

export interface CallOptions {
  body?: unknown;
  rawBody?: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  auth?: AuthMode;
  /** Label for the transcript: what this request is for. */
  step?: string;
  /**
   * `paced` (the default): a 429 is waited out (Retry-After, else backoff) and the request sent again
   * within the budget, and calls of an endpoint with a known limit take a slot; `raw`: neither, the
   * rule sees the 429 (a §8 rule provoking it on purpose).
   */
  pacing?: 'paced' | 'raw';
  /**
   * The body has a defect a conforming server refuses before it processes anything (§7.2: 400 on
   * any endpoint): such a call takes no §8 slot, like a call without the run's token (§5.3). Were
   * it counted against the limit anyway, its 429 is still waited out. A recording of the run (`--har`)
   * marks it as the suite's deliberate defect.
   */
  defective?: boolean;
  /**
   * The request names its subject by a near miss of its key on purpose (suites/relations-lookup.ts:
   * the case flipped, a space around it, a prefix, an extension), in these words. A recording of the
   * run says so, and the run's history does not read the answer as one about another subject: a
   * server may hold the near miss as the same key (docs/freedoms.md), and the rule judges that itself.
   */
  nearMiss?: string;
  /** What the call breaks on purpose, in words, for a recording of the run (the Api works it out when asked). */
  deliberate?: string | (() => string | undefined);
}

/**
 * How a rule's calls are paced: when waiting must end (derived from the rule's time limit and the
 * run's --max-time, not a constant), the signal that ends it early, the seeded jitter, and what to
 * tell the user when the budget runs out.
 */
export interface PacingContext {
  signal?: AbortSignal;
  /** Epoch ms after which no 429 is waited out any longer; its words for the message. */
  until?: { at: number; words: string };
  /** Process calls stop waiting this long after their first attempt (a run option). */
  processBudgetMs?: number;
  random?: () => number;
  /** Endpoints whose calls are `raw` unless a call asks otherwise: the §8 rule's own burst. */
  deliberate?: readonly EndpointId[];
  /** For the message of a starved call: the run's --concurrency and the configured §8 limit. */
  concurrency?: number;
  concurrencyLimit?: number;
  /**
   * The run's log of endpoints not implemented (not-implemented.ts): given (a session's Api), an
   * endpoint of the catalogue answering 501, 405 or an undocumented 404 is recorded there and the
   * call throws NotImplemented, so the rule is not judged. Absent (a bare Api), statuses pass as they are.
   */
  notImplemented?: NotImplementedLog;
}

/** What a paced call ended with: the response, and, when it is still a 429, why the waiting stopped. */
export interface PacedResponse {
  res: HttpResponse;
  exhausted?: string;
}

/** Without a deadline (a bare Api, e.g. pact verify), a 429 is waited out this many times at most. */
const UNBOUNDED_ATTEMPTS = 5;

/**
 * What a call breaks on purpose, as a recording of the run tells it (core/http/client.ts
 * `deliberate`): the credentials a §5 rule varies, a body a rule marked `defective`, or a payload
 * the endpoint's documented request schema refuses — the suite sends no other (its payloads are
 * the canonical ones or the user's templates, both held to that schema), so one that breaks it is
 * a rule's probe.
 */
function deliberately(auth: AuthMode, options: CallOptions, spec?: EndpointSpec): string | undefined {
  const refused =
    options.body !== undefined && spec?.body !== undefined && !documentedShape(spec.body, options.body).ok;
  const what = [
    auth === 'none'
      ? 'no Authorization header'
      : auth === 'token'
        ? undefined
        : 'nearToken' in auth
          ? `the run token with ${auth.what}`
          : 'scheme' in auth
            ? auth.scheme
              ? `the Authorization scheme "${auth.scheme}"`
              : 'a bare token as the Authorization header'
            : 'an Authorization header other than the run token',
    options.nearMiss ? `a key spelled as a near miss of an existing one (${options.nearMiss})` : undefined,
    options.defective && options.rawBody !== undefined ? 'a body that is not valid JSON' : undefined,
    (options.defective && options.rawBody === undefined) || refused ? 'a payload with a defect' : undefined,
  ].filter((w) => w !== undefined);
  return what.length ? what.join('; ') : undefined;
}

export class Api {
  constructor(
    private readonly http: HttpClient,
    private readonly tokens: TokenSource,
    private readonly transcript: Transcript,
    private readonly pacing: PacingContext = {},
  ) {
    this.random = pacing.random ?? seededRandom(0);
  }

  private readonly random: () => number;

  private token(): string {
    return this.tokens.current();
  }

  /**
   * Calls an endpoint, paced (see CallOptions.pacing). A call still answered 429 when the budget runs
   * out is not judged: NotJudged, whose message names the fix.
   */
  async call(endpoint: EndpointId, options: CallOptions = {}): Promise<HttpResponse> {
    const { res, exhausted } = await this.callPaced(endpoint, options);
    if (exhausted) throw new NotJudged(exhausted);
    return res;
  }

  /** The same call, returning a 429 left when the budget ran out (for the §8 rule that judges it). */
  async callPaced(endpoint: EndpointId, options: CallOptions = {}): Promise<PacedResponse> {
    const spec = model.endpoints[endpoint];
    const raw = options.pacing ? options.pacing === 'raw' : this.pacing.deliberate?.includes(endpoint);
    const marked = { deliberate: () => deliberately(options.auth ?? 'token', options, spec), ...options };
    const paced = await this.paced(endpoint, spec.method, endpointPath(spec, options.params), marked, raw ?? false);
    const log = this.pacing.notImplemented;
    const { res } = paced;
    if (
      log &&
      answersNotImplemented(endpoint, res.status, {
        withRunToken: (options.auth ?? 'token') === 'token',
        namesKnownSupplier: log.knowsSupplier(supplierOf(options.params, options.body)),
      })
    )
      throw log.record(endpoint, res.exchange, res.status);
    return paced;
  }

  /**
   * Runs `send` holding `count` of the endpoint's §8 slots at once, or all there are when fewer, and
   * tells it how many it holds: it sends that many calls, `raw` (they take no slot of their own), so
   * the run still never has more in flight than the limit. The requests of a race must be on the
   * wire together; slots taken one at a time, shared with the other rules' calls, would let them
   * through one after another and the race would never happen. Without a known limit, `send(count)` runs at once.
   */
  async holdingSlots<T>(endpoint: EndpointId, count: number, send: (held: number) => Promise<T>): Promise<T> {
    const slots = this.http.pacing.semaphore(endpoint);
    const release = await slots?.acquire(this.pacing.signal, count);
    try {
      return await send(slots ? Math.min(count, slots.size) : count);
    } finally {
      release?.();
    }
  }

  /** A request outside the catalogue (for §9 and robustness rules), paced like any other. */
  async request(method: string, path: string, options: CallOptions = {}): Promise<HttpResponse> {
    const { res, exhausted } = await this.paced('other', method, path, options, options.pacing === 'raw');
    if (exhausted) throw new NotJudged(exhausted);
    return res;
  }

  private async paced(
    endpoint: string,
    method: string,
    path: string,
    options: CallOptions,
    raw: boolean,
  ): Promise<PacedResponse> {
    const { signal } = this.pacing;
    // The §8 limit bounds accounts processed at once: a call that cannot start processing (no valid
    // token, a defective body) takes no slot, so it does not hold up the calls that do.
    const processes = !options.defective && (options.auth === undefined || options.auth === 'token');
    const slots = raw || !processes ? undefined : this.http.pacing.semaphore(endpoint);
    const started = Date.now();
    const until = Math.min(
      this.pacing.until?.at ?? Number.POSITIVE_INFINITY,
      endpoint === 'processAccount' && this.pacing.processBudgetMs !== undefined
        ? started + this.pacing.processBudgetMs
        : Number.POSITIVE_INFINITY,
    );
    for (let attempt = 1; ; attempt++) {
      const release = slots ? await slots.acquire(signal) : undefined;
      let res: HttpResponse;
      try {
        const step = attempt === 1 ? options.step : `${options.step ?? 'request'} (retry ${attempt - 1} after 429)`;
        res = await this.send(method, path, { ...options, step });
      } finally {
        release?.();
      }
      if (res.status !== 429) return { res };
      if (raw) {
        this.http.pacing.count(endpoint, false);
        return { res };
      }
      const retryAfter = res.headers['retry-after'];
      const wait = waitAfter429(retryAfter, attempt, this.random);
      if (Date.now() + wait > until || attempt >= (this.pacing.until ? Number.POSITIVE_INFINITY : UNBOUNDED_ATTEMPTS)) {
        this.http.pacing.count(endpoint, false);
        return { res, exhausted: this.starved(endpoint, res, attempt, Date.now() - started, retryAfter, until) };
      }
      this.http.pacing.count(endpoint, true);
      await sleep(wait, signal);
    }
  }

  /** Why a call stopped waiting, and what would let it through. */
  private starved(
    endpoint: string,
    res: HttpResponse,
    attempts: number,
    spentMs: number,
    retryAfter: string | undefined,
    until: number,
  ): string {
    const { concurrency, concurrencyLimit } = this.pacing;
    const words =
      until === Number.POSITIVE_INFINITY
        ? `at most ${UNBOUNDED_ATTEMPTS} attempts`
        : until === this.pacing.until?.at
          ? `waiting ends with ${this.pacing.until.words}`
          : `retry budget ${((this.pacing.processBudgetMs ?? 0) / 1000).toFixed(1)} s`;
    const what = endpoint === 'processAccount' ? '§8 concurrency limit' : 'a rate limit; §8: not shown';
    const fixes = [
      `a lower --concurrency${concurrency ? ` (now ${concurrency})` : ''}`,
      concurrencyLimit
        ? `fixtures.concurrency_limit (now ${concurrencyLimit}) at the server's §8 limit`
        : "fixtures.concurrency_limit set to the server's §8 limit",
      'more time (--max-time, --timeout)',
    ];
    return `${res.exchange.request.method} ${res.exchange.request.url} still answered 429 (${what}) after ${attempts} attempt${attempts === 1 ? '' : 's'} in ${(spentMs / 1000).toFixed(1)} s (${words}, Retry-After ${retryAfter ?? 'absent'}). Try ${fixes.join(', ')}`;
  }

  private async send(method: string, path: string, options: CallOptions): Promise<HttpResponse> {
    const auth = options.auth ?? 'token';
    const send = (token: string) => {
      const headers: Record<string, string> = { ...options.headers };
      if (auth === 'token') headers.authorization = authorizationHeader(token);
      else if (auth === 'none') delete headers.authorization;
      else if ('nearToken' in auth) headers.authorization = authorizationHeader(auth.nearToken(token));
      else if ('scheme' in auth) headers.authorization = auth.scheme ? `${auth.scheme} ${token}` : token;
      else headers.authorization = auth.authorization;
      return this.http.send(
        {
          method,
          path,
          query: options.query,
          headers,
          body: options.body,
          rawBody: options.rawBody,
          step: labelOfTry(options.step ?? this.transcript.step),
          deliberate: options.deliberate ?? (() => deliberately(auth, options)),
          ...(options.nearMiss !== undefined ? { nearMiss: options.nearMiss } : {}),
        },
        this.transcript,
      );
    };
    let token = this.token();
    let res = await send(token);
    // Only a request carrying the run's token in the documented form says anything about that token:
    // the §5 rules that send none, another one or another form expect their 401 and renew nothing.
    if (auth !== 'token') return res;
    // A 401 to the run's own token mid-run (§5: lifetime not shown): renewed once for every rule
    // that met it (token-source.ts), and this request sent again with the new token. Again only
    // while the token it was refused with had expired in turn — replaced since, or accepted by the
    // target before — as short lifetimes and many rules in flight make it: a new token refused
    // before the target ever accepted it is no expiry, and its 401 stands.
    for (let resent = 0; res.status === 401; resent++) {
      if (resent > 0 && (resent >= MAX_RESENDS_AFTER_EXPIRY || !this.tokens.expiredSince(token))) {
        this.tokens.refusedAfterRenewal();
        return res;
      }
      const renewed = await this.tokens.renew(token);
      if (renewed === null) return res;
      token = renewed;
      res = await send(token);
    }
    this.tokens.acceptedBy(token);
    return res;
  }
}
