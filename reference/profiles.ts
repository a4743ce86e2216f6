/**
 * Variant profiles: named sets of freedoms (freedoms.ts) a reference server takes, each a full set
 * of decisions (the `Choices` of choices.ts) with the run settings a user would configure for such a
 * server. Each is a second faithful server: the suite must pass it as cleanly as the faithful one,
 * which shows that no rule asserts something the spec leaves open (docs/design.md §2). Some
 * choices conflict (or need the runner to be configured differently), so they are spread over
 * several profiles. `conformance mutation` runs the whole suite against each one: no MUST rule may
 * fail, and a SHOULD rule only where the profile deliberately takes the other reading (listed in
 * `otherReadings`, and in the kill matrix).
 */
import { loadFixture } from '../core/spec/fixtures.js';
import { type Choices, faithfulChoices } from './choices.js';
import { COLUMN_LIMITS, type FieldLimits, LIMITED_BODY_BYTES } from './field-limits.js';
import { rateLimited } from './rate-limit.js';
import { refusal, reply, type Reply } from './reply.js';
import type { SettingsPatch } from './seed.js';

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
  /**
   * Server options the profile starts with, each composable with the others: the limits of stored
   * values (field-limits.ts) and the largest body.
   */
  server?: { fieldLimits?: FieldLimits; maxBodyBytes?: number };
  /** Operator settings the profile starts with (the §8 limit, processing time, accepted types). */
  settings?: SettingsPatch;
  /** How long process retries may wait for the §8 limit in a run against this profile. */
  processRetryBudgetMs?: number;
  /** SHOULD rules this profile fails on purpose: it takes the other reading (rule id → why that is legal). */
  otherReadings: Record<string, string>;
}

// The variant: a different legal choice everywhere the spec leaves freedom -------------------

/** Error codes of the variant (§7.1: only two example codes are shown; the rest are free). */
const CODES: Record<string, string> = {
  required: 'missing_field',
  null: 'null_value',
  blank: 'empty_value',
  invalid_type: 'wrong_type',
  not_a_list: 'expected_list',
  invalid_integer: 'expected_integer',
  invalid_choice: 'not_allowed',
  invalid_date: 'bad_date',
  invalid_datetime: 'bad_datetime',
  invalid_email: 'bad_email',
  invalid_phone_number: 'bad_phone',
  invalid_decimal: 'bad_decimal',
  does_not_exist: 'unknown_reference',
  unique: 'duplicate',
  note_without_content: 'empty_note',
  invalid_date_range: 'range_reversed',
  invalid_boolean: 'bad_boolean',
};

/** §2.1 datetimes the service writes: the variant uses microseconds and a numeric offset. */
const DATETIME_FIELDS = new Set(['created_at', 'account_created_at']);
const respell = (value: unknown) =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value)
    ? value.replace('Z', '.000000+00:00')
    : value;

let requestSeq = 0;

/** Document paths echoed with a leading slash (§2.1: accepted with or without). */
const slashed = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(slashed);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        (k === 'document_path' || k === 'statement_path') && typeof v === 'string' && !v.startsWith('/')
          ? `/${v}`
          : slashed(v),
      ]),
    );
  }
  return value;
};

/**
 * §7.1: "The agreements, supply-points and some other create endpoints report validation errors
 * under non_field_errors" — which others is not shown: the variant does so on every endpoint that
 * takes a body, except validate (which creates nothing).
 */
export function nonFieldErrorsOnCreateEndpoints(answer: Reply, endpoint: string | undefined): Reply {
  const body = answer.body as { errors?: { attr: string }[] } | undefined;
  if (answer.status !== 400 || endpoint === 'validateAccount' || !body || !Array.isArray(body.errors)) return answer;
  return { ...answer, body: { ...body, errors: body.errors.map((e) => ({ ...e, attr: 'non_field_errors' })) } };
}

/** §7.1 never says every error of a payload is reported: the variant stops at the first. */
export function firstErrorOnly(answer: Reply): Reply {
  const body = answer.body as { errors?: unknown[] } | undefined;
  if (answer.status !== 400 || !body || !Array.isArray(body.errors) || body.errors.length < 2) return answer;
  return { ...answer, body: { ...body, errors: body.errors.slice(0, 1) } };
}

/**
 * §3: "TRANSACTION_IMPORT_SUCCESS also appears in a status field inside transaction_data" — it
 * appears (on added transactions); a skipped one carries its own status there.
 */
