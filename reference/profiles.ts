/**
 * Variant profiles: sets of legal choices the reference server can make where the spec leaves
 * freedom. Some choices conflict (or need the runner to be configured differently), so they are
 * spread over several profiles. `conformance mutation` runs the whole suite against each one: no
 * MUST rule may fail, and a SHOULD rule only where the profile deliberately takes the other reading
 * (listed in `otherReadings`, and in the kill matrix). Every choice is in docs/freedoms.md.
 */
import { type Choices, faithfulChoices } from './choices.js';
import { loadFixture } from '../src/fixtures.js';
import { reply } from './reply.js';
import type { SettingsPatch } from './seed.js';
import { variantChoices, variantRunConfig } from './variant.js';

/** What a user would configure to run the suite against a server making these choices. */
export interface ProfileRunConfig {
  /** `account.business_contract_identifier_path` (§2.3: position not shown). */
  contractPath?: string;
  /** `auth.graphql_url`, `auth.mutation`, `auth.token_path` (§5.1: not shown). */
  auth?: { graphqlUrl: string; mutation: string; tokenPath: string };
  /**
   * Payload templates per request kind (`payloads.account`, `payloads.business`, …): accounts and
   * businesses this server accepts, where its required fields and values go beyond those shown, and
   * the shapes it gives what §4.2 does not show.
   */
  payloads?: () => Record<string, Record<string, unknown>>;
}

export interface VariantProfile {
  id: string;
  summary: string;
  choices: Choices;
  run: ProfileRunConfig;
  /** Operator settings the profile starts with (the §8 limit, processing time, accepted types). */
  settings?: SettingsPatch;
  /** How long process retries may wait for the §8 limit in a run against this profile. */
  processRetryBudgetMs?: number;
  /** SHOULD rules this profile fails on purpose: it takes the other reading (rule id → why that is legal). */
  otherReadings: Record<string, string>;
}

/** The variant's own values where the spec shows only an example (§2.3 account_type, §2.8 business_type). */
export const DEMANDING_ACCOUNT_TYPES = ['RESIDENCIAL', 'PYME'];
export const DEMANDING_BUSINESS_TYPES = ['SOCIEDAD_LIMITADA', 'SOCIEDAD_ANONIMA'];

/**
 * The payloads a user of the demanding server would configure: the canonical account and business
 * (every documented field, every customer with account_roles, a billing_postcode) with the
 * server's own account_type and business_type.
 */
function demandingPayloads(): Record<string, Record<string, unknown>> {
  const account = loadFixture<Record<string, unknown>>('accounts/electricity');
  const business = loadFixture<{ business: Record<string, unknown> } & Record<string, unknown>>('business/business');
  return {
    account: { ...account, account_type: DEMANDING_ACCOUNT_TYPES[0] },
    business: { ...business, business: { ...business.business, business_type: DEMANDING_BUSINESS_TYPES[0] } },
  };
}

/**
 * A demanding server: it requires fields the spec does not mark required, accepts only its own
 * account_type and business_type values (operator settings, below), looks the account up before
 * validating data requests, and runs with the §8 concurrency limit at 1, slow processing and
 * `Retry-After: 1`.
 */
export const demandingChoices: Choices = {
  ...faithfulChoices,
  requiredAccountFields: ['account_type', 'billing_postcode', 'customers.*.account_roles'],
  accountLookupFirst: true,
  tooManyRequests: () =>
    reply(429, { detail: 'Import capacity reached; retry later.', code: 'throttled' }, { 'retry-after': '1' }),
};

export const VARIANT_PROFILES: readonly VariantProfile[] = [
  {
    id: 'variant',
    summary:
      "other codes, bodies, orders and extra fields; non_field_errors on every create endpoint; first error only; body-less notes alike; a skipped transaction's own status; an unchecked duplicate refused",
    choices: variantChoices,
    run: {
      contractPath: variantRunConfig.contractPath,
      auth: variantRunConfig.auth,
      payloads: () => ({
        agreements: structuredClone(variantRunConfig.agreementsPayload) as unknown as Record<string, unknown>,
      }),
    },
    otherReadings: {
      'transactions.dedup.check-false':
        'With check_previously_added=false the variant refuses a duplicate (a unique constraint): the spec says only that it does not check.',
    },
  },
  {
    id: 'demanding',
    summary:
      "requires billing_postcode, account_type and every customer's account_roles; its own account_type and business_type values; account looked up before the body is validated; §8 limit 1 with slow processing and Retry-After: 1",
    choices: demandingChoices,
    run: { payloads: demandingPayloads },
    settings: {
      concurrency_limit: 1,
      processing_delay_ms: 25,
      account_types: DEMANDING_ACCOUNT_TYPES,
      business_types: DEMANDING_BUSINESS_TYPES,
    },
    processRetryBudgetMs: 60_000,
    otherReadings: {},
  },
];

export function profileById(id: string): VariantProfile | undefined {
  return VARIANT_PROFILES.find((p) => p.id === id);
}
