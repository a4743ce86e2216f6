/**
 * The decisions a reference server makes where the spec says "not shown" and the server had to
 * choose, and the faithful server's values. Handlers take these decisions from here and nowhere
 * else, so another server (a profile, profiles.ts) can make other legal ones. Each decision takes a
 * freedom named and cited in freedoms.ts (a test checks that every one is); the suite must not
 * assert any of them.
 */
import { refusal, reply, type Reply } from './reply.js';

export interface Choices {
  /** §4.1 / §2.9: format of `service_account_number` — not shown. */
  accountNumber(sequence: number): string;
  /** §4.4: `service_business_id` is an integer; its numbering is not shown. */
  businessId(sequence: number): number;
  /** §4.2: historical statements answer "201 and also 200". */
  historicalStatementsStatus: 200 | 201;
  /** §2.1: "Only documented fields may be sent"; whether the server refuses them is not shown. */
  refuseUndocumentedFields: boolean;
  /** §5.3, §7.2: 401 body — not shown. */
  unauthorized(): Reply;
  /** §7.2: 404 body — not shown. */
  notFound(detail: string): Reply;
  /**
   * §4.1 rule 4, §8: 429 body — not shown. `retryAfterSeconds` is the server's estimate of when a
   * slot frees (its processing time, rounded); a choice may send another `Retry-After`.
   */
  tooManyRequests(retryAfterSeconds?: number): Reply;
  /** §4.1 rule 2: the dry-run message; wording not pinned, shape not shown. */
  dryRunWouldSucceed(): Reply;
  /** §4.1 rule 3 (process) and §3 (stage): the 400 for an already imported account. */
  alreadyImported(externalAccountNumber: string, serviceAccountNumber: string): Reply;
  /** §4.1: staging refused for a skipped account, or a Paused / Complete supplier (400; body not shown). */
  stagingRefused(reason: 'skipped' | 'Paused' | 'Complete'): Reply;
  /** §4.1 rule 1: the team does not exist or the data is not staged (status and body not shown). */
  processRefused(reason: 'team' | 'not_staged' | 'in_progress'): Reply;
  /** §4.2, §4.4: persistent (400) and intermittent (500) trouble with the upstream vendor; bodies not shown. */
  vendorPersistentFailure(): Reply;
  vendorIntermittentFailure(): Reply;
  /** §8: historical billing documents refused for a ledger with a finalized document (400; body not shown). */
  ledgerAlreadyFinalized(ledgerCode: string): Reply;
  /** §2.8: a business that already exists (same external identifier and key attributes) — outcome not shown. */
  businessAlreadyExists(existingId: number, externalIdentifier: string): Reply;
  /**
   * §4.3: the imported listing's body is "not shown": a plain array of §2.9 records (null), or
   * pages (`{count, next, previous, results}`) of `size` records whose links are absolute URLs or
   * relative ones (`?page=2`).
   */
  importedListingPages: null | { size: number; links: 'absolute' | 'relative' };
  /**
   * §2.1 "An optional field that carries no data is omitted from the payload entirely": a result
   * item's optional field without data (a body-less note's `body`, §4.2) sent as null, or omitted.
   */
  emptyResultFields: 'null' | 'omit';
  /** §4.3: a listing for a supplier code that does not exist — not shown. */
  unknownSupplierListing: 'not_found' | 'empty';
  /** §4.2: the body of a 400 for an invalid transaction payload — §7.1 body, or the TRANSACTION_IMPORT_ERROR body. */
  invalidTransactionBody: 'validation' | 'import_error';
  /** §5.2: whether the scheme word must be written exactly "Token". */
  tokenSchemeCaseSensitive: boolean;
  /** §4.2 notes: created_at of a NOTE_ALREADY_EXISTS result — the existing note's, or the one sent. */
  existingNoteCreatedAt: 'existing' | 'sent';
  /** §4.2: whether a forced transaction's transaction_data carries the description that was added. */
  forcedTransactionDescription: boolean;
  /**
   * §2.3: account fields required beyond the strict model (required flags are not shown); dot paths,
   * `*` for every element of an array (`customers.*.account_roles`).
   */
  requiredAccountFields: readonly string[];
  /**
   * §4.2 notes rule 2 compares bodies; for notes without a body the spec does not say more. Either
   * two body-less notes match when their document paths match too, or any two body-less notes are
   * "the same body".
   */
  bodylessNotesMatch: 'document_paths' | 'body';
  /**
   * §4.2: with check_previously_added=false the service does not check for an earlier copy; a
   * duplicate is then added again, or refused by other means (a unique constraint).
   */
  uncheckedDuplicateTransaction: 'add' | 'refuse';
  /**
   * §4.2 data endpoints (and §7.2 404): whether the body is validated before the account is looked
   * up (a bad body for an unknown account is a 400), or the account first (a 404).
   */
  accountLookupFirst: boolean;
  /** §2.1: whether ISO 8601 datetimes with fractional seconds or a numeric offset are accepted too. */
  acceptIsoDatetimeVariants: boolean;
  /** §2.3: where business.business_contract_identifier sits in the account payload (not shown). */
  contractPath: string;
  /** §2.4: whether reasons and payment types must be among the values the spec shows. */
  closedTransactionVocabularies: boolean;
  /** §4.2: days after today at which the open statement period ends; null is open-ended. */
  openPeriodEndsAfterDays: number | null;
  /** §4.2: whether a refused transaction request adds nothing (or keeps those before the failing one). */
  atomicTransactionRequests: boolean;
  /** §4.2: boolean query parameters: true/false/1/0 in any case, or exactly true/false. */
  booleanSpellings: 'lenient' | 'exact';
  /** §4.2: a billing document import naming a ledger the account was not imported with. */
  unknownLedger: 'refuse' | 'create';
  /** §4.2: the agreements payload shape (not shown). */
  agreementsShape: 'supply_point_identifier' | 'nested';
  /** §4.4: a business payment instruction for a business that does not exist. */
  unknownBusiness: 'not_found' | 'validation';
  /**
   * §4.2 notes rule 3: `created_at` "defaults to the current local time", and the server's zone is
   * not shown. Minutes east of UTC of the clock whose time the server writes, in the §2.1
   * `YYYY-MM-DDTHH:MM:SSZ` form, wherever it writes the current time (a defaulted note's
   * `created_at`, `account_created_at`): 0 writes UTC, 60 a server in Madrid in winter.
   */
  localTimeOffsetMinutes: number;
  /**
   * §2.2, §2.3, §4.2: keys are shown only as strings; whether the spaces around a key sent are part
   * of it is not. True: the supplier codes, external account numbers and business identifiers of a
   * request body are trimmed on input, as Django REST framework trims every string it reads.
   */
  keysTrimmedOnInput: boolean;
  /** §5.1: address of the GraphQL endpoint and the field of the result carrying the token. */
  graphql: { path: string; tokenField: string };
  /**
   * §4.2 historical statements: no rule about their periods is shown. True: a statement whose bill
   * period overlaps one the account already has is refused (a §7.1 400 at its period), as a store
   * that keeps one statement per period would.
   */
  statementPeriodsApart?: boolean;
  /**
   * Applied to every reply before it is sent: codes, wording, extra fields, datetime spellings and
   * orderings the spec does not pin. The faithful server sends replies as they are.
   */
  present?(reply: Reply, endpoint: string | undefined): Reply;
}

