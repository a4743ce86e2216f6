/**
 * The runner's HTTP client: undici with a keep-alive connection pool to the one target origin, a
 * per-request deadline, a cap on response size, no redirects followed (the token only ever goes to
 * the configured base URL), an optional request rate limit, and every exchange recorded redacted.
 *
 * One request goes through named stages (stages/), each with one job:
 *   redact  → what is recorded of the request, secrets replaced, before anything else sees it
 *   pace    → its turn under the rate limit; then it is counted and numbered
 *   send    → the request on the wire, up to the status and headers
 *   bound   → the body read whole within the deadline, the size cap and the large-body budget
 *   redact  → what is recorded of the answer
 *   record  → the transcript, the answer log, the latency gauge
 *   observe → the run's observer (a HAR file, the coverage), bodies whole
 * and a failure of send, bound or record goes to the failure stage (stages/failure.ts: its kind and
 * redacted words), is recorded and observed the same way, and is thrown as an ExchangeError.
 */
import { Pool, type Dispatcher } from 'undici';
import { LatencyGauge } from './latency.js';
import { AnswerLog } from './answers.js';
import { type Exchange, ExchangeError } from './exchange.js';
import { LARGE_BODY_BYTES, LargeBodyBudget, type Release } from './large-bodies.js';
import { Pacing, type RateLimitCount } from './pacing.js';
import { RateLimiter } from './rate-limit.js';
import type { Redactor } from './redact.js';
import type { HttpRequest } from './request.js';
import { type ParsedBody, SharedBody, TOO_DEEP, parseBody } from './shared-body.js';
import { bound } from './stages/bound.js';
import { type ExchangeObserver, type Watch, observeAnswer, observeFailure } from './stages/observe.js';
import { depart, paced } from './stages/pace.js';
import { type Ledger, type Sent, recordAnswer, recordFailure } from './stages/record.js';
import { redactAnswer, redactRequest } from './stages/redact.js';
import { sendWire, wireRequest } from './stages/send.js';
import type { Transcript } from './transcript.js';
import { createDispatcher, needsAgent, type TransportOptions } from './transport.js';

// Everything the client module has always exported, importable from it still (the stages hold some).
export type { HttpRequest } from './request.js';
export type { Compaction } from './transcript.js';
export { Transcript } from './transcript.js';
export { type ParsedBody, SharedBody } from './shared-body.js';
export type { ExchangeObserver, Sender } from './stages/observe.js';
export { type AnswerRead, DeadlineExceeded, flattenHeaders, readAnswer, readWithin } from './stages/bound.js';
export { classify } from './stages/failure.js';

export class HttpResponse {
  private parsed?: ParsedBody;
  /**
   * A large body's value, kept weakly: a rule that read it and moved on does not hold it until it
   * ends (15 MiB of small keys is ~125 MB parsed, and eight rules run at once). Read again, it is
   * the same value while anyone holds it, or the same text parsed again (JSON.parse of one text).
   */
  private large?: SharedBody;

  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly text: string,
    readonly exchange: Exchange,
    /** The body as the run's history may already have parsed it (the same text). */
    private readonly shared?: SharedBody,
  ) {}

  /**
   * True when the body parses as JSON. A body nested past what the runner reads (MAX_JSON_DEPTH)
   * may be JSON all the same: it is neither, but an exchange error, so the rule is not judged on it.
   */
  get isJson(): boolean {
    const parsed = this.parse();
    if ('value' in parsed) return true;
    if (parsed.error === TOO_DEEP) throw this.tooDeep();
    return false;
  }

  /** The JSON body; a body that is not JSON is an exchange error (docs/design.md §4: error, not fail). */
  json(): unknown {
    const parsed = this.parse();
    if ('value' in parsed) return parsed.value;
    if (parsed.error === TOO_DEEP) throw this.tooDeep();
    throw new ExchangeError(
      'not_json',
      `expected a JSON body from ${this.exchange.request.method} ${this.exchange.request.url} (${this.status}), got ${describeBody(this.text, this.headers['content-type'])}`,
    );
  }

  /** The JSON value, or undefined for a body that is not JSON or not read: for describing an answer, never for judging it. */
  jsonIfRead(): unknown {
    const parsed = this.parse();
    return 'value' in parsed ? parsed.value : undefined;
  }

  private tooDeep(): ExchangeError {
    return new ExchangeError(
      'too_large',
      `the body from ${this.exchange.request.method} ${this.exchange.request.url} (${this.status}) was not read: ${TOO_DEEP}`,
    );
  }

  private parse(): ParsedBody {
    if (this.parsed) return this.parsed;
    if (this.text.length > LARGE_BODY_BYTES) {
      this.large ??= this.shared ?? new SharedBody(this.text);
      return this.large.peek();
    }
    this.parsed = this.shared?.take() ?? parseBody(this.text);
    return this.parsed;
  }
}

export function describeBody(text: string, contentType?: string): string {
  if (text.length === 0) return 'an empty body';
  const snippet = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  return `${contentType ? `${contentType} ` : ''}${JSON.stringify(snippet)}`;
}

/** Larger responses are cut off: by the client for rules, and for the ObtainServiceToken answer. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export interface HttpClientOptions {
  baseUrl: string;
  timeoutMs: number;
  /** Connections kept open to the target. */
  connections: number;
  redactor: Redactor;
  /** Requests per second, when limited. */
  rateLimit?: number;
  /** Larger responses are cut off and reported as an exchange error (default 16 MiB). */
  maxResponseBytes?: number;
  /** Extra headers, TLS trust and client certificate, and the proxy variables honoured (see transport.ts); unset for the embedded server. */
  transport?: TransportOptions;
  /** Sees every exchange as it completes, bodies whole (not clipped) and redacted (see ExchangeObserver). */
  onExchange?: ExchangeObserver;
}

