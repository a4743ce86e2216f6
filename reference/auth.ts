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

/** Issues a token for ObtainServiceToken, with the configured lifetime (§5: lifetime not shown). */
export function issueToken(store: ReferenceStore, now: number): { token: string; expiresAt: number | null } {
  const token = randomBytes(20).toString('hex');
  const ttl = store.settings.tokenTtlSeconds;
  const expiresAt = ttl === null ? null : now + ttl * 1000;
  store.tokens.set(token, { expiresAt });
  return { token, expiresAt };
}

/** Constant-time comparison of two secrets. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
