/**
 * The reference server: a faithful in-memory implementation of the whole spec over node:http.
 * Every request gets an answer — bad JSON, wrong media types, oversized or deeply nested bodies and
 * unknown paths get clear 4xx bodies, a handler bug a 500 — and the process never goes down.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isValidToken, sameSecret, tokenFromHeader } from './auth.js';
import { isJsonMediaType, readBody } from './body.js';
import { LargeBodyBudget, type Release } from '../core/http/large-bodies.js';
import { faithfulChecks } from './checks.js';
import { type Choices, faithfulChoices } from './choices.js';
import type { ActiveFaults } from './faults/active.js';
import { createFaults } from './faults/catalogue.js';
import { delay, yieldToOthers } from './clock.js';
import { type EndpointId, model } from '../core/spec/index.js';
import type { FieldLimits } from './field-limits.js';
import { type StorageLimits, storageRefusal } from './limits.js';
import type { ServerEnv } from './handlers/shared.js';
import { OPERATOR_KEY_HEADER } from './operator.js';
import { throttleFor } from './rate-limit.js';
import { refusal, type Reply } from './reply.js';
import { buildRoutes, matchRoute, type Route } from './routes.js';
import { type SeedDocument, applySeed, defaultSeed } from './seed.js';
import { ReferenceStore } from './store.js';

export interface ReferenceServerOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to listen on; loopback by default. */
  host?: string;
  /** Initial operator setup: `'default'` (the default) is the ready set of seed.ts; `false` starts empty. */
  seed?: SeedDocument | 'default' | false;
  /** Key for the operator API; random when not given. */
  operatorKey?: string;
  /** The server's answers where the spec leaves freedom (see choices.ts). */
  choices?: Choices;
  /** Fault ids from the catalogue (reference/faults) to switch on. */
  faults?: readonly string[];
  /** Clock, for tests. */
  now?: () => Date;
  /**
   * Limits of stored values where the spec shows none (field-limits.ts): longest string, integer
   * range, most items a list; a value past one is a §7.1 400 at its attr. None by default.
   */
  fieldLimits?: FieldLimits;
  /** Largest request body accepted, in bytes (default 10 MiB). */
  maxBodyBytes?: number;
  /** Deepest JSON nesting accepted (default 64). */
  maxJsonDepth?: number;
  /** A request not received completely within this many ms gets 408 (default 60 s; headers within 10 s). */
  requestTimeoutMs?: number;
  /**
   * Caps on stored data (limits.ts): accounts per supplier, bytes of stored JSON per supplier and
   * in all; past one a write is refused (400 `storage_limit_exceeded`). Unset ones keep their defaults.
   */
  storageLimits?: Partial<StorageLimits>;
  /** Called once per answered request (e.g. `serve --verbose`). */
  onRequest?: (entry: { method: string; path: string; status: number; ms: number }) => void;
}

export interface ReferenceServer {
  /** Base URL of the interface, e.g. `http://127.0.0.1:40123`. */
  url: string;
  host: string;
  port: number;
  operatorKey: string;
  /** The in-memory state, for tests and embedding. */
  store: ReferenceStore;
  close(): Promise<void>;
}

const DATA_IMPORT_PREFIX = '/v1/data-import/';

/** Longest request target (path and query) accepted; longer ones get 414. */
const MAX_URL_CHARS = 8 * 1024;
/** Most header bytes accepted (names and values); more get 431. */
const MAX_HEADER_BYTES = 16 * 1024;
/** Node's parser refuses past this (also 431, from clientError). */
const PARSER_HEADER_BYTES = 64 * 1024;

const CLIENT_ERROR_CODES: Record<number, string> = {
  400: 'bad_request',
  408: 'request_timeout',
  431: 'request_header_fields_too_large',
};

/** A complete HTTP/1.1 answer for a socket node has not made a response object for. */
function rawAnswer(status: number, body: { code: string; detail: string }, extraHeaders = ''): string {
  const text = JSON.stringify(body);
  const reason =
    { 400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' }[
      status
    ] ?? 'Error';
  return `HTTP/1.1 ${status} ${reason}\r\n${extraHeaders}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`;
}

