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
import { type TimedExchange, toHar } from './har.js';
import { trafficReport } from './report.js';

/** Headers that belong to one connection, not to the exchange (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'content-length',
]);

export interface TrafficProxyOptions {
  /** The implementation the traffic goes to. */
  target: string;
  port?: number;
  /** Loopback by default: a proxy that relays credentials is nobody else's. */
  host?: string;
  /** Largest body relayed and judged, either way (default 16 MiB); larger ones are refused with 413. */
  maxBodyBytes?: number;
  timeoutMs?: number;
  /** Called for each finding as it is made (the CLI prints them live). */
  onFinding?: (finding: Finding, exchange: TimedExchange) => void;
}

export interface TrafficProxy {
  url: string;
  readonly judge: TrafficJudge;
  readonly exchanges: readonly TimedExchange[];
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

/** Secrets a session shows in passing: tokens in Authorization headers, API keys in GraphQL variables. */
function secretsIn(headers: Record<string, string>, body: string | undefined): string[] {
  const found: string[] = [];
  const auth = headers.authorization;
  if (auth) found.push(auth.replace(/^\S+\s+/, ''));
  if (body?.includes('"variables"')) {
    try {
      const variables = (JSON.parse(body) as { variables?: Record<string, unknown> }).variables ?? {};
      for (const [name, value] of Object.entries(variables))
        if (typeof value === 'string' && /key|token|secret|password/i.test(name)) found.push(value);
    } catch {
      // Not JSON: nothing to learn from it.
    }
  }
  return found;
}

export async function startTrafficProxy(options: TrafficProxyOptions): Promise<TrafficProxy> {
  const target = new URL(options.target);
  const max = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const judge = new TrafficJudge();
  const coverage = new CoverageCounter();
  const exchanges: TimedExchange[] = [];
  const redactor = new Redactor();
  const startedAt = new Date();
  let seq = 0;

  const relay = async (req: IncomingMessage, res: ServerResponse) => {
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
    for (const s of secretsIn(headers, exchange.request.body)) redactor.add(s);
    try {
      if (body === 'too large') {
        res
          .writeHead(413, { 'content-type': 'application/json' })
          .end('{"detail":"request body too large for the proxy"}');
        exchange.error = { kind: 'too_large', message: `request body over ${max} bytes` };
        return;
      }
      const forward = Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k)));
      const upstream = await undiciRequest(new URL(path, target), {
        method: exchange.request.method as never,
        headers: forward,
        body: body.length ? body : undefined,
        headersTimeout: options.timeoutMs ?? 60_000,
        bodyTimeout: options.timeoutMs ?? 60_000,
      });
      const answer = Buffer.from(await upstream.body.arrayBuffer());
      const answerHeaders = flat(upstream.headers);
      res.writeHead(
        upstream.statusCode,
        Object.fromEntries(Object.entries(answerHeaders).filter(([k]) => !HOP_BY_HOP.has(k))),
      );
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
      exchanges.push(exchange);
      coverage.observe(exchange);
      for (const finding of judge.observe(exchange)) options.onFinding?.(finding, exchange);
    }
  };

  const server: Server = createServer((req, res) => {
    relay(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  const label = `proxy to ${redactor.text(target.origin)}`;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    judge,
    exchanges,
    report: () =>
      trafficReport(
        judge,
        exchanges,
        { label, startedAt, finishedAt: new Date(), origin: target.origin },
        redactor,
        coverage.result(),
      ),
    har: () =>
      redactor.text(
        toHar(
          exchanges.map((e) => ({ ...e, request: { ...e.request, headers: redactor.headers(e.request.headers) } })),
          target.origin,
        ),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
