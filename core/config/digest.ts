/**
 * The digest of the configuration that decides what a run judges at its base URL: the fixtures
 * (which suppliers, accounts and instructions the rules touch), the payload templates, where the
 * contract link sits in the account payload, the token request's address, mutation and token path,
 * the names of the extra headers, and the declared limits (`limits:`, which bound the values the
 * run generates and decide which refusals are limits). A report records it so that `--rerun-failed` can tell the
 * same target from another one.
 *
 * No secret goes in: not the token, the API key or a header's value (a digest of a short secret
 * could be brute-forced back), only settings a report may show anyway. The embedded reference
 * server brings its own fixtures, so they do not count for it.
 */
import { createHash } from 'node:crypto';
import type { FixturesConfig, LimitsConfig } from './schema.js';
import { DEFAULT_MUTATION } from './schema.js';
import type { PayloadTemplatesInput } from './payloads.js';

/** What the digest is made of: the run's settings as given, secrets left out by the type itself. */
export interface DigestInput {
  fixtures?: FixturesConfig;
  payloads?: PayloadTemplatesInput;
  contractPath?: string;
  auth?: { graphqlUrl?: string; mutation?: string; tokenPath?: string };
  /** Header names only: their values are often gateway keys. */
  headerNames?: readonly string[];
  limits?: LimitsConfig;
}

/** The defaults a run fills in, so that a setting left out and the same setting written out digest alike. */
const DEFAULTS = {
  contractPath: 'business.business_contract_identifier',
  graphqlUrl: '/v1/graphql/',
  mutation: DEFAULT_MUTATION,
  tokenPath: 'data.obtainServiceToken.token',
};

/** JSON with the keys of every object sorted: the same settings in another order digest alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** `sha256:` and the first 16 hex digits: enough to tell two configurations apart, short enough to show. */
export function targetConfigDigest(input: DigestInput, embedded: boolean): string {
  const decisive = {
    fixtures: embedded ? {} : (input.fixtures ?? {}),
    payloads: input.payloads ?? {},
    contract_path: input.contractPath ?? DEFAULTS.contractPath,
    graphql_url: input.auth?.graphqlUrl ?? DEFAULTS.graphqlUrl,
    mutation: input.auth?.mutation || DEFAULTS.mutation,
    token_path: input.auth?.tokenPath ?? DEFAULTS.tokenPath,
    header_names: [...(input.headerNames ?? [])].map((n) => n.toLowerCase()).sort(),
    // Left out when none are declared, so a report made before limits counted keeps its digest.
    limits: input.limits && Object.keys(input.limits).length > 0 ? input.limits : undefined,
  };
  return `sha256:${createHash('sha256').update(canonical(decisive)).digest('hex').slice(0, 16)}`;
}