/** Past this size, reading, validating, handling and answering a request are separate turns of the event loop. */
const LARGE_BODY_CHARS = 64 * 1024;

export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const store = new ReferenceStore();
  const seed = options.seed ?? 'default';
  store.limits = { ...store.limits, ...definedOnly(options.storageLimits) };
  if (seed !== false) applySeed(store, seed === 'default' ? defaultSeed() : seed);
  const faults = createFaults(options.faults ?? []);
  const env: ServerEnv = {
    store,
    choices: options.choices ?? faithfulChoices,
    checks: faults.checks(faithfulChecks),
    now: options.now ?? (() => new Date()),
    ...(options.fieldLimits ? { fieldLimits: options.fieldLimits } : {}),
  };
  const operatorKey = options.operatorKey ?? randomBytes(12).toString('hex');
  const limits = { body: options.maxBodyBytes ?? 10 * 1024 * 1024, depth: options.maxJsonDepth ?? 64 };
  // Large bodies are read, parsed and handled a body limit's worth at a time; the rest wait their turn
  // unread (large-bodies.ts), so a flood of them costs the memory of one, not of all at once.
  const largeBodies = new LargeBodyBudget(limits.body);
  // A rate-limited profile (rate-limit.ts) refuses some authenticated requests before their handler.
  const throttle = throttleFor(env.choices);
  const routes = buildRoutes(env.choices.graphql.path).map((r) => {
    const handler = faults.wrap(r.endpoint, r.handler);
    if (!throttle || r.access !== 'token' || !r.endpoint) return { ...r, handler };
    const endpoint = r.endpoint;
    return { ...r, handler: ((q, e) => throttle(endpoint, e.now()) ?? handler(q, e)) as typeof handler };
  });

  // The parser's own limit is set above ours, so that most oversized requests still reach the
  // handler and get the precise status: 414 for a long URL, 431 for too many header bytes.
  const requestTimeout = options.requestTimeoutMs ?? 60_000;
  // Stalled requests are looked for every second (node's default is every 30 s).
  const server = createServer(
    {
      maxHeaderSize: PARSER_HEADER_BYTES,
      requestTimeout,
      headersTimeout: Math.min(10_000, requestTimeout),
      connectionsCheckingInterval: Math.min(1_000, requestTimeout),
    },
    (req, res) => {
      const started = performance.now();
      let release: Release | undefined;
      const beforeLarge = async (bytes: number) => {
        release = await largeBodies.take(bytes);
      };
      handle(req, routes, env, faults, operatorKey, { ...limits, beforeLarge })
        .catch((error: unknown) => {
          process.emitWarning(
            `reference server: unexpected error: ${error instanceof Error ? error.stack : String(error)}`,
          );
          return refusal(500, 'server_error', 'Internal server error.');
        })
        .then(async (answer) => {
          await delay(store.settings.responseDelayMs);
          if (isLarge(answer.body)) await yieldToOthers(); // serialising it is a turn of its own
          send(res, answer);
          options.onRequest?.({
            method: req.method ?? '',
            path: req.url ?? '',
            status: answer.status,
            ms: performance.now() - started,
          });
        })
        .catch(() => res.destroy())
        .finally(() => release?.());
    },
  );
  // Requests node's parser refuses: the status says why (a timeout is 408, header overflow 431).
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return void socket.destroy();
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    socket.end(
      rawAnswer(status, {
        code: CLIENT_ERROR_CODES[status],
        detail: `The request was refused before it could be read (${error.code ?? 'parse error'}).`,
      }),
    );
  });
  // CONNECT (a proxy tunnel) is not something this interface offers: answer instead of hanging up.
  server.on('connect', (_req, socket) => {
    socket.end(
      rawAnswer(
        405,
        { code: 'method_not_allowed', detail: 'CONNECT is not supported.' },
        'Allow: GET, POST, PUT, PATCH, DELETE\r\n',
      ),
    );
  });

  const host = options.host ?? '127.0.0.1';
  await listen(server, options.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    operatorKey,
    store,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function definedOnly<T extends object>(values: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(values ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function handle(
  req: IncomingMessage,
  routes: Route[],
  env: ServerEnv,
  faults: ActiveFaults,
  operatorKey: string,
  limits: { body: number; depth: number; beforeLarge: (bytes: number) => Promise<void> },
): Promise<Reply & { close?: boolean }> {
  const method = req.method ?? 'GET';
  if ((req.url ?? '').length > MAX_URL_CHARS)
    return {
      ...refusal(414, 'uri_too_long', `The request target is longer than ${MAX_URL_CHARS} characters.`),
      close: true,
    };
  const headerBytes = req.rawHeaders.reduce((sum, part) => sum + part.length + 2, 0);
  if (headerBytes > MAX_HEADER_BYTES)
    return {
      ...refusal(
        431,
        'request_header_fields_too_large',
        `The request headers are larger than ${MAX_HEADER_BYTES} bytes.`,
      ),
      close: true,
    };
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://reference.invalid');
  } catch {
    return refusal(400, 'bad_request', 'The request target is not a valid path.');
  }
  const path = url.pathname;

  const match = matchRoute(routes, method, path);

  // §5.3: data-import requests are authenticated before anything else is said about them.
  if (path.startsWith(DATA_IMPORT_PREFIX)) {
    const faithful = isValidToken(
      env.store,
      tokenFromHeader(req.headers.authorization, env.choices.tokenSchemeCaseSensitive),
      env.now().getTime(),
    );
    const endpoint = match.kind === 'found' ? match.route.endpoint : undefined;
    const allowed = faults.any ? faults.authenticate(endpoint, req.headers.authorization, faithful, env) : faithful;
    if (!allowed) return env.choices.unauthorized();
  }

  if (match.kind === 'not_found') {
    const hint = path.endsWith('/') ? '' : ' Paths of this interface end with a slash.';
    return env.choices.notFound(`No such endpoint: ${method} ${path}.${hint}`);
  }
  if (match.kind === 'bad_path') return refusal(400, 'bad_request', 'A path parameter is not valid percent-encoding.');
  if (match.kind === 'method_not_allowed') {
    return {
      ...refusal(405, 'method_not_allowed', `Method ${method} is not allowed here.`),
      headers: { allow: match.allowed.join(', ') },
    };
  }
  const { route, params } = match;

  if (route.access === 'operator') {
    const key = req.headers[OPERATOR_KEY_HEADER];
    if (typeof key !== 'string' || !sameSecret(key, operatorKey)) {
      return refusal(401, 'operator_key_required', `The operator API needs the ${OPERATOR_KEY_HEADER} header.`);
    }
  }

  let body: unknown;
  let large = false;
  if (method !== 'GET') {
    const read = await readBody(req, { limit: limits.body, depth: limits.depth, beforeLarge: limits.beforeLarge });
    if (read.kind === 'too_large')
      return {
        ...refusal(413, 'payload_too_large', `The request body is larger than ${limits.body} bytes.`),
        close: true,
      };
    if (read.kind === 'not_utf8') return refusal(400, 'parse_error', 'The request body is not valid UTF-8.');
    if (read.kind === 'aborted')
      return { ...refusal(400, 'bad_request', 'The request body was not received completely.'), close: true };
    if (read.text.trim() !== '') {
      if (!isJsonMediaType(req.headers['content-type'])) {
        return refusal(415, 'unsupported_media_type', 'Request bodies must be JSON (Content-Type: application/json).');
      }
      if (read.tooDeep) return refusal(400, 'parse_error', `JSON nested deeper than ${limits.depth} levels.`);
      // Parsing is one long step: other clients are answered before it, and after it.
      large = read.text.length > LARGE_BODY_CHARS;
      if (large) await yieldToOthers();
      try {
        body = JSON.parse(read.text);
      } catch (error) {
        return refusal(400, 'parse_error', `JSON parse error: ${(error as Error).message}`);
      }
      if (large) await yieldToOthers();
    } else if (route.access !== 'operator') {
      return refusal(400, 'parse_error', 'A JSON request body is required.');
    }
  }

  if (env.choices.keysTrimmedOnInput) body = trimmedKeys(body);
  const claim = claimStorage(env.store, route.endpoint, body);
  // What an endpoint that stores is sent may be kept for the rest of the run: one copy of each short string.
  if (claim?.ok) body = env.store.strings.share(body);
  if (claim && !claim.ok) return storageRefusal(claim.detail);
  // Measuring a large body's stored size was a step of its own too.
  if (claim && large) await yieldToOthers();
  let answer: Reply;
  try {
    answer = await route.handler(
      { endpoint: route.endpoint, params, query: url.searchParams, body, headers: req.headers },
      env,
    );
  } catch (error) {
    claim?.claim.release();
    throw error;
  }
  if (claim) answer.status >= 200 && answer.status < 300 ? claim.claim.commit() : claim.claim.release();
  return env.choices.present ? env.choices.present(answer, route.endpoint) : answer;
}

/**
 * Storage for a request that keeps its body (limits.ts), claimed before the handler runs so that
 * simultaneous requests cannot pass a cap together; undefined when the request stores nothing.
 */
function claimStorage(store: ReferenceStore, endpoint: EndpointId | undefined, body: unknown) {
  if (endpoint === undefined || !model.endpoints[endpoint].stores || typeof body !== 'object' || body === null)
    return undefined;
  const fields = body as {
    import_supplier?: unknown;
    import_supplier_code?: unknown;
    external_account_number?: unknown;
  };
  const supplier = fields.import_supplier ?? fields.import_supplier_code;
  if (typeof supplier !== 'string') return undefined; // refused by validation: nothing is stored
  const { limits } = store;
  let account: string | undefined;
  if (endpoint === 'stageAccount') {
    if (typeof fields.external_account_number !== 'string') return undefined;
    account = fields.external_account_number;
    if (!store.process(supplier, account) && store.processCount(supplier) >= limits.maxAccountsPerSupplier)
      return {
        ok: false as const,
        detail: `Storage limit reached: supplier ${supplier} has ${store.processCount(supplier)} accounts, the most this server keeps per supplier.`,
      };
  }
  return store.storage.claim(limits, supplier, Buffer.byteLength(JSON.stringify(body)), account);
}

/** An answer listing thousands of items (e.g. one result per note of a bulk request). */
function isLarge(body: unknown): boolean {
  const list = Array.isArray(body) ? body : (body as { results?: unknown } | undefined)?.results;
  return Array.isArray(list) && list.length > 1000;
}

function send(res: ServerResponse, answer: Reply & { close?: boolean }): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...answer.headers };
  if (answer.close) headers.connection = 'close';
  if (answer.body === undefined) {
    res.writeHead(answer.status, { ...headers, 'content-length': '0' });
    res.end();
  } else {
    const text = JSON.stringify(answer.body);
    // A reply may label its body itself (a fault does); the service's bodies are JSON (§4).
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      ...headers,
      'content-length': String(Buffer.byteLength(text)),
    });
    res.end(text);
  }
  if (answer.close) res.once('finish', () => res.socket?.destroySoon());
}

/** The keys a request names its subjects by (§2.2, §2.3, §2.8). */
const KEY_NAMES = new Set([
  'import_supplier',
  'import_supplier_code',
  'external_account_number',
  'external_business_identifier',
]);

/** `body` with every key (at any depth) trimmed, as a server that trims strings on input reads it. */
function trimmedKeys(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(trimmedKeys);
  if (body === null || typeof body !== 'object') return body;
  return Object.fromEntries(
    Object.entries(body).map(([k, v]) => [k, KEY_NAMES.has(k) && typeof v === 'string' ? v.trim() : trimmedKeys(v)]),
  );
}
