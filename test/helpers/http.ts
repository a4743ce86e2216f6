/** A plain HTTP helper for the project's own tests (the runner has its own client). */
import { DEFAULT_TOKEN } from '../../reference/index.js';

export interface Exchange {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  body: any;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is (overrides `body`). */
  raw?: string;
  token?: string | null;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

export function client(baseUrl: string, defaultToken: string | null = DEFAULT_TOKEN) {
  return async function call(method: string, path: string, options: CallOptions = {}): Promise<Exchange> {
    const url = new URL(path, baseUrl);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
    const token = options.token === undefined ? defaultToken : options.token;
    const headers: Record<string, string> = {
      ...(token ? { authorization: `Token ${token}` } : {}),
      ...options.headers,
    };
    let payload: string | undefined;
    if (options.raw !== undefined) payload = options.raw;
    else if (options.body !== undefined) payload = JSON.stringify(options.body);
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
    const res = await fetch(url, { method, headers, body: payload });
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers, text, body };
  };
}

export type Call = ReturnType<typeof client>;

/** A short, unique identifier so tests never collide inside one server. */
let counter = 0;
export const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;
