/**
 * The runner's HTTP client: undici with a keep-alive connection pool to the one target origin, a
 * per-request deadline, a cap on response size, no redirects followed (the token only ever goes to
 * the configured base URL), an optional request rate limit, and every exchange recorded redacted.
 */
import { StringDecoder } from 'node:string_decoder';
import { Pool, errors as undiciErrors, type Dispatcher } from 'undici';
import { LatencyGauge } from './latency.js';
import { AnswerLog } from './answers.js';
import { type Exchange, type ExchangeErrorKind, ExchangeError, clip } from './exchange.js';
import { LARGE_BODY_BYTES, LargeBodyBudget, type Release } from './large-bodies.js';
import { Pacing, type RateLimitCount } from './pacing.js';
import { RateLimiter } from './rate-limit.js';
import type { Redactor } from './redact.js';
import { createDispatcher, needsAgent, type TransportOptions } from './transport.js';

export interface HttpRequest {
  method: string;
  /** Path under the base URL, starting with `/`. */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Serialised as JSON. */
  body?: unknown;
  /** Sent as is (wins over `body`). */
  rawBody?: string;
  /** Step label for the transcript. */
  step?: string;
  /**
   * What the request breaks on purpose (no Authorization header, another scheme, a body that is not
   * JSON, a payload with a defect): a recording of the run says so, so that judging the recording
   * later never charges the suite's own probes to a client. A function is asked only when an
   * observer reads it (a recording), so a run without one does not pay for working it out.
   */
  deliberate?: string | (() => string | undefined);
}

/** Who sent an exchange, for a recording of the run: the rule (or the setup chain), and what it broke on purpose. */
export interface Sender {
  rule: string;
  deliberate?: string;
}

/** Collects the exchanges of one rule. */
/**
 * How a long transcript is kept small while its rule runs: all but the last `keep` exchanges are
 * replaced by `brief` (one line each, what a report keeps of them anyway), except those that broke.
 */
export interface Compaction {
  keep: number;
  brief(exchange: Exchange): Exchange;
}

export class Transcript {
  readonly exchanges: Exchange[] = [];
  step?: string;
  /** Exchanges before this index are already brief (or broke). */
  private compacted = 0;
  /**
   * Answers larger than LARGE_BODY_BYTES it read (large-bodies.ts). A rule may keep what it parsed of
   * them until it ends, so the run starts no other rule meanwhile (core/engine/run.ts).
   */
  largeBodies = 0;

  constructor(
    private readonly compaction?: Compaction,
    /** The rule whose exchanges these are (or the setup chain's name), told to an exchange observer. */
    readonly sender?: string,
  ) {}

  /** Records an exchange, labelled with its own step (requests of one rule may be in flight at once) or the transcript's. */
  record({ step = this.step, ...exchange }: Omit<Exchange, 'seq'>): Exchange {
    const full: Exchange = { seq: this.exchanges.length + 1, ...(step ? { step } : {}), ...exchange };
    this.exchanges.push(full);
    const c = this.compaction;
    // Compacted a batch at a time, so each exchange is looked at once.
    if (c && this.exchanges.length - this.compacted > 2 * c.keep) {
      const until = this.exchanges.length - c.keep;
      for (let i = this.compacted; i < until; i++)
        if (!this.exchanges[i].error) this.exchanges[i] = c.brief(this.exchanges[i]);
      this.compacted = until;
    }
    return full;
  }
}

/** A body read as JSON: its value, or why it is not JSON. */
export type ParsedBody = { value: unknown } | { error: string };

