/**
 * A forwarding proxy that relays every exchange unchanged to the target and judges it as it passes
 * (TrafficJudge): put it between a supplier's migration client and staging (or the reference
 * server) and the session's findings, against the client or the server, come out as a report.
 *
 * A session may last hours, so the proxy holds no more than one exchange's worth per exchange in
 * flight (docs/design.md §6): each exchange is judged, counted for coverage and written to the HAR
 * file (redacted, as it completes) whole, then dropped; what stays is a trimmed copy, like a run's
 * transcripts, of the exchanges a finding names and of the last few. Bodies are capped each way
 * (16 MiB), and the bodies held for exchanges in flight together (64 MiB): a request over that
 * budget is answered 503 without being forwarded.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Agent, request as undiciRequest } from 'undici';
import { capText, showControls } from '../../core/http/bounds.js';
import type { ExchangeErrorKind } from '../../core/http/exchange.js';
import { Redactor } from '../../core/http/redact.js';
import { clientCertificateRefusal } from '../../core/http/tls-refusal.js';
import { clientSecrets, type TransportOptions, tlsOptions } from '../../core/http/transport.js';
import { CoverageCounter } from '../../core/report/coverage.js';
import type { Report } from '../../core/report/schema.js';
import { reportTranscript } from '../../core/report/transcripts.js';
import { type CheckName, type Finding, TrafficJudge } from './checks.js';
import { endToEnd, type ForwardingPolicy, forwardingPolicy, type Refusal, refusal, upstreamUrl } from './forwarding.js';
import { HarWriter, type TimedExchange } from './har.js';
import { MAX_EXCHANGES, trafficReport } from './report.js';
import { TrafficSecrets } from './secrets.js';

/** The largest body relayed and judged, either way: the runner's own cap (core/http/client.ts). */
export const PROXY_MAX_BODY_BYTES = 16 * 1024 * 1024;
/** The most body bytes the exchanges in flight may hold together: four maximal bodies. */
export const PROXY_MAX_HELD_BYTES = 64 * 1024 * 1024;
/** How long a stop waits for the exchanges in flight before it cuts them. */
export const PROXY_STOP_GRACE_MS = 5_000;
/** The last exchanges kept (trimmed) besides those a finding names: an earlier one a later finding may name. */
const KEEP_RECENT = 16;
/** Exchanges cut in flight named in the report; the rest are counted. */
const NAMED_IN_FLIGHT = 5;

/** The proxy cannot start as asked (the HAR file cannot be written): said before it listens. */
export class TrafficProxyError extends Error {}

export interface TrafficProxyOptions {
  /** The implementation the traffic goes to. */
  target: string;
  port?: number;
  /** Loopback by default: a proxy that relays credentials is nobody else's. */
  host?: string;
  /**
   * Largest body relayed and judged, either way (default 16 MiB): a larger request is refused with
   * 413; a larger answer is cut (502, or the connection closed once its head was relayed).
   */
  maxBodyBytes?: number;
  /** The most body bytes the exchanges in flight hold together (default 64 MiB); a request beyond it gets 503. */
  maxHeldBytes?: number;
  timeoutMs?: number;
  /** Host names besides the proxy's own addresses that a request's Host header may name. */
  allowHosts?: readonly string[];
  /** Header names whose values are secrets, beyond Authorization, Cookie, X-API-Key and the like. */
  secretHeaders?: readonly string[];
  /** A HAR 1.2 file every exchange is written to (redacted) as it completes; a whole document at any moment. */
  har?: string;
  /** TLS toward the target: a CA to trust too, --insecure, and the client certificate of mutual TLS. */
  upstreamTls?: Omit<TransportOptions, 'headers'>;
  /** Called when the target refused the TLS handshake over the client certificate (the cause, in words). */
  onHandshakeRefusal?: (cause: string) => void;
  /** Called for each finding as it is made (the CLI prints them live). */
  onFinding?: (finding: Finding, exchange: TimedExchange) => void;
  /** Called for each request refused without being forwarded (another host, an absolute URL, CONNECT). */
  onRefusal?: (refused: Refusal, method: string) => void;
}

