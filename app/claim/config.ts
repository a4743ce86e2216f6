/**
 * The configuration a claim carries, and what the implementation declared through it. The claim
 * keeps the settings that decide what was judged and drops what is secret — as the configuration
 * digest does (core/config/digest.ts): the token, the API key, the values of extra headers (often a
 * gateway key) and credentials in the base URL. Values are replaced by a word saying so, so a reader
 * sees which settings were given.
 */
import type { ConformanceConfig } from '../../core/config/schema.js';
import type { Statement } from './statement.js';

const REMOVED = '(secret: removed)';

/** The configuration as parsed (defaults filled, ${VAR} interpolated), secrets replaced; and the keys replaced. */
export function withoutSecrets(config: ConformanceConfig): { config: Record<string, unknown>; removed: string[] } {
  const copy = structuredClone(config) as Record<string, unknown> & ConformanceConfig;
  const removed: string[] = [];
  if (copy.auth) {
    for (const key of ['token', 'api_key'] as const)
      if (copy.auth[key] !== undefined) {
        (copy.auth as Record<string, unknown>)[key] = REMOVED;
        removed.push(`auth.${key}`);
      }
  }
  if (copy.headers)
    for (const name of Object.keys(copy.headers)) {
      copy.headers[name] = REMOVED;
      removed.push(`headers.${name}`);
    }
  if (copy.base_url !== undefined && URL.canParse(copy.base_url)) {
    const url = new URL(copy.base_url);
    if (url.username || url.password) {
      url.username = '';
      url.password = '';
      copy.base_url = url.href;
      removed.push('base_url (its credentials)');
    }
  }
  return { config: copy, removed };
}

/** The dot paths of the fixture keys a configuration gives (values left out: they name the operator's data). */
export function fixtureKeys(fixtures: Record<string, unknown> | undefined, at = 'fixtures'): string[] {
  if (!fixtures) return [];
  return Object.entries(fixtures).flatMap(([key, value]) =>
    value === undefined
      ? []
      : value !== null && typeof value === 'object' && !Array.isArray(value) && key !== 'references'
        ? fixtureKeys(value as Record<string, unknown>, `${at}.${key}`)
        : [`${at}.${key}`],
  );
}

/** What the implementation declared: the configured fixtures, or the embedded server's own. */
export function declaredBy(
  embedded: boolean,
  fixtures: Record<string, unknown> | undefined,
  known: boolean,
): Statement['declared'] {
  const limit = (f: Record<string, unknown> | undefined) =>
    typeof f?.concurrency_limit === 'number' ? f.concurrency_limit : null;
  if (embedded)
    return {
      source: 'embedded reference server',
      fixtures: fixtureKeys(fixtures),
      concurrency_limit: limit(fixtures),
      note: 'the run started the reference server, which brings every fixture itself',
    };
  if (!known)
    return {
      source: 'unknown',
      fixtures: null,
      concurrency_limit: null,
      note: 'the configuration the run used was not given to the claim',
    };
  return { source: 'configuration', fixtures: fixtureKeys(fixtures), concurrency_limit: limit(fixtures) };
}