export function transactionDataStatusMirrorsItem(answer: Reply, endpoint: string | undefined): Reply {
  const body = answer.body as
    | { results?: { status: string; transaction_data?: Record<string, unknown> }[] }
    | undefined;
  if (endpoint !== 'createTransactions' || answer.status !== 201 || !body || !Array.isArray(body.results))
    return answer;
  const results = body.results.map((r) => ({
    ...r,
    transaction_data: {
      ...r.transaction_data,
      status: r.status === 'TRANSACTION_ADDED_TO_ACCOUNT' ? 'TRANSACTION_IMPORT_SUCCESS' : r.status,
    },
  }));
  return { ...answer, body: { ...body, results } };
}

/** §4.2: the order of the notes and transactions results is not stated: the variant reverses them. */
export function resultsReversed(answer: Reply, endpoint: string | undefined): Reply {
  if (answer.status !== 201) return answer;
  if (endpoint === 'createNotes' && Array.isArray(answer.body)) return { ...answer, body: [...answer.body].reverse() };
  const body = answer.body as { results?: unknown[] } | undefined;
  if (endpoint === 'createTransactions' && body && Array.isArray(body.results))
    return { ...answer, body: { ...body, results: [...body.results].reverse() } };
  return answer;
}

/** Extra fields (§9.2: the interface grows), other codes and wording, other orderings. */
function present(answer: Reply, endpoint: string | undefined): Reply {
  answer = resultsReversed(
    transactionDataStatusMirrorsItem(firstErrorOnly(nonFieldErrorsOnCreateEndpoints(answer, endpoint)), endpoint),
    endpoint,
  );
  return presentOtherwise(answer, endpoint);
}

/** Codes, wording, extra fields, datetime spellings and listing orders of the variant. */
function presentOtherwise(answer: Reply, endpoint: string | undefined): Reply {
  if (answer.body === undefined || answer.body === null || typeof answer.body !== 'object') return answer;
  if (answer.status < 300 && (endpoint === 'validateAccount' || endpoint === 'createHistoricalStatements'))
    answer = { ...answer, body: slashed(answer.body) };
  // The imported listing's body is not shown: the variant pages it.
  if (endpoint === 'importedAccountImportProcesses' && answer.status === 200 && Array.isArray(answer.body)) {
    const results = [...(answer.body as Record<string, unknown>[])].reverse().map((r) => ({
      account: r.service_account_number,
      external: r.external_account_number,
      created: respell(r.account_created_at),
    }));
    return { ...answer, body: { count: results.length, next: null, results } };
  }
  const requestId = `req-${++requestSeq}`;
  if (Array.isArray(answer.body)) {
    const items = (answer.body as Record<string, unknown>[]).map((item) =>
      item && typeof item === 'object'
        ? Object.fromEntries([
            ...Object.entries(item).map(([k, v]) => [k, DATETIME_FIELDS.has(k) ? respell(v) : v]),
            ['import_batch', null],
          ])
        : item,
    );
    // Listings newest first: the spec shows no order.
    return { ...answer, body: endpoint?.endsWith('AccountImportProcesses') ? items.reverse() : items };
  }
  const body = { ...(answer.body as Record<string, unknown>) };
  for (const k of Object.keys(body)) if (DATETIME_FIELDS.has(k)) body[k] = respell(body[k]);
  if (Array.isArray(body.errors)) {
    // Items of another shape (not §7.1 items) are passed on as they are.
    body.errors = (body.errors as unknown[]).map((item) => {
      if (!item || typeof item !== 'object') return item;
      const e = item as { code?: unknown; detail?: unknown; attr?: unknown };
      const code = typeof e.code === 'string' ? (CODES[e.code] ?? e.code) : e.code;
      const detail =
        typeof e.detail === 'string' ? `Problem with ${String(e.attr)}: ${e.detail.toLowerCase()}` : e.detail;
      return { ...e, code, detail, source: 'body' };
    });
    if (body.code === 'account_failed_validation') body.code = 'invalid_account';
    else if (body.code === 'invalid_input') body.code = 'invalid_request';
    body.detail = 'The request could not be accepted.';
  }
  body.request_id = requestId;
  return { ...answer, body, headers: { ...answer.headers, 'x-request-id': requestId } };
}