/** An exchange the proxy stopped before it ended. */
export interface CutExchange {
  seq: number;
  method: string;
  url: string;
}

/** How a stop went: the exchanges it cut, and the HAR file's state. */
export interface ProxyStopped {
  /** Exchanges still in flight when the grace ran out, cut (their answers not relayed, not judged). */
  cut: CutExchange[];
  /** Why the HAR file stopped recording early (a full disk), if it did. */
  harFailure?: string;
}

export interface TrafficProxy {
  url: string;
  readonly judge: TrafficJudge;
  /**
   * What the proxy keeps of the exchanges: trimmed copies (bodies cut at 2 KB with their size said,
   * credential headers redacted) of those a finding names (the first ones of each check, as many as
   * its report lists) and of the last few; every other exchange is only counted.
   */
  readonly exchanges: readonly TimedExchange[];
  /** Exchanges the proxy started to relay (refusals aside), in flight ones included. */
  readonly seen: number;
  /** Exchanges in flight now. */
  readonly inFlight: number;
  /** Body bytes the exchanges in flight hold now. */
  readonly heldBytes: number;
  /** The redactor every output of the session passes through (it learns the session's secrets). */
  readonly redactor: Redactor;
  /** Requests refused without being forwarded. */
  readonly refused: number;
  /** The HAR file being written (`har` option), and its entries so far. */
  readonly har: { file: string; entries: number } | undefined;
  /** The session so far as a report (redacted); interrupted when a stop cut exchanges in flight. */
  report(): Report;
  /**
   * Stops: no new connection or request is taken, the exchanges in flight get `graceMs` (default
   * 5 s) to end, then those left are cut (their upstream requests aborted, their clients'
   * connections closed) and the HAR file is closed. `by` (SIGINT, SIGTERM) names the interruption
   * in the report when exchanges were cut. Idempotent.
   */
  stop(graceMs?: number, by?: string): Promise<ProxyStopped>;
  /** Stops at once (no grace). */
  close(): Promise<void>;
}

const flat = (headers: IncomingMessage['headers'] | Record<string, string | string[] | undefined>) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : String(v)]),
  );

/** The body bytes held for exchanges in flight, all together. */
class HeldBytes {
  total = 0;
  constructor(readonly max: number) {}
  /** A hold of one exchange: taken chunk by chunk, given back when the exchange ends. */
  hold() {
    let mine = 0;
    return {
      fits: (n: number) => this.total + n <= this.max,
      take: (n: number): boolean => {
        if (this.total + n > this.max) return false;
        this.total += n;
        mine += n;
        return true;
      },
      release: () => {
        this.total -= mine;
        mine = 0;
      },
    };
  }
}
type Hold = ReturnType<HeldBytes['hold']>;

/**
 * A body read chunk by chunk and held against the budget. A declared length is taken from the
 * budget and allocated at once (the caller checked it), so each chunk is copied in as it comes and
 * the chunks are never held beside their copy; without one, the chunks are joined at the end.
 */
class BodyBytes {
  private whole: Buffer | undefined;
  private chunks: Buffer[] = [];
  size = 0;
  constructor(
    private readonly hold: Hold,
    declared: number,
  ) {
    if (declared > 0) this.whole = Buffer.allocUnsafe(declared);
  }
  /** Adds a chunk; false when the budget has no room left for it. */
  add(chunk: Buffer): boolean {
    if (this.whole && this.size + chunk.length <= this.whole.length) {
      chunk.copy(this.whole, this.size);
      this.size += chunk.length;
      return true;
    }
    if (!this.hold.take(chunk.length)) return false;
    if (this.whole) this.chunks.push(this.whole.subarray(0, this.size));
    this.whole = undefined;
    this.chunks.push(chunk);
    this.size += chunk.length;
    return true;
  }
  /** The bytes read, once; the body holds nothing afterwards. */
  take(): Buffer {
    const bytes = this.whole ? this.whole.subarray(0, this.size) : Buffer.concat(this.chunks);
    this.whole = undefined;
    this.chunks = [];
    return bytes;
  }
}

