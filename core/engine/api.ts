/**
 * Calls of the interface by endpoint, as rules make them. Paths come from the spec model's endpoint
 * catalogue; the token is attached unless the rule asks for something else (the §5 rules).
 */
import type { TokenSource } from '../auth/token-source.js';
import { authorizationHeader } from '../auth/token.js';
import type { HttpClient, HttpResponse, Transcript } from '../http/client.js';
import { type EndpointId, endpointPath, model } from '../spec/index.js';

/**
 * `token` (default): `Authorization: Token <token>`; `none`: no Authorization header;
 * `{authorization}`: that literal header; `{scheme}`: the real token under another scheme word
 * (`''` sends the bare token) — so §5 rules can vary the form without ever holding the secret.
 */
export type AuthMode = 'token' | 'none' | { authorization: string } | { scheme: string };

export interface CallOptions {
  body?: unknown;
  rawBody?: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  auth?: AuthMode;
  /** Label for the transcript: what this request is for. */
  step?: string;
}

export class Api {
  constructor(
    private readonly http: HttpClient,
    private readonly tokens: TokenSource,
    private readonly transcript: Transcript,
  ) {}

  private token(): string {
    return this.tokens.current();
  }

  call(endpoint: EndpointId, options: CallOptions = {}): Promise<HttpResponse> {
    const spec = model.endpoints[endpoint];
    return this.request(spec.method, endpointPath(spec, options.params), options);
  }

  /** A request outside the catalogue (for §9 and robustness rules). */
  async request(method: string, path: string, options: CallOptions = {}): Promise<HttpResponse> {
    const auth = options.auth ?? 'token';
    const send = (token: string) => {
      const headers: Record<string, string> = { ...options.headers };
      if (auth === 'token') headers.authorization = authorizationHeader(token);
      else if (auth === 'none') delete headers.authorization;
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
          step: options.step,
        },
        this.transcript,
      );
    };
    const token = this.token();
    const res = await send(token);
    // A 401 to the run's own token mid-run: renew it once (when an API key allows) and retry.
    if (res.status !== 401 || auth !== 'token') return res;
    const renewed = await this.tokens.renew(token);
    return renewed === null ? res : send(renewed);
  }
}
