/**
 * The secrets a stretch of traffic carries, learned before any of it is kept, printed or written
 * (docs/design.md §6). A run knows its secrets from its configuration; the proxy and check-traffic
 * see someone else's session, so they learn them from where the interface and HTTP put them:
 * credential-bearing headers, by name, and the §5.1 ObtainServiceToken mutation — the organisation
 * API key in its variables or written into the query text, and the token it issues in the answer.
 */
import type { Exchange } from '../../core/http/exchange.js';
import type { Redactor } from '../../core/http/redact.js';
import { isPlainObject } from '../../core/spec/paths.js';

/** Names a GraphQL argument, variable or result field carrying a credential is likely to have. */
const CREDENTIAL_NAME = /key|token|secret|password|credential/i;
/** `apiKey: "…"` written into a GraphQL document (a string literal, JSON-like escapes). */
const INLINE_ARGUMENT = /([_A-Za-z][_0-9A-Za-z]*)\s*:\s*"((?:[^"\\\n]|\\.){1,4096})"/g;
/** A string in JSON nested no deeper than this is looked at: a credential sits near the top. */
const MAX_DEPTH = 8;

const parseJson = (text: string | undefined): unknown => {
  if (!text || text.length > 1024 * 1024) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Every string under a credential-like key, at any depth up to MAX_DEPTH. */
function credentialStrings(value: unknown, out: string[], depth = 0, named = false): void {
  if (typeof value === 'string') {
    if (named) out.push(value);
  } else if (Array.isArray(value) && depth < MAX_DEPTH) {
    for (const v of value) credentialStrings(v, out, depth + 1, named);
  } else if (isPlainObject(value) && depth < MAX_DEPTH) {
    for (const [k, v] of Object.entries(value)) credentialStrings(v, out, depth + 1, named || CREDENTIAL_NAME.test(k));
  }
}

/** A GraphQL request (one operation or a batch): the values of its credential-like variables and inline arguments. */
function graphqlRequestSecrets(body: unknown, out: string[]): boolean {
  const operations = (Array.isArray(body) ? body : [body]).filter(
    (op): op is Record<string, unknown> => isPlainObject(op) && typeof op.query === 'string',
  );
  for (const op of operations) {
    credentialStrings(op.variables, out);
    for (const [, name, literal] of (op.query as string).matchAll(INLINE_ARGUMENT))
      if (CREDENTIAL_NAME.test(name)) out.push(parseJson(`"${literal}"`) as string);
  }
  return operations.length > 0;
}

/** `Token abc`, `Bearer abc`, `Basic dXNlcjpwdw==` or a bare `abc`: the credential and, for Basic, what it encodes. */
function authorizationSecrets(value: string, out: string[]): void {
  out.push(value);
  const match = /^(\S+)\s+(\S.*)$/.exec(value.trim());
  if (!match) return;
  out.push(match[2]);
  if (match[1].toLowerCase() === 'basic') {
    const decoded = Buffer.from(match[2], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    out.push(decoded);
    if (colon >= 0) out.push(decoded.slice(colon + 1));
  }
}

/** `a=1; b=2` (Cookie) or `a=1; Path=/` (Set-Cookie): the values. */
const cookieValues = (value: string, setCookie: boolean): string[] =>
  value
    .split(setCookie ? /\n|, (?=[^;=]+=)/ : /;\s*/)
    .map((pair) => (setCookie ? pair.split(';', 1)[0] : pair))
    .map((pair) => pair.slice(pair.indexOf('=') + 1).trim())
    .filter(Boolean);

export class TrafficSecrets {
  /** Names (lower case) of the headers whose values are secrets wherever they appear. */
  private readonly named: Set<string>;

  constructor(
    readonly redactor: Redactor,
    /** More secret-bearing header names (`--secret-header`), beyond those every session has. */
    headerNames: readonly string[] = [],
  ) {
    this.named = new Set(['x-api-key', 'x-operator-key', ...headerNames.map((n) => n.toLowerCase())]);
    for (const name of headerNames) redactor.secretHeader(name);
  }

  /**
   * Learns every secret the exchange carries and returns it with its credential-bearing headers
   * redacted: what the proxy keeps and the judge reads (an Authorization header keeps its scheme
   * word, which is all the judge looks at).
   */
  keep<E extends Exchange>(exchange: E): E {
    this.learn(exchange);
    return this.withoutCredentials(exchange);
  }

  /** The exchange with its credential-bearing headers redacted (its secrets learned already). */
  withoutCredentials<E extends Exchange>(exchange: E): E {
    return {
      ...exchange,
      request: { ...exchange.request, headers: this.redactor.headers(exchange.request.headers) },
      ...(exchange.response
        ? { response: { ...exchange.response, headers: this.redactor.headers(exchange.response.headers) } }
        : {}),
    };
  }

  /** Registers every secret the exchange carries with the redactor. */
  learn(exchange: Exchange): void {
    const found: string[] = [];
    for (const [name, value] of Object.entries(exchange.request.headers)) {
      const lower = name.toLowerCase();
      if (lower === 'authorization' || lower === 'proxy-authorization') authorizationSecrets(value, found);
      else if (lower === 'cookie') for (const v of cookieValues(value, false)) found.push(v);
      else if (this.named.has(lower)) found.push(value);
    }
    for (const [name, value] of Object.entries(exchange.response?.headers ?? {})) {
      const lower = name.toLowerCase();
      if (lower === 'set-cookie') for (const v of cookieValues(value, true)) found.push(v);
      else if (this.named.has(lower)) found.push(value);
    }
    // The §5.1 mutation: the key it sends and the token it is given. Not a path of the interface,
    // so any request whose body is a GraphQL document.
    if (!exchange.request.url.includes('/v1/data-import/')) {
      const request = exchange.request.body?.includes('query') ? parseJson(exchange.request.body) : undefined;
      if (request !== undefined && graphqlRequestSecrets(request, found)) {
        const answer = parseJson(exchange.response?.body);
        credentialStrings(isPlainObject(answer) ? answer.data : undefined, found);
      }
    }
    for (const secret of found) this.redactor.add(secret);
  }
}
