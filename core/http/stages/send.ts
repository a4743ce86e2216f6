/**
 * The send stage: a request as it goes on the wire, and handing it to the connection pool. What
 * comes back is the status and headers with the body still in the socket: reading it is the bound
 * stage's (bound.ts), which is where a body that drips forever or is too large is cut.
 */
import type { Dispatcher } from 'undici';
import type { HttpRequest } from '../request.js';
import { isPlainObject } from '../../spec/paths.js';

/** A request exactly as sent: the only form the redact stage (redact.ts) reads it in. */
export interface WireRequest {
  method: string;
  /** Path and query under the base URL's own path (HttpClient.target). */
  path: string;
  headers: Record<string, string>;
  /** The body sent: `rawBody` as is, or `body` as JSON; undefined for none. */
  payload: string | undefined;
  /**
   * The top-level text fields of a JSON object body, read as it was serialised: what an observer
   * reads of a request (the supplier code, the external number) without parsing the body again.
   */
  fields?: Readonly<Record<string, string>>;
}

/** The text fields at the top of a body that is a plain object; a later change to it is not seen. */
function topFields(body: unknown): Record<string, string> | undefined {
  if (!isPlainObject(body)) return undefined;
  // JSON.stringify writes what toJSON returns: the fields are then not what went out.
  if (typeof (body as { toJSON?: unknown }).toJSON === 'function') return undefined;
  const fields: Record<string, string> = {};
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (typeof value === 'string' && key !== '__proto__') fields[key] = value;
  }
  return fields;
}

/**
 * The request as sent: JSON is asked for, a body is declared JSON, and the configured extra headers
 * (transport.ts: a gateway key) come before the request's own, so a rule can replace any of them (a
 * missing or other Authorization is what some rules send on purpose).
 */
export function wireRequest(req: HttpRequest, path: string, extraHeaders?: Record<string, string>): WireRequest {
  const payload = req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    ...extraHeaders,
    ...req.headers,
  };
  const fields = req.rawBody === undefined ? topFields(req.body) : undefined;
  return { method: req.method, path, headers, payload, ...(fields ? { fields } : {}) };
}

/**
 * Sends the request and waits for the status and headers. undici bounds the wait for the headers and
 * each pause in the body with `timeoutMs`; the whole body is bounded by the bound stage. Failures are
 * undici's errors as thrown (a refused or reset connection, a headers or connect timeout): the
 * client's failure stage (failure.ts) names their kind, this stage does not catch them.
 */
export function sendWire(
  pool: Dispatcher,
  origin: string,
  wire: WireRequest,
  timeoutMs: number,
): Promise<Dispatcher.ResponseData> {
  return pool.request({
    origin,
    method: wire.method as Dispatcher.HttpMethod,
    path: wire.path,
    headers: wire.headers,
    body: wire.payload,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
}