function parseBody(text: string): ParsedBody {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * One exchange's response body parsed once, for the run's history (which reads it as the exchange
 * completes) and the rule (which reads it later, or never). Parsing is where a big body costs memory
 * (15 MiB of small keys is ~125 MB parsed), so two parses of one body were two such values at once.
 * An early reader's value is kept only weakly: a rule that never reads the body does not keep it
 * alive, and one that does gets the same value whether it is reused or parsed again (JSON.parse of
 * one text), so only memory depends on when the collector runs, never what a rule reads.
 */
export class SharedBody {
  private weak?: WeakRef<object>;
  /** A value that is not an object (a number, a string, null) or a parse error: small, kept as is. */
  private small?: ParsedBody;

  constructor(readonly text: string) {}

  /** The parsed body for a reader that reads it now and keeps nothing of it. */
  peek(): ParsedBody {
    const kept = this.small ?? this.reuse();
    if (kept) return kept;
    const parsed = parseBody(this.text);
    this.remember(parsed);
    return parsed;
  }

  /** The parsed body for its owner, who keeps it: the value an earlier reader parsed when it is still alive. */
  take(): ParsedBody {
    return this.small ?? this.reuse() ?? parseBody(this.text);
  }

  private reuse(): ParsedBody | undefined {
    const value = this.weak?.deref();
    return value === undefined ? undefined : { value };
  }

  private remember(parsed: ParsedBody): void {
    if ('value' in parsed && typeof parsed.value === 'object' && parsed.value !== null)
      this.weak = new WeakRef(parsed.value);
    else this.small = parsed;
  }
}

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

  /** True when the body parses as JSON. */
  get isJson(): boolean {
    return 'value' in this.parse();
  }

  /** The JSON body; a body that is not JSON is an exchange error (docs/design.md §4: error, not fail). */
  json(): unknown {
    const parsed = this.parse();
    if ('value' in parsed) return parsed.value;
    throw new ExchangeError(
      'not_json',
      `expected a JSON body from ${this.exchange.request.method} ${this.exchange.request.url} (${this.status}), got ${describeBody(this.text, this.headers['content-type'])}`,
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

/**
 * Told of every exchange of the client as it completes, in full: the request and response bodies
 * whole (not clipped as transcripts clip them), redacted as transcripts are. `seq` numbers the
 * client's requests; `startedAt` is when the request was sent; `origin` the target's (URLs are paths); `sender` the rule that sent it, when a rule did. For a HAR recording and the status and
 * field coverage of a run (app/traffic/har.ts, core/report/coverage.ts), which must see every
 * exchange, not the ones transcripts keep. An observer that throws is ignored: it never breaks a rule.
 */
export type ExchangeObserver = (
  exchange: Exchange,
  startedAt: Date,
  origin: string,
  sender?: Sender,
  /**
   * The response body parsed, shared with the rule that reads it (one parse of a big body, not two):
   * given when the recorded body is the text the rule reads (redaction changed nothing).
   */
  response?: SharedBody,
) => void;

export interface HttpStats {
  requests: number;
  failures: number;
  /** 429s per endpoint: answered, and waited out and sent again (core/engine/api.ts paces them). */
  rate_limited: Record<string, RateLimitCount>;
  /** GET requests sent again once after the connection was reset. */
  resent_after_reset: number;
}

/** Who sent an exchange; what it broke on purpose worked out when first read, once. */
function senderOf(rule: string, deliberate: HttpRequest['deliberate']): Sender {
  let said = deliberate;
  return {
    rule,
    get deliberate() {
      if (typeof said === 'function') said = said();
      return said;
    },
  };
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

  private async sendOnce(req: HttpRequest, transcript: Transcript): Promise<HttpResponse> {
    const { redactor, timeoutMs } = this.options;
    const path = this.target(req);
    const payload = req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      ...this.options.transport?.headers,
      ...req.headers,
    };
    // The label is the request's own: several requests of a rule may be in flight at once.
    const step = req.step ?? transcript.step;
    // Redacted once: the transcript keeps it clipped, an observer whole.
    const redactedPayload = payload === undefined ? undefined : redactor.text(payload);
    const recordedRequest = {
      method: req.method,
      url: redactor.text(path),
      headers: redactor.headers(headers),
      ...(redactedPayload !== undefined ? clip(redactedPayload) : {}),
    };
    if (this.limiter) await this.limiter.take();
    this.stats.requests++;
    // One number per request, the answers log's: the HAR and the stopped-answering record agree on it.
    const n = this.answers.send();
    const started = performance.now();
    const startedAt = new Date();
    const observe = this.options.onExchange;
    const observed = (exchange: Omit<Exchange, 'seq' | 'step'>, response?: SharedBody) => {
      try {
        observe?.(
          { seq: n, ...(transcript.step ? { step: transcript.step } : {}), ...exchange },
          startedAt,
          this.origin,
          transcript.sender === undefined ? undefined : senderOf(transcript.sender, req.deliberate),
          response,
        );
      } catch {
        // The observer's own trouble (a full disk under a HAR file) is its to report.
      }
    };
    // Held while a large body is read (large-bodies.ts); given back however the exchange ends.
    let release: Release | undefined;
    try {
      // undici bounds the wait for headers and each pause in the body; one more timer bounds the whole
      // body, since a body that drips forever never pauses long enough for bodyTimeout.
      const res = await this.pool.request({
        origin: this.origin,
        method: req.method as Dispatcher.HttpMethod,
        path,
        headers,
        body: payload,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const read = await readAnswer(res.body, {
        timeoutMs,
        started,
        budget: this.largeBodies,
        declared: Number(res.headers['content-length']),
        cap: this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      });
      release = read.release;
      const { text } = read;
      if (read.release) transcript.largeBodies++;
      const responseHeaders = flattenHeaders(res.headers);
      const redactedText = redactor.text(text);
      const exchange = transcript.record({
        step,
        request: recordedRequest,
        response: {
          status: res.statusCode,
          headers: redactor.headers(responseHeaders),
          ...clip(redactedText),
          bytes: Buffer.byteLength(text),
        },
        // The target's time: a wait for the large-body budget is the runner's own.
        duration_ms: performance.now() - started - read.waitedMs,
      });
      this.answers.answered(n, recordedRequest);
      this.latency.record(exchange.duration_ms, res.statusCode);
      const shared = new SharedBody(text);
      if (observe)
        observed(
          {
            request: { ...recordedRequest, ...(redactedPayload !== undefined ? { body: redactedPayload } : {}) },
            response: {
              status: res.statusCode,
              headers: exchange.response!.headers,
              body: redactedText,
              bytes: exchange.response!.bytes,
            },
            duration_ms: exchange.duration_ms,
          },
          redactedText === text ? shared : undefined,
        );
      return new HttpResponse(res.statusCode, responseHeaders, text, exchange, shared);
    } catch (error) {
      this.stats.failures++;
      const kind = classify(error);
      const message =
        kind === 'timeout' ? `no complete response within ${timeoutMs} ms` : redactor.value(describeError(error));
      const failed = transcript.record({
        step,
        request: recordedRequest,
        error: { kind, message },
        duration_ms: performance.now() - started,
      });
      // A body too large was still an answer; a refused or reset connection was none.
      if (kind === 'too_large') this.answers.answered(n, recordedRequest);
      else this.answers.unanswered(n, recordedRequest, kind, failed);
      if (observe)
        observed({
          request: { ...recordedRequest, ...(redactedPayload !== undefined ? { body: redactedPayload } : {}) },
          error: failed.error,
          duration_ms: failed.duration_ms,
        });
      throw new ExchangeError(kind, `${req.method} ${redactor.text(path)}: ${message}`);
    } finally {
      release?.();
    }
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}

/** The whole body did not arrive in time (undici's own timeouts only bound the pauses). */
export class DeadlineExceeded extends Error {}

/**
 * Reads a whole body within what is left of `timeoutMs` since `started`: a body that drips forever
 * never pauses long enough for undici's bodyTimeout, so one more timer bounds it.
 */
export async function readWithin(
  body: Dispatcher.ResponseData['body'],
  timeoutMs: number,
  started: number,
): Promise<string> {
  const deadline = setTimeout(
    () => body.destroy(new DeadlineExceeded()),
    Math.max(1, timeoutMs - (performance.now() - started)),
  );
  try {
    return await body.text();
  } finally {
    clearTimeout(deadline);
  }
}

/** A body read whole, with the share of the large-body budget it holds (until the exchange is recorded) and how long it waited for it. */
export interface AnswerRead {
  text: string;
  release?: Release;
  waitedMs: number;
}

/**
 * Reads a whole body as readWithin does (within what is left of `timeoutMs` since `started`, decoded
 * as undici's `text()` decodes: UTF-8, a leading BOM skipped), but a body larger than
 * LARGE_BODY_BYTES first takes its share of `budget`: its declared length, or the response cap when
 * it declared none and grew past the threshold. Waiting for it is the runner's own time, so it does
 * not count against the deadline; the bytes wait in the socket meanwhile (undici pauses it, and a
 * paused body does not time out).
 */
export async function readAnswer(
  body: Dispatcher.ResponseData['body'],
  options: {
    timeoutMs: number;
    started: number;
    budget: LargeBodyBudget;
    declared: number;
    cap: number;
  },
): Promise<AnswerRead> {
  const { timeoutMs, started, budget, declared, cap } = options;
  let waitedMs = 0;
  let release: Release | undefined;
  let deadline: NodeJS.Timeout | undefined;
  const arm = () => {
    const left = timeoutMs - (performance.now() - started - waitedMs);
    deadline = setTimeout(() => body.destroy(new DeadlineExceeded()), Math.max(1, left));
  };
  const take = async (bytes: number) => {
    clearTimeout(deadline);
    const from = performance.now();
    release = await budget.take(bytes);
    waitedMs += performance.now() - from;
    arm();
  };
  try {
    if (Number.isFinite(declared) && declared > LARGE_BODY_BYTES) await take(declared);
    else arm();
    const text = new BodyText();
    for await (const chunk of body) {
      text.add(chunk as Buffer);
      if (!release && text.size > LARGE_BODY_BYTES) await take(Math.max(text.size, cap));
    }
    return { text: text.end(), ...(release ? { release } : {}), waitedMs };
  } catch (error) {
    release?.();
    throw error;
  } finally {
    clearTimeout(deadline);
  }
}

/**
 * A body's text, decoded as undici's `text()` decodes it (UTF-8, a leading BOM skipped). A large body
 * is decoded chunk by chunk into the JS heap rather than joined into one buffer first: a buffer of
 * many megabytes comes from malloc, and once freed it raises glibc's mmap threshold, so the next big
 * buffers stay in its arenas and the process keeps them resident long after they are garbage
 * (measured: some 300 MB of a 550 MB peak against 15 MiB answers). The JS heap gives its pages back.
 */
class BodyText {
  size = 0;
  private chunks: Buffer[] = [];
  private decoder?: StringDecoder;
  private pieces: string[] = [];

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.decoder) this.pieces.push(this.decoder.write(chunk));
    else {
      this.chunks.push(chunk);
      if (this.size > LARGE_BODY_BYTES) {
        this.decoder = new StringDecoder('utf8');
        for (const c of this.chunks) this.pieces.push(this.decoder.write(c));
        this.chunks = [];
      }
    }
  }

  end(): string {
    if (!this.decoder) {
      const buffer = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
      const bom = this.size > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
      return buffer.toString('utf8', bom ? 3 : 0);
    }
    this.pieces.push(this.decoder.end());
    // U+FEFF first can only be the bytes EF BB BF: the BOM undici's text() skips.
    if (this.pieces[0]?.startsWith('\uFEFF')) this.pieces[0] = this.pieces[0].slice(1);
    const text = this.pieces.join('');
    this.pieces = [];
    return text;
  }
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export function classify(error: unknown): ExchangeErrorKind {
  if (error instanceof undiciErrors.ResponseExceededMaxSizeError) return 'too_large';
  if (
    error instanceof DeadlineExceeded ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  )
    return 'timeout';
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return 'reset';
  return 'other';
}

function describeError(error: unknown): string {
  if (error instanceof undiciErrors.ResponseExceededMaxSizeError) return 'the response body is larger than the limit';
  const e = error as { message?: string; code?: string; cause?: { message?: string; code?: string } };
  const code = e.code ?? e.cause?.code;
  const message = e.cause?.message ?? e.message ?? String(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}