type Read = { kind: 'whole'; body: Buffer } | { kind: 'too_large' } | { kind: 'over_budget' } | { kind: 'aborted' };

/** The request's body, unless it is over `max`, over what the budget has left, or the client went away. */
function readBody(req: IncomingMessage, max: number, hold: Hold): Promise<Read> {
  const declared = Number(req.headers['content-length'] ?? 0) || 0;
  // What is refused is drained, not held: its bytes are read and dropped.
  if (declared > max || (declared > 0 && !hold.take(declared))) {
    req.resume();
    return Promise.resolve({ kind: declared > max ? 'too_large' : 'over_budget' });
  }
  return new Promise((resolve) => {
    let body: BodyBytes | undefined = new BodyBytes(hold, declared);
    let done = false;
    const finish = (read: Read) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      body = undefined;
      if (read.kind !== 'whole') {
        hold.release();
        if (!req.destroyed) req.resume();
      }
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      if (!body) return;
      if (body.size + chunk.length > max) finish({ kind: 'too_large' });
      else if (!body.add(chunk)) finish({ kind: 'over_budget' });
    };
    req.on('data', onData);
    req.on('end', () => body && finish({ kind: 'whole', body: body.take() }));
    req.on('close', () => finish({ kind: 'aborted' }));
    req.on('error', () => finish({ kind: 'aborted' }));
  });
}

/** Resolves when `res` can take more, or is gone. */
const drained = (res: ServerResponse) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });

const json = (res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}) => {
  if (res.headersSent || res.destroyed) return void res.destroy();
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};

/** An exchange in flight: what a stop names, and how it cuts it. */
interface Flight extends CutExchange {
  abort: AbortController;
  req: IncomingMessage;
  res: ServerResponse;
  /** Set when a stop cut it. */
  cut: boolean;
}

/**
 * A copy of `text` that holds no reference to a longer string: V8 makes a slice of a long string a
 * view of it, so a 2 KB cut of a 15 MiB body would keep the whole body alive.
 */
const detached = (text: string | undefined) => (text === undefined ? undefined : JSON.parse(JSON.stringify(text)));

/** A trimmed copy, as a failing rule's transcript keeps its exchange (core/engine/transcripts.ts). */
const trimmed = (e: TimedExchange): TimedExchange => {
  const copy: TimedExchange = reportTranscript([e], 'fail', e.seq, false).transcript[0];
  return {
    ...copy,
    request: { ...copy.request, ...(copy.request.body !== undefined ? { body: detached(copy.request.body) } : {}) },
    ...(copy.response
      ? {
          response: {
            ...copy.response,
            ...(copy.response.body !== undefined ? { body: detached(copy.response.body) } : {}),
          },
        }
      : {}),
  };
};

const mib = (n: number) => `${+(n / 1024 / 1024).toFixed(2)} MiB`;