export const faithfulChoices: Choices = {
  accountNumber: (sequence) => `A-${(0x10000000 + sequence * 7919).toString(16).toUpperCase().slice(-8)}`,
  businessId: (sequence) => 1000 + sequence,
  historicalStatementsStatus: 201,
  refuseUndocumentedFields: true,
  unauthorized: () => refusal(401, 'not_authenticated', 'Authentication credentials were not provided or are invalid.'),
  notFound: (detail) => refusal(404, 'not_found', detail),
  tooManyRequests: (retryAfterSeconds = 1) =>
    reply(
      429,
      {
        detail: 'Too many accounts are being processed; retry after other accounts finish.',
        code: 'too_many_requests',
      },
      { 'retry-after': String(retryAfterSeconds) },
    ),
  dryRunWouldSucceed: () =>
    refusal(400, 'dry_run', 'The account would import successfully, but it was rolled back due to the dry run.'),
  alreadyImported: (externalAccountNumber, serviceAccountNumber) =>
    refusal(400, 'account_already_imported', 'This account has already been imported.', {
      external_account_number: externalAccountNumber,
      service_account_number: serviceAccountNumber,
    }),
  stagingRefused: (reason) =>
    reason === 'skipped'
      ? refusal(400, 'account_skipped', 'This account is marked to be skipped.')
      : refusal(
          400,
          `import_supplier_${reason.toLowerCase()}`,
          `The import supplier's migration is ${reason === 'Paused' ? 'paused' : 'complete'}.`,
        ),
  processRefused: (reason) =>
    ({
      team: refusal(400, 'operations_team_not_found', 'The operations team does not exist.', {
        errors: [
          { attr: 'operations_team_name', code: 'does_not_exist', detail: 'No operations team with this name.' },
        ],
      }),
      not_staged: refusal(400, 'account_not_staged', 'No staged data exists for this account.'),
      in_progress: refusal(400, 'account_import_in_progress', 'This account is being processed already.'),
    })[reason],
  vendorPersistentFailure: () =>
    refusal(
      400,
      'payment_vendor_error',
      'The payment vendor could not be reached; do not retry this request as it is.',
    ),
  vendorIntermittentFailure: () =>
    refusal(500, 'payment_vendor_unavailable', 'Temporary trouble reaching the payment vendor; retry the request.'),
  ledgerAlreadyFinalized: (ledgerCode) =>
    refusal(
      400,
      'ledger_has_finalized_billing_document',
      `Ledger ${ledgerCode} already has a finalized billing document.`,
    ),
  businessAlreadyExists: (existingId, externalIdentifier) =>
    refusal(
      400,
      'business_already_exists',
      'A business with this external identifier and key attributes already exists.',
      {
        service_business_id: existingId,
        external_business_identifier: externalIdentifier,
      },
    ),
  importedListingPages: null,
  emptyResultFields: 'null',
  unknownSupplierListing: 'not_found',
  invalidTransactionBody: 'validation',
  tokenSchemeCaseSensitive: false,
  keysTrimmedOnInput: false,
  existingNoteCreatedAt: 'existing',
  forcedTransactionDescription: true,
  requiredAccountFields: [],
  bodylessNotesMatch: 'document_paths',
  uncheckedDuplicateTransaction: 'add',
  accountLookupFirst: false,
  acceptIsoDatetimeVariants: false,
  contractPath: 'business.business_contract_identifier',
  closedTransactionVocabularies: false,
  openPeriodEndsAfterDays: null,
  atomicTransactionRequests: true,
  booleanSpellings: 'lenient',
  unknownLedger: 'refuse',
  agreementsShape: 'supply_point_identifier',
  unknownBusiness: 'not_found',
  localTimeOffsetMinutes: 0,
  graphql: { path: '/v1/graphql/', tokenField: 'token' },
};