export const variantChoices: Choices = {
  statementPeriodsApart: true,
  accountNumber: (sequence) => String(9_000_000_000 + sequence * 37),
  businessId: (sequence) => 500_000 + sequence * 3,
  historicalStatementsStatus: 200,
  refuseUndocumentedFields: false,
  unauthorized: () => reply(401, undefined, { 'www-authenticate': 'Token realm="data-import"' }),
  notFound: () => reply(404, { error: 'Not Found' }),
  tooManyRequests: () =>
    reply(429, { message: 'Too many concurrent imports; try again shortly.' }, { 'retry-after': '2' }),
  dryRunWouldSucceed: () =>
    reply(400, {
      message: 'Dry run: the import would have succeeded; all changes were rolled back.',
      rolled_back: true,
    }),
  alreadyImported: (externalAccountNumber, serviceAccountNumber) =>
    reply(400, {
      message: 'Account previously imported.',
      external_account_number: externalAccountNumber,
      service_account_number: serviceAccountNumber,
    }),
  stagingRefused: (reason) =>
    refusal(400, 'staging_refused', 'Staging is not possible for this account.', {
      errors: [
        {
          attr: 'non_field_errors',
          code: reason === 'skipped' ? 'account_marked_skipped' : `supplier_${reason.toLowerCase()}`,
          detail: `Refused: ${reason}.`,
        },
      ],
    }),
  processRefused: (reason) =>
    ({
      team: reply(422, { message: 'Unknown operations team.' }),
      not_staged: reply(404, { message: 'Nothing staged for this account.' }),
      in_progress: reply(409, { message: 'An import of this account is running.' }),
    })[reason],
  vendorPersistentFailure: () =>
    reply(400, {
      detail: 'Vendor rejected the request.',
      code: 'vendor_rejected',
      errors: [
        { attr: 'reference', code: 'vendor_rejected', detail: 'The vendor cannot be reached for this instruction.' },
      ],
    }),
  vendorIntermittentFailure: () => reply(500, { error: { type: 'vendor_timeout', retry: true } }),
  ledgerAlreadyFinalized: (ledgerCode) => reply(409, { message: `Ledger ${ledgerCode} is finalized.` }),
  businessAlreadyExists: (existingId, externalIdentifier) =>
    reply(200, { service_business_id: existingId, external_business_identifier: externalIdentifier }),
  importedListingPages: null,
  emptyResultFields: 'null',
  unknownSupplierListing: 'empty',
  invalidTransactionBody: 'import_error',
  tokenSchemeCaseSensitive: true,
  keysTrimmedOnInput: true,
  existingNoteCreatedAt: 'sent',
  forcedTransactionDescription: false,
  requiredAccountFields: ['account_type', 'customers'],
  bodylessNotesMatch: 'body',
  uncheckedDuplicateTransaction: 'refuse',
  accountLookupFirst: false,
  acceptIsoDatetimeVariants: true,
  contractPath: 'contract.business_contract_identifier',
  closedTransactionVocabularies: true,
  openPeriodEndsAfterDays: 62,
  atomicTransactionRequests: false,
  booleanSpellings: 'exact',
  unknownLedger: 'create',
  agreementsShape: 'nested',
  unknownBusiness: 'validation',
  localTimeOffsetMinutes: 0,
  graphql: { path: '/graphql', tokenField: 'accessToken' },
  present,
};

/**
 * What a runner must be told to check the variant (its choices where the spec leaves the
 * configuration to the user): the contract link's position, the agreements payload, the mutation.
 */
export const variantRunConfig = {
  contractPath: variantChoices.contractPath,
  auth: {
    graphqlUrl: '/graphql',
    mutation:
      'mutation ObtainServiceToken($apiKey: String!) { obtainServiceToken(input: {APIKey: $apiKey}) { accessToken } }',
    tokenPath: 'data.obtainServiceToken.accessToken',
  },
  agreementsPayload: {
    import_supplier: '{{import_supplier}}',
    external_account_number: '{{external_account_number}}',
    supply_points: [
      {
        identifier: '{{supply_point_identifier}}',
        agreements: [{ tariff_code: '2.0TD', effective_from: '2025-01-01', effective_to: '2025-12-31' }],
      },
    ],
  },
} as const;

// The demanding server: stricter where the spec lets it be ------------------------------------

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

// The paginated server: pages where the body is not shown, omission where §2.1 asks for it -----

/**
 * The imported listing (§4.3: "response body: not shown") in pages of ten (`{count, next,
 * previous, results}`, absolute `next` links, as Django REST framework writes them), and result
 * items that omit an optional field carrying no data (§2.1): a body-less note's `body`.
 */
export const paginatedChoices: Choices = {
  ...faithfulChoices,
  // Ten, not two: a run imports a few hundred accounts, and a listing is read at most
  // MAX_LISTING_PAGES pages deep (core/engine/observe.ts); in pages of two, a rule reading it late
  // in a busy run met that bound and went unjudged. Every read still spans many pages.
  importedListingPages: { size: 10, links: 'absolute' },
  emptyResultFields: 'omit',
};

const PAGINATED_PROFILE: VariantProfile = {
  id: 'paginated',
  summary: "the imported listing in pages of ten with absolute next links; a body-less note's result omits body (§2.1)",
  choices: paginatedChoices,
  run: {},
  otherReadings: {},
};

