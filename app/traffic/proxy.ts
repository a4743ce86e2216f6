/**
 * A forwarding proxy that relays every exchange unchanged to the target and judges it as it passes
 * (TrafficJudge): put it between a supplier's migration client and staging (or the reference
 * server) and the session's findings, against the client or the server, come out as a report.
 * Exchanges are kept raw and redacted when they leave (report, HAR), so a token first seen in a
 * later request still never reaches a file.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as undiciRequest } from 'undici';
import { Redactor } from '../../core/http/redact.js';
import { CoverageCounter } from '../../core/report/coverage.js';
import type { Report } from '../../core/report/schema.js';
import { type Finding, TrafficJudge } from './checks.js';
import { endToEnd, type ForwardingPolicy, forwardingPolicy, type Refusal, refusal, upstreamUrl } from './forwarding.js';
import { type TimedExchange, toHar } from './har.js';
import { trafficReport } from './report.js';
import { TrafficSecrets } from './secrets.js';

export interface TrafficProxyOptions {
  /** The implementation the traffic goes to. */
  target: string;
  port?: number;
  /** Loopback by default: a proxy that relays credentials is nobody else's. */
  host?: string;
  /** Largest body relayed and judged, either way (default 16 MiB); larger ones are refused with 413. */
  maxBodyBytes?: number;
  timeoutMs?: number;
  /** Host names besides the proxy's own addresses that a request's Host header may name. */
  allowHosts?: readonly string[];
  /** Header names whose values are secrets, beyond Authorization, Cookie, X-API-Key and the like. */
  secretHeaders?: readonly string[];
  /** Called for each finding as it is made (the CLI prints them live). */
  onFinding?: (finding: Finding, exchange: TimedExchange) => void;
  /** Called for each request refused without being forwarded (another host, an absolute URL, CONNECT). */
  onRefusal?: (refused: Refusal, method: string) => void;
}

export interface TrafficProxy {
  url: string;
  readonly judge: TrafficJudge;
  readonly exchanges: readonly TimedExchange[];
  /** The redactor every output of the session passes through (it learns the session's secrets). */
  readonly redactor: Redactor;
  /** Requests refused without being forwarded. */
  readonly refused: number;
  /** The session so far as a report (redacted). */
  report(): Report;
  /** The session so far as HAR 1.2 (redacted). */
  har(): string;
  close(): Promise<void>;
}

const flat = (headers: IncomingMessage['headers'] | Record<string, string | string[] | undefined>) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : String(v)]),
  );

function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.removeAllListeners('data');
        req.resume();
        resolve('too large');
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startTrafficProxy(options: TrafficProxyOptions): Promise<TrafficProxy> {
  const host = options.host ?? '127.0.0.1';
  const policy: ForwardingPolicy = forwardingPolicy(options.target, host, options.allowHosts);
  const max = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const judge = new TrafficJudge();
  const coverage = new CoverageCounter();
  const exchanges: TimedExchange[] = [];
  const redactor = new Redactor();
  const secrets = new TrafficSecrets(redactor, options.secretHeaders);
  let refused = 0;
  const startedAt = new Date();
  let seq = 0;

  const refuse = (res: ServerResponse, why: Refusal, method: string) => {
    refused++;
    options.onRefusal?.(why, method);
    res
      .writeHead(why.status, { 'content-type': 'application/json', connection: 'close' })
      .end(JSON.stringify({ detail: why.detail, code: why.code }));
  };

  const relay = async (req: IncomingMessage, res: ServerResponse) => {
    // Refused before its body is read or anything is recorded: it is no exchange with the target.
    const why = refusal(req.method ?? 'GET', req.url ?? '', req.headers.host, policy);
    if (why) {
      req.resume();
      return refuse(res, why, req.method ?? 'GET');
    }
    const started = new Date();
    const t0 = performance.now();
    const body = await readBody(req, max);
    const headers = flat(req.headers);
    const path = req.url ?? '/';
    const exchange: TimedExchange = {
      seq: ++seq,
      startedAt: started,
      request: {
        method: req.method ?? 'GET',
        url: path,
        headers,
        ...(body !== 'too large' && body.length ? { body: body.toString('utf8') } : {}),
      },
      duration_ms: 0,
    };
    try {
      if (body === 'too large') {
        res
          .writeHead(413, { 'content-type': 'application/json' })
          .end('{"detail":"request body too large for the proxy"}');
        exchange.error = { kind: 'too_large', message: `request body over ${max} bytes` };
        return;
      }
      const upstream = await undiciRequest(upstreamUrl(policy, path)!, {
        method: exchange.request.method as never,
        headers: endToEnd(headers),
        body: body.length ? body : undefined,
        headersTimeout: options.timeoutMs ?? 60_000,
        bodyTimeout: options.timeoutMs ?? 60_000,
      });
      const answer = Buffer.from(await upstream.body.arrayBuffer());
      const answerHeaders = flat(upstream.headers);
      res.writeHead(upstream.statusCode, endToEnd(answerHeaders));
      res.end(answer);
      exchange.response = {
        status: upstream.statusCode,
        headers: answerHeaders,
        ...(answer.length ? { body: answer.subarray(0, max).toString('utf8') } : {}),
        bytes: answer.length,
      };
    } catch (error) {
      const message = (error as Error).message;
      exchange.error = { kind: /timeout/i.test(message) ? 'timeout' : 'other', message };
      if (!res.headersSent)
        res
          .writeHead(502, { 'content-type': 'application/json' })
          .end(JSON.stringify({ detail: 'proxy: target did not answer' }));
      else res.destroy();
    } finally {
      exchange.duration_ms = performance.now() - t0;
      // What is kept and judged has its credentials redacted, and the session's redactor has learned
      // every secret the exchange carried before any of it can be printed or written.
      const kept = secrets.keep(exchange);
      exchanges.push(kept);
      coverage.observe(kept);
      for (const finding of judge.observe(kept)) options.onFinding?.(finding, kept);
    }
  };

  const server: Server = createServer((req, res) => {
    relay(req, res).catch(() => res.destroy());
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
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const label = `proxy to ${policy.origin}${policy.basePath}`;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    judge,
    exchanges,
    redactor,
    get refused() {
      return refused;
    },
    report: () =>
      trafficReport(
        judge,
        exchanges,
        { label, startedAt, finishedAt: new Date(), origin: `${policy.origin}${policy.basePath}` },
        redactor,
        coverage.result(),
      ),
    har: () => redactor.text(toHar(exchanges, `${policy.origin}${policy.basePath}`)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