export async function startTrafficProxy(options: TrafficProxyOptions): Promise<TrafficProxy> {
  const host = options.host ?? '127.0.0.1';
  const policy: ForwardingPolicy = forwardingPolicy(options.target, host, options.allowHosts);
  const origin = `${policy.origin}${policy.basePath}`;
  const max = options.maxBodyBytes ?? PROXY_MAX_BODY_BYTES;
  const held = new HeldBytes(options.maxHeldBytes ?? PROXY_MAX_HELD_BYTES);
  const timeout = options.timeoutMs ?? 60_000;
  const judge = new TrafficJudge();
  const coverage = new CoverageCounter();
  const redactor = new Redactor();
  const secrets = new TrafficSecrets(redactor, options.secretHeaders);
  let har: HarWriter | undefined;
  if (options.har !== undefined)
    try {
      har = new HarWriter(options.har, (text) => redactor.text(text));
    } catch (error) {
      throw new TrafficProxyError(
        `--har: cannot write ${options.har} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      );
    }
  // The client key and its passphrase are never sent on, never shown.
  for (const secret of clientSecrets(options.upstreamTls)) redactor.add(secret);
  // Its own connection pool, so that a stop can close every connection to the target at once.
  const dispatcher = new Agent({
    headersTimeout: timeout,
    bodyTimeout: timeout,
    ...(options.upstreamTls ? { connect: tlsOptions(options.upstreamTls) } : {}),
  });
  // Whether the target refuses the handshake over the client certificate: asked once when an exchange
  // gets no answer, and again only after one got an answer in between.
  let refusalCheck: Promise<string | undefined> | undefined;
  const handshakeRefusal = () => {
    if (refusalCheck) return refusalCheck;
    refusalCheck = clientCertificateRefusal(origin, options.upstreamTls ?? {}, Math.min(timeout, 10_000)).then(
      (cause) => {
        if (cause) options.onHandshakeRefusal?.(cause);
        return cause;
      },
      () => undefined,
    );
    return refusalCheck;
  };
  let refused = 0;
  const startedAt = new Date();
  let seq = 0;
  let failures = 0;

  // What the report needs of the exchanges: trimmed copies of those a finding names, and the last few.
  const kept = new Map<number, TimedExchange>();
  const named = new Set<number>();
  const namedPerCheck = new Map<CheckName, Set<number>>();
  const recent: number[] = [];
  const retain = (exchange: TimedExchange, findings: Finding[]) => {
    kept.set(exchange.seq, trimmed(exchange));
    recent.push(exchange.seq);
    // As the report lists them (report.ts): the first MAX_EXCHANGES exchanges each check's findings name.
    for (const finding of findings) {
      const mine = namedPerCheck.get(finding.check) ?? new Set<number>();
      namedPerCheck.set(finding.check, mine);
      for (const s of finding.exchanges)
        if (mine.size < MAX_EXCHANGES && !mine.has(s)) {
          mine.add(s);
          named.add(s);
        }
    }
    while (recent.length > KEEP_RECENT) {
      const old = recent.shift()!;
      if (!named.has(old)) kept.delete(old);
    }
  };

  const inFlight = new Map<number, Flight>();
  let settled: (() => void) | undefined;
  let stopping: Promise<ProxyStopped> | undefined;
  let interruption: { by: string; cut: CutExchange[] } | undefined;

  /** Keeps what the report needs of one ended exchange; `judged` false when its request was not read whole. */
  const record = (exchange: TimedExchange, judged: boolean) => {
    // What is kept, written and judged has its credentials redacted, and the session's redactor has
    // learned every secret the exchange carried before any of it can be printed or written.
    const whole = secrets.keep(exchange);
    har?.add(whole, origin);
    coverage.observe(whole);
    if (!whole.response) failures++;
    // A request the proxy did not read whole (too large, over the budget, cut) is no request to judge.
    const findings = judged ? judge.observe(whole) : [];
    retain(whole, findings);
    for (const finding of findings) options.onFinding?.(finding, whole);
  };

  const refuse = (res: ServerResponse, why: Refusal, method: string) => {
    refused++;
    options.onRefusal?.(why, method);
    res
      .writeHead(why.status, { 'content-type': 'application/json', connection: 'close' })
      .end(JSON.stringify({ detail: why.detail, code: why.code }));
  };

  const relay = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    // Refused before its body is read or anything is recorded: it is no exchange with the target.
    const why = refusal(method, req.url ?? '', req.headers.host, policy);
    if (why) {
      req.resume();
      return refuse(res, why, method);
    }
    if (stopping) {
      req.resume();
      return json(
        res,
        503,
        { detail: 'conformance proxy: the proxy is stopping', code: 'proxy_stopping' },
        { connection: 'close' },
      );
    }
    const started = new Date();
    const t0 = performance.now();
    const path = req.url ?? '/';
    const flight: Flight = { seq: ++seq, method, url: path, abort: new AbortController(), req, res, cut: false };
    inFlight.set(flight.seq, flight);
    // A client that goes away ends its exchange: nothing is left waiting on the target for it.
    res.on('close', () => {
      if (!res.writableFinished) flight.abort.abort();
    });
    const hold = held.hold();
    const exchange: TimedExchange = {
      seq: flight.seq,
      startedAt: started,
      request: { method, url: path, headers: flat(req.headers) },
      duration_ms: 0,
    };
    let judged = true;
    const fail = (kind: ExchangeErrorKind, message: string) => {
      exchange.error = { kind, message };
    };
    try {
      let read: Read | undefined = await readBody(req, max, hold);
      if (read.kind !== 'whole') {
        judged = false;
        if (read.kind === 'too_large') {
          fail('too_large', `not relayed: the request body is over ${max} bytes`);
          json(
            res,
            413,
            {
              detail: `conformance proxy: the request body is over ${mib(max)}, the most the proxy relays and judges`,
              code: 'proxy_request_too_large',
            },
            { connection: 'close' },
          );
        } else if (read.kind === 'over_budget') {
          fail(
            'too_large',
            `not relayed: the bodies of the exchanges in flight would hold over ${held.max} bytes (answered 503)`,
          );
          json(
            res,
            503,
            {
              detail: `conformance proxy: the exchanges in flight already hold close to ${mib(held.max)} of bodies, the most the proxy keeps at once; send it again when fewer are in flight`,
              code: 'proxy_busy',
            },
            { connection: 'close', 'retry-after': '1' },
          );
        } else fail('aborted', flight.cut ? 'cut in flight: the proxy stopped' : 'the client went away mid-request');
        return;
      }
      // The bytes are relayed as they came (the text judged may differ from them in invalid UTF-8).
      let sent: Buffer | undefined = read.body;
      read = undefined;
      if (sent.length) exchange.request.body = sent.toString('utf8');
      const upstream = await undiciRequest(upstreamUrl(policy, path)!, {
        method: method as never,
        headers: endToEnd(exchange.request.headers),
        body: sent.length ? sent : undefined,
        dispatcher,
        signal: flight.abort.signal,
      });
      sent = undefined;
      const answerHeaders = flat(upstream.headers);
      // A HEAD answer, a 204 or a 304 declares a length it has no body for.
      const bodiless = method === 'HEAD' || upstream.statusCode === 204 || upstream.statusCode === 304;
      const declared = bodiless ? 0 : Number(answerHeaders['content-length'] ?? 0) || 0;
      const tooLarge = `cut: the answer is over ${max} bytes, the most the proxy relays and judges`;
      const overBudget = `cut: the bodies of the exchanges in flight would hold over ${held.max} bytes`;
      if (declared > max || (declared > 0 && !hold.take(declared))) {
        upstream.body.destroy();
        fail('too_large', declared > max ? tooLarge : overBudget);
        return json(res, 502, {
          detail:
            declared > max
              ? `conformance proxy: the target's answer is over ${mib(max)}, the most the proxy relays and judges`
              : `conformance proxy: the exchanges in flight already hold close to ${mib(held.max)} of bodies, the most the proxy keeps at once`,
          code: declared > max ? 'proxy_response_too_large' : 'proxy_busy',
        });
      }
      // Relayed as it comes, and held (up to the cap) to be judged when it is whole.
      res.writeHead(upstream.statusCode, endToEnd(answerHeaders));
      const answer = new BodyBytes(hold, declared);
      let cut: string | undefined;
      for await (const chunk of upstream.body as AsyncIterable<Buffer>) {
        if (answer.size + chunk.length > max) cut = tooLarge;
        else if (!answer.add(chunk)) cut = overBudget;
        if (cut) break;
        if (!res.write(chunk)) await drained(res);
        if (res.destroyed) break;
      }
      if (cut) {
        // Its head is relayed already: closing the connection is how the client learns it is cut.
        answer.take();
        fail('too_large', cut);
        return void res.destroy();
      }
      if (res.destroyed) return fail('aborted', 'the client went away before the answer was relayed');
      res.end();
      const size = answer.size;
      // Decoded in one expression: no name holds the bytes while the exchange is judged.
      const text = size ? answer.take().toString('utf8') : undefined;
      refusalCheck = undefined;
      exchange.response = {
        status: upstream.statusCode,
        headers: answerHeaders,
        ...(text !== undefined ? { body: text } : {}),
        bytes: size,
      };
    } catch (error) {
      const message = (error as Error).message;
      if (flight.cut) fail('aborted', 'cut in flight: the proxy stopped before the target answered');
      else if (res.destroyed) fail('aborted', 'the client went away before the answer was relayed');
      else {
        const timedOut = /timeout/i.test(message);
        const refused = timedOut ? undefined : await handshakeRefusal();
        fail(timedOut ? 'timeout' : 'other', refused ? `the target refused the TLS handshake: ${refused}` : message);
      }
      if (flight.cut) res.destroy();
      else json(res, 502, { detail: 'conformance proxy: target did not answer' });
    } finally {
      exchange.duration_ms = performance.now() - t0;
      try {
        record(exchange, judged);
      } finally {
        hold.release();
        inFlight.delete(flight.seq);
        if (inFlight.size === 0) settled?.();
      }
    }
  };

  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    relay(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // CONNECT never reaches the request handler: without this, node drops the connection unanswered.
  server.on('connect', (req: IncomingMessage, socket) => {
    const why = refusal('CONNECT', req.url ?? '', req.headers.host, policy)!;
    refused++;
    options.onRefusal?.(why, 'CONNECT');
    const body = JSON.stringify({ detail: why.detail, code: why.code });
    socket.end(
      `HTTP/1.1 ${why.status} Method Not Allowed\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
  } catch (error) {
    har?.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const label = `proxy to ${origin}`;

  /** Resolves when no exchange is in flight, or after `ms`. */
  const quiet = (ms: number) =>
    new Promise<void>((resolve) => {
      if (inFlight.size === 0) return resolve();
      const timer = setTimeout(resolve, ms);
      settled = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const stop = async (graceMs: number, by: string): Promise<ProxyStopped> => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await quiet(graceMs);
    const cut = [...inFlight.values()].map(({ seq: s, method, url }) => ({ seq: s, method, url }));
    for (const flight of inFlight.values()) {
      flight.cut = true;
      flight.abort.abort();
      flight.res.destroy();
      flight.req.destroy();
    }
    // The cut exchanges end (and are recorded) as their aborts land: at once, bounded all the same.
    await quiet(1_000);
    if (cut.length) interruption = { by, cut };
    for (const socket of sockets) socket.destroy();
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    await dispatcher.destroy().catch(() => undefined);
    const harFailure = har?.close();
    return { cut, ...(harFailure ? { harFailure } : {}) };
  };

  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const interruptedBy = () => {
    if (!interruption) return undefined;
    const { by, cut } = interruption;
    // The client's request targets, as data: bounded, their control characters written out.
    const shown = cut.slice(0, NAMED_IN_FLIGHT).map((c) => showControls(capText(`${c.method} ${c.url}`, 200)));
    const more = cut.length > NAMED_IN_FLIGHT ? ` and ${cut.length - NAMED_IN_FLIGHT} more` : '';
    return {
      by,
      reason: `${plural(cut.length, 'exchange')} ${cut.length === 1 ? 'was' : 'were'} in flight when the proxy stopped (${by}), cut and their answers not judged: ${shown.join(', ')}${more}`,
    };
  };

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    judge,
    get exchanges() {
      return [...kept.values()].sort((a, b) => a.seq - b.seq);
    },
    get seen() {
      return seq;
    },
    get inFlight() {
      return inFlight.size;
    },
    get heldBytes() {
      return held.total;
    },
    redactor,
    get refused() {
      return refused;
    },
    get har() {
      return har ? { file: har.file, entries: har.entries } : undefined;
    },
    report: () => {
      const interrupted = interruptedBy();
      return trafficReport(
        judge,
        [...kept.values()].sort((a, b) => a.seq - b.seq),
        { label, startedAt, finishedAt: new Date(), origin },
        redactor,
        coverage.result(),
        {
          requests: seq,
          // An exchange cut but not yet recorded has no answer either.
          failures: failures + (interruption ? inFlight.size : 0),
          ...(interrupted ? { interrupted } : {}),
        },
      );
    },
    stop: (graceMs = PROXY_STOP_GRACE_MS, by = 'stopped') => {
      stopping ??= stop(graceMs, by);
      return stopping;
    },
    close: async () => {
      stopping ??= stop(0, 'closed');
      await stopping;
    },
  };
}