export interface HttpStats {
  requests: number;
  failures: number;
  /** 429s per endpoint: answered, and waited out and sent again (core/engine/api.ts paces them). */
  rate_limited: Record<string, RateLimitCount>;
  /** GET requests sent again once after the connection was reset. */
  resent_after_reset: number;
}

export class HttpClient {
  readonly origin: string;
  private readonly prefix: string;
  private readonly pool: Dispatcher;
  private readonly limiter?: RateLimiter;
  /** Shared by every rule of the run: the §8 slots and the 429s absorbed. */
  readonly pacing = new Pacing();
  readonly stats: HttpStats = { requests: 0, failures: 0, rate_limited: this.pacing.counts, resent_after_reset: 0 };
  /** Which requests got an answer: names the point where a target stopped answering (answers.ts). */
  readonly answers = new AnswerLog();
  /** How long the target takes to answer lately (latency.ts): the runner's automatic width reads it. */
  readonly latency = new LatencyGauge();
  /** Large bodies read and parsed at once, shared by every rule of the run (large-bodies.ts). */
  readonly largeBodies = new LargeBodyBudget();
  /** What the record stage counts an exchange in, beside its transcript. */
  private readonly ledger: Ledger = { answers: this.answers, latency: this.latency, stats: this.stats };

  constructor(private readonly options: HttpClientOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, '');
    const poolOptions = {
      connections: options.connections,
      keepAliveTimeout: 4_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connectTimeout: Math.min(options.timeoutMs, 10_000),
      maxResponseSize: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    };
    const { transport } = options;
    // The plain case keeps one pool to the one origin; TLS settings or a proxy need the agent. Without
    // `transport` (the embedded server) the proxy variables do not apply.
    this.pool =
      transport && needsAgent(transport)
        ? createDispatcher(transport, poolOptions)
        : new Pool(this.origin, poolOptions);
    if (options.rateLimit) this.limiter = new RateLimiter(options.rateLimit);
  }

  /** Path and query as recorded and as sent (under the base URL's own path, if it has one). */
  target(req: Pick<HttpRequest, 'path' | 'query'>): string {
    const query = req.query && Object.keys(req.query).length ? `?${new URLSearchParams(req.query)}` : '';
    return `${this.prefix}${req.path}${query}`;
  }

  /**
   * Sends one request. A GET whose connection was reset is sent once more in place (a GET changes
   * nothing, and a reset kept-alive connection is the commonest network blip); both exchanges are
   * recorded.
   */
  async send(req: HttpRequest, transcript: Transcript): Promise<HttpResponse> {
    try {
      return await this.sendOnce(req, transcript);
    } catch (error) {
      if (req.method !== 'GET' || !(error instanceof ExchangeError) || error.kind !== 'reset') throw error;
      this.stats.resent_after_reset++;
      return this.sendOnce(
        { ...req, step: `${req.step ?? transcript.step ?? 'request'} (sent again after a reset)` },
        transcript,
      );
    }
  }

  /**
   * One request through the stages (see the top of this file). Redaction comes first, so that
   * nothing recorded, observed or thrown holds a secret; the try covers what can fail once the
   * request departed — sending, reading within the bounds, recording the answer — and whatever fails
   * there is recorded and observed as a failure of its kind, then thrown. The large-body share is
   * given back however the exchange ends, once it is recorded.
   */
  private async sendOnce(req: HttpRequest, transcript: Transcript): Promise<HttpResponse> {
    const { redactor, timeoutMs } = this.options;
    const path = this.target(req);
    const wire = wireRequest(req, path, this.options.transport?.headers);
    // The label is the request's own: several requests of a rule may be in flight at once.
    const step = req.step ?? transcript.step;
    // Redacted before it waits or goes: everything recorded, observed or thrown is built from this.
    const request = redactRequest(redactor, wire);
    const wait = paced(this.limiter);
    if (wait) await wait;
    const departure = depart(this.stats, this.answers);
    const sent: Sent = { step, request: request.recorded, departure };
    const observer = this.options.onExchange;
    const watch: Watch | undefined = observer && {
      observer,
      origin: this.origin,
      transcript,
      deliberate: req.deliberate,
      nearMiss: req.nearMiss,
      departure,
      ...(wire.fields && request.body === wire.payload ? { requestFields: wire.fields } : {}),
    };
    let release: Release | undefined;
    try {
      const res = await sendWire(this.pool, this.origin, wire, timeoutMs);
      const answer = await bound(
        res,
        {
          timeoutMs,
          started: departure.started,
          budget: this.largeBodies,
          cap: this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        },
        transcript,
      );
      release = answer.release;
      const seen = redactAnswer(redactor, answer);
      const exchange = recordAnswer(transcript, this.ledger, sent, answer, seen);
      const shared = new SharedBody(answer.text);
      if (watch) observeAnswer(watch, request, exchange, seen.text, shared);
      return new HttpResponse(answer.status, answer.headers, answer.text, exchange, shared);
    } catch (error) {
      const failed = recordFailure(transcript, this.ledger, sent, error, { timeoutMs, redactor });
      if (watch) observeFailure(watch, request, failed);
      throw new ExchangeError(failed.error.kind, `${req.method} ${redactor.text(path)}: ${failed.error.message}`);
    } finally {
      release?.();
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
