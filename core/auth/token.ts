/**
 * §5: requests carry `Authorization: Token <ACCESS_TOKEN>`; the token is either configured or
 * obtained through the ObtainServiceToken GraphQL mutation with the organisation API key. The
 * mutation's address, arguments and result are not shown, so all three are configurable.
 */
import { Agent, type Dispatcher, request } from 'undici';
import { capText, showControls } from '../http/bounds.js';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  type ExchangeObserver,
  classify,
  flattenHeaders,
  readWithin,
} from '../http/client.js';
import { type Exchange, type ExchangeErrorKind, clip } from '../http/exchange.js';
import { getAtPath } from '../spec/paths.js';
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
  /**
   * The run's way to the target (proxy, TLS trust), the extra headers it sends everywhere, and who
   * sees the exchange once it is over (a HAR file, the coverage), redacted: the key and the token
   * obtained never reach it.
   */
  via: {
    dispatcher?: Dispatcher;
    headers?: Record<string, string>;
    onExchange?: ExchangeObserver;
    /** Whether a failed connection was the target refusing the TLS handshake over the client certificate, in words. */
    handshakeRefusal?: (kind: ExchangeErrorKind) => Promise<string | undefined>;
  } = {},
  maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES,
): Promise<string> {
  if (!auth.apiKey) throw new AuthError('No API key configured (auth.api_key or CONFORMANCE_API_KEY).');
  const url = graphqlAddress(baseUrl, auth.graphqlUrl);
  const where = `the ObtainServiceToken mutation at ${redactor.text(url)}`;
  let status: number;
  let text: string;
  // The same bounds as every other exchange of the run: a size cap (undici stops reading past it,
  // so an endless answer costs no memory), undici's pauses, and one deadline for the whole answer.
  // A proxy or TLS settings come with the run's own dispatcher, built with the same bounds (connection.ts).
  const own = via.dispatcher
    ? undefined
    : new Agent({
        maxResponseSize: maxResponseBytes,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        connectTimeout: Math.min(timeoutMs, 10_000),
      });
  const dispatcher = via.dispatcher ?? own!;
  const started = performance.now();
  const startedAt = new Date();
  const headers = { ...via.headers, 'content-type': 'application/json', accept: 'application/json' };
  const payload = JSON.stringify({
    query: auth.mutation,
    variables: { apiKey: auth.apiKey },
    operationName: 'ObtainServiceToken',
  });
  // Told once the answer is read and any token in it registered with the redactor.
  const observe = (outcome: Pick<Exchange, 'response' | 'error'>) => {
    try {
      via.onExchange?.(
        {
          seq: 0,
          step: 'ObtainServiceToken (§5.1)',
          request: {
            method: 'POST',
            url: redactor.text(url),
            headers: redactor.headers(headers),
            ...clip(redactor.text(payload)),
          },
          ...outcome,
          duration_ms: performance.now() - started,
        },
        startedAt,
        new URL(url).origin,
      );
    } catch {
      // The observer's own trouble is its to report; it never breaks authentication.
    }
  };
  let responseHeaders: Record<string, string> = {};
  try {
    const res = await request(url, {
      method: 'POST',
      headers,
      body: payload,
      dispatcher,
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = res.statusCode;
    responseHeaders = flattenHeaders(res.headers);
    text = await readWithin(res.body, timeoutMs, started);
  } catch (error) {
    const refused = await via.handshakeRefusal?.(noAnswerKind(error));
    const why = refused
      ? `the server refused the TLS handshake: ${refused}`
      : whyNoAnswer(error, timeoutMs, maxResponseBytes, redactor);
    observe({ error: { kind: noAnswerKind(error), message: why } });
    throw new AuthError(`Could not obtain a token from ${where}: ${why}`);
  } finally {
    void own?.destroy();
  }
  const answered = () =>
    observe({
      response: {
        status,
        headers: redactor.headers(responseHeaders),
        ...clip(redactor.text(text)),
        bytes: Buffer.byteLength(text),
      },
    });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    answered();
    throw new AuthError(
      `${where} answered ${status} with a body that is not JSON${status === 404 || status === 405 ? ` (${ADDRESS_HINT})` : ''}.`,
    );
  }
  const token = getAtPath(body, auth.tokenPath);
  if (typeof token === 'string' && token.length > 0) {
    // Registered before anything else can print it: every token obtained, the first and each renewal.
    redactor.add(token);
    answered();
    return token;
  }
  answered();
  throw new AuthError(
    redactor.text(`${where} answered ${status} without a token: ${noTokenReason(status, body, auth)}`),
  );
}

const ADDRESS_HINT = 'no GraphQL endpoint there: set auth.graphql_url to its address';

/**
 * Why an answer held no token, naming the setting the symptom points to: an address that is not there
 * (404, 405) → auth.graphql_url; errors that the target's schema refuses the mutation's text
 * (an unknown argument or field, a syntax error) → auth.mutation; other errors, most likely the key
 * refused → auth.api_key; an answer without errors and without a token where looked → auth.token_path.
 */
function noTokenReason(status: number, body: unknown, auth: AuthSettings): string {
  const errors = (body as { errors?: { message?: unknown }[] } | null)?.errors;
  const hasErrors = Array.isArray(errors) && errors.length > 0;
  if ((status === 404 || status === 405) && !hasErrors) return ADDRESS_HINT;
  if (hasErrors) {
    const quoted = `errors: ${graphqlErrors(errors)}`;
    if (errors.some(refusesMutationText))
      return `${quoted} (the target's schema refuses the mutation's text: set auth.mutation to the one it takes, with the key as $apiKey)`;
    return `${quoted} (check the API key, auth.api_key / CONFORMANCE_API_KEY; if it is right, auth.mutation)`;
  }
  return `no string at ${auth.tokenPath} (set auth.token_path to where the answer holds the token)`;
}

/** GraphQL's own words for a document its schema refuses (graphql-js and the common servers). */
const SCHEMA_REFUSAL =
  /^(Unknown argument|Unknown type|Unknown operation|Unknown directive|Cannot query field|Syntax Error|Field "[^"]*" argument "[^"]*" of type .* is required|Variable "\$[^"]*" (is never used|of required type|of type)|Argument "[^"]*" has invalid value|Expected type|Field "[^"]*" must not have a selection|Field "[^"]*" of type .* must have a selection)/i;

const refusesMutationText = (e: { message?: unknown; extensions?: { code?: unknown } } | null) => {
  const code = (e as { extensions?: { code?: unknown } } | null)?.extensions?.code;
  if (code === 'GRAPHQL_VALIDATION_FAILED' || code === 'GRAPHQL_PARSE_FAILED') return true;
  return typeof e?.message === 'string' && SCHEMA_REFUSAL.test(e.message);
};

/** GraphQL errors a message quotes, and how many there were: the target's text, bounded and shown as data. */
const GRAPHQL_ERRORS_SHOWN = 5;
const GRAPHQL_MESSAGE_LIMIT = 300;

function graphqlErrors(errors: unknown[]): string {
  const shown = errors.slice(0, GRAPHQL_ERRORS_SHOWN).map((e) => {
    const message = (e as { message?: unknown } | null)?.message;
    return showControls(capText(typeof message === 'string' ? message : String(message), GRAPHQL_MESSAGE_LIMIT));
  });
  const more = errors.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; and ${more} more error${more === 1 ? '' : 's'}` : ''}`;
}

/** The exchange error kind of a failed request (a deadline of our own is a timeout). */
function noAnswerKind(error: unknown) {
  const name = (error as { name?: string }).name;
  return name === 'TimeoutError' || name === 'AbortError' ? ('timeout' as const) : classify(error);
}

/** Why no answer came, in words (never an error code alone, never a secret). */
function whyNoAnswer(error: unknown, timeoutMs: number, maxResponseBytes: number, redactor: Redactor): string {
  const kind = noAnswerKind(error);
  if (kind === 'timeout') return `no complete answer within ${timeoutMs} ms (--timeout / run.timeout_ms)`;
  if (kind === 'too_large') return `the answer is larger than ${Math.round(maxResponseBytes / 1024 / 1024)} MiB`;
  if (kind === 'refused') return 'the connection was refused';
  if (kind === 'reset') return 'the connection was reset';
  const e = error as { message?: string; code?: string; cause?: { message?: string; code?: string } };
  const message = e.cause?.message ?? e.message ?? String(error);
  const code = e.code ?? e.cause?.code;
  return redactor.text(code && !message.includes(code) ? `${message} (${code})` : message);
}
