/**
 * §5: requests carry `Authorization: Token <ACCESS_TOKEN>`; the token is either configured or
 * obtained through the ObtainServiceToken GraphQL mutation with the organisation API key. The
 * mutation's address, arguments and result are not shown, so all three are configurable.
 */
import { type Dispatcher, request } from 'undici';
import type { Redactor } from '../http/redact.js';

/** Authentication failed before any rule ran: exit code 3. */
export class AuthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthError';
  }
}

export interface AuthSettings {
  token?: string;
  apiKey?: string;
  graphqlUrl: string;
  mutation: string;
  tokenPath: string;
}

export const authorizationHeader = (token: string) => `Token ${token}`;

/** Reads a dot path (`data.obtainServiceToken.token`) out of a parsed JSON value. */
export function atPath(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** The absolute address of the GraphQL endpoint: absolute as given, or relative to the base URL. */
export function graphqlAddress(baseUrl: string, graphqlUrl: string): string {
  if (/^https?:\/\//i.test(graphqlUrl)) return graphqlUrl;
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  return new URL(`${prefix}${graphqlUrl.startsWith('/') ? '' : '/'}${graphqlUrl}`, base.origin).toString();
}

/** Exchanges the API key for a token. Never puts the key or the token into a message. */
export async function obtainServiceToken(
  baseUrl: string,
  auth: AuthSettings,
  timeoutMs: number,
  redactor: Redactor,
  /** The run's way to the target (proxy, TLS trust) and the extra headers it sends everywhere. */
  via: { dispatcher?: Dispatcher; headers?: Record<string, string> } = {},
): Promise<string> {
  if (!auth.apiKey) throw new AuthError('No API key configured (auth.api_key or CONFORMANCE_API_KEY).');
  const url = graphqlAddress(baseUrl, auth.graphqlUrl);
  const where = `the ObtainServiceToken mutation at ${redactor.text(url)}`;
  let status: number;
  let text: string;
  try {
    const res = await request(url, {
      method: 'POST',
      headers: { ...via.headers, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: auth.mutation, variables: { apiKey: auth.apiKey }, operationName: 'ObtainServiceToken' }),
      signal: AbortSignal.timeout(timeoutMs),
      ...(via.dispatcher ? { dispatcher: via.dispatcher } : {}),
    });
    status = res.statusCode;
    text = await res.body.text();
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
    throw new AuthError(`Could not reach ${where}: ${redactor.text(code ?? (error as Error).message)}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AuthError(`${where} answered ${status} with a body that is not JSON.`);
  }
  const token = atPath(body, auth.tokenPath);
  if (typeof token === 'string' && token.length > 0) {
    redactor.add(token);
    return token;
  }
  const errors = (body as { errors?: { message?: unknown }[] }).errors;
  const reason = Array.isArray(errors) && errors.length
    ? `errors: ${errors.map((e) => String(e.message)).join('; ')}`
    : `no string at ${auth.tokenPath} (set auth.token_path)`;
  throw new AuthError(redactor.text(`${where} answered ${status} without a token: ${reason}`));
}
