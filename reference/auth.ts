/**
 * §5: every data-import request carries `Authorization: Token <ACCESS_TOKEN>`; a missing or invalid
 * token gives 401. The scheme word is compared case-insensitively, as HTTP auth schemes are.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { ReferenceStore } from './store.js';

export const TOKEN_SCHEME = 'token';

/** The token of a well-formed `Token <value>` header, or null. */
export function tokenFromHeader(header: string | undefined, caseSensitive = false): string | null {
  if (header === undefined) return null;
  const match = /^(\S+) +(\S+)$/.exec(header.trim());
  if (!match) return null;
  if (caseSensitive ? match[1] !== 'Token' : match[1].toLowerCase() !== TOKEN_SCHEME) return null;
  return match[2];
}

export function isValidToken(store: ReferenceStore, token: string | null, now: number): boolean {
  if (token === null) return false;
  const issued = store.tokens.get(token);
  return issued !== undefined && (issued.expiresAt === null || issued.expiresAt > now);
}

/**
 * At most this many issued tokens are kept. Past it, expired tokens are dropped, then the oldest
 * issued ones (a client that obtains a token per request must not grow the server without end).
 * Tokens the operator configured are never dropped.
 */
export const MAX_ISSUED_TOKENS = 10_000;

/** Issues a token for ObtainServiceToken, with the configured lifetime (§5: lifetime not shown). */
export function issueToken(store: ReferenceStore, now: number): { token: string; expiresAt: number | null } {
  const token = randomBytes(20).toString('hex');
  const ttl = store.settings.tokenTtlSeconds;
  const expiresAt = ttl === null ? null : now + ttl * 1000;
  if (store.tokens.size >= MAX_ISSUED_TOKENS) dropTokens(store, now);
  store.tokens.set(token, { expiresAt, issued: true });
  return { token, expiresAt };
}

/** Drops every expired token, then the oldest issued ones until there is room for a tenth more. */
function dropTokens(store: ReferenceStore, now: number): void {
  for (const [token, t] of store.tokens) if (t.expiresAt !== null && t.expiresAt <= now) store.tokens.delete(token);
  let excess = store.tokens.size - Math.floor(MAX_ISSUED_TOKENS * 0.9);
  // A Map iterates in insertion order: the first issued tokens met are the oldest.
  for (const [token, t] of store.tokens) {
    if (excess <= 0) break;
    if (t.issued) {
      store.tokens.delete(token);
      excess--;
    }
  }
}

/** Constant-time comparison of two secrets. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