// The local clock: short-lived tokens and a zone other than UTC ------------------------------------

/** The server's clock at UTC+1 (a server in Madrid in winter), its local time written in the §2.1 `…Z` form. */
export const LOCAL_CLOCK_OFFSET_MINUTES = 60;
/** Tokens issued through ObtainServiceToken live this long (§5: lifetime and refresh not shown). */
export const LOCAL_CLOCK_TOKEN_SECONDS = 2;

/**
 * A faithful server whose tokens live two seconds, so a run must renew its token many times over,
 * and whose clock writes local time at UTC+1: a defaulted `created_at` (§4.2 notes rule 3, "the
 * current local time") is an hour from UTC. Two options of their own (a choice and an operator
 * setting), so that other profiles can take either.
 */
const LOCAL_CLOCK_PROFILE: VariantProfile = {
  id: 'local-clock',
  summary: `tokens that live ${LOCAL_CLOCK_TOKEN_SECONDS} s (§5: lifetime not shown); a clock at UTC+1 whose local time is written in the §2.1 …Z form (§4.2 notes rule 3)`,
  choices: { ...faithfulChoices, localTimeOffsetMinutes: LOCAL_CLOCK_OFFSET_MINUTES },
  run: {},
  settings: { token_ttl_seconds: LOCAL_CLOCK_TOKEN_SECONDS },
  otherReadings: {},
};

// The limited server: faithful, on columns that refuse what they cannot store --------------------

/**
 * §2.3 "validation rules of every account field: not shown", §8 "payload size limits: not shown":
 * 255-character strings, 32-bit integers, 100 items a list, 256 KiB bodies, each refused with a §7.1
 * 400 naming the field (413 for the body). The run declares nothing: every limit the edge values meet
 * must be reported as discovered, never failed. Its options (`server`) compose with other profiles'.
 */
export const LIMITED_SERVER = { fieldLimits: COLUMN_LIMITS, maxBodyBytes: LIMITED_BODY_BYTES } as const;

/** The `limits:` a user of the limited server would configure (README, "Limits"). */
export const LIMITED_DECLARED = {
  max_string_length: COLUMN_LIMITS.maxStringLength,
  integer_min: COLUMN_LIMITS.integerRange.min,
  integer_max: COLUMN_LIMITS.integerRange.max,
  max_items: COLUMN_LIMITS.maxItems,
  max_body_bytes: LIMITED_BODY_BYTES,
} as const;

export const VARIANT_PROFILES: readonly VariantProfile[] = [
  {
    id: 'variant',
    summary:
      "other codes, bodies, orders and extra fields; non_field_errors on every create endpoint; first error only; body-less notes alike; a skipped transaction's own status; an unchecked duplicate refused; a statement overlapping an earlier one's period refused",
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
      'conventions.datetime.written-with-z':
        'The variant writes datetimes with microseconds and a +00:00 offset: ISO 8601, as §2.1 names it, though not the form it shows.',
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
  PAGINATED_PROFILE,
  {
    id: 'limited',
    summary:
      'faithful, but refuses strings over 255 characters, integers outside 32 bits and lists over 100 items with a §7.1 400 at the field, and bodies over 256 KiB with 413 (§2.3, §8: not shown)',
    choices: faithfulChoices,
    run: {},
    server: LIMITED_SERVER,
    otherReadings: {},
  },
  {
    id: 'rate-limited',
    summary:
      'faithful, but every 20th request to each endpoint is answered 429 with Retry-After (1 s, or an HTTP date), as §8 "rate limits: not shown" allows',
    choices: rateLimited(faithfulChoices, { every: 20, retryAfterSeconds: 1 }),
    run: {},
    // A process call may meet the throttle and then the §8 limit: waits of a second or two.
    processRetryBudgetMs: 60_000,
    otherReadings: {},
  },
  LOCAL_CLOCK_PROFILE,
  {
    // #43's server as deployed: every freedom of the two above at once, so one run proves they compose.
    id: 'limited-local-clock',
    summary: `the limited server with the local clock: 255-character strings, 32-bit integers, 100 items a list, 256 KiB bodies, tokens that live ${LOCAL_CLOCK_TOKEN_SECONDS} s and a clock at UTC+1 (§2.3, §5, §8, §4.2 notes rule 3: not shown)`,
    choices: LOCAL_CLOCK_PROFILE.choices,
    run: {},
    server: LIMITED_SERVER,
    settings: LOCAL_CLOCK_PROFILE.settings,
    otherReadings: {},
  },
];

export function profileById(id: string): VariantProfile | undefined {
  return VARIANT_PROFILES.find((p) => p.id === id);
}
