/**
 * Every freedom the spec leaves ("not shown", "an example", "stated as 201 and also as 200"), the
 * choice each reference mode makes, and the rules that must tolerate it. This is where a freedom is
 * named and cited; choices.ts only types the decisions a server makes to take them, and profiles.ts
 * only groups other decisions into servers. Rendered to docs/freedoms.md; a test keeps the document
 * current, every rule id real and every decision of choices.ts named by a freedom.
 */
import type { Choices } from './choices.js';

export interface Freedom {
  spec: string;
  freedom: string;
  /**
   * The decisions of choices.ts through which a reference server takes this freedom; none when it
   * is an operator setting (seed.ts) or both reference modes read it alike.
   */
  choices?: (keyof Choices)[];
  faithful: string;
  /** The other choice; prefixed with the profile's name when a profile other than `variant` takes it. */
  variant: string;
  /** Rules whose verdict must not depend on the choice. */
  toleratedBy: string[];
  /** INFO rules that record which choice an implementation made. */
  observedBy?: string[];
}

export const FREEDOMS: Freedom[] = [
  {
    spec: '§4.2',
    freedom:
      'What "201, empty body" is on the wire: no body, or a JSON value that carries nothing (`{}`, `[]`, `null`, `""`)',
    faithful: 'no body',
    variant: 'no body (both modes alike; the reading is tested on its own in test/suites/relations-echo.test.ts)',
    toleratedBy: [
      'billing.create.empty-body',
      'relations.shape.create-agreements',
      'relations.shape.create-supply-points',
      'relations.shape.create-historical-billing-documents',
    ],
  },
  {
    spec: '§2.1, §2.4, §4.1, §4.2',
    freedom:
      'How an answer that hands back what was sent spells a value: a number or a decimal string of the same value, a datetime as the same instant in another ISO 8601 form, a document path with or without its leading slash, fields added',
    faithful: 'values as sent',
    variant: 'datetimes with microseconds and a +00:00 offset, document paths with a leading slash',
    toleratedBy: [
      'migration.validate.echo-fidelity',
      'statements.create.echo-fidelity',
      'relations.echo.validate-nested',
      'relations.echo.statements-edges',
      'relations.echo.notes',
      'relations.echo.transactions',
    ],
  },
  {
    spec: '§2.3, §4',
    freedom: 'Required or optional flags of fields',
    choices: ['requiredAccountFields'],
    faithful: 'fields the spec model marks `expected` are required',
    variant: 'also requires `account_type` and `customers`',
    toleratedBy: [
      'migration.validate.accepts-valid',
      'migration.stage.first-201',
      'conventions.optional-fields.omitted',
      'properties.account.stage-agrees-with-validate',
      'properties.account.valid-accepted',
    ],
    observedBy: ['conventions.minimal-account', 'properties.account.sparse-accepted'],
  },
  {
    spec: '§2.1',
    freedom: 'What the server does with undocumented fields',
    choices: ['refuseUndocumentedFields'],
    faithful: 'refuses them (400, `unknown_field`)',
    variant: 'ignores them',
    toleratedBy: ['migration.validate.accepts-valid', 'properties.account.stage-agrees-with-validate'],
    observedBy: ['conventions.undocumented-field'],
  },
  {
    spec: '§2.1',
    freedom: 'Whether other ISO 8601 datetime spellings (fractions, offsets) are accepted',
    choices: ['acceptIsoDatetimeVariants'],
    faithful: 'only `YYYY-MM-DDTHH:MM:SSZ`',
    variant: 'any ISO 8601 datetime with a zone',
    toleratedBy: [
      'conventions.datetime.impossible',
      'conventions.datetime.not-a-datetime',
      'conventions.datetime.missing-z',
    ],
  },
  {
    spec: '§2.1 document path',
    freedom: 'Whether document paths are echoed as sent or with a leading slash',
    choices: ['present'],
    faithful: 'as sent',
    variant: 'with a leading slash in validated data',
    toleratedBy: [
      'migration.validate.echoes-data',
      'statements.create.echoes-statements',
      'migration.validate.echo-fidelity',
      'statements.create.echo-fidelity',
    ],
  },
  {
    spec: '§2.3',
    freedom: 'Position of `business.business_contract_identifier` in the account payload',
    choices: ['contractPath'],
    faithful: 'a top-level `business` object',
    variant:
      '`contract.business_contract_identifier` (the runner is configured with `account.business_contract_identifier_path`)',
    toleratedBy: [
      'business.link.known-contract',
      'business.link.unknown-contract',
      'business.create.all-contracts',
      'payments.business.created',
    ],
  },
  {
    spec: '§2.3',
    freedom: 'Where the link to an unknown contract is refused (validate, stage or process)',
    faithful: 'at validate (and stage)',
    variant: 'at validate (and stage)',
    toleratedBy: ['business.link.unknown-contract'],
  },
  {
    spec: '§2.4',
    freedom: 'Which reasons and payment types are valid',
    choices: ['closedTransactionVocabularies'],
    faithful: 'any string',
    variant: 'only the values the spec shows',
    toleratedBy: ['transactions.create.every-type', 'migration.validate.accepts-valid'],
  },
  {
    spec: '§2.8',
    freedom: 'What sending an existing business again gives',
    choices: ['businessAlreadyExists'],
    faithful: '400 with the existing `service_business_id`',
    variant: '200 with the existing business',
    toleratedBy: ['business.duplicate.not-created-twice'],
  },
  {
    spec: '§2.8',
    freedom: 'What the same external identifier with other key attributes gives',
    faithful: 'a new business',
    variant: 'a new business',
    toleratedBy: [],
    observedBy: ['business.same-identifier-other-attributes'],
  },
  {
    spec: '§2.9, §4.1',
    freedom: 'Format of `service_account_number`',
    choices: ['accountNumber'],
    faithful: '`A-` and eight hex digits',
    variant: 'ten digits',
    toleratedBy: [
      'migration.process.creates-account',
      'migration.process.status-completed',
      'payments.account.created',
    ],
  },
  {
    spec: '§4.4',
    freedom: 'Numbering of `service_business_id`',
    choices: ['businessId'],
    faithful: '1001, 1002, …',
    variant: '500003, 500006, …',
    toleratedBy: ['business.create.created', 'business.duplicate.not-created-twice'],
  },
  {
    spec: '§4.1 process rule 1',
    freedom: 'Status and body when the team is missing or nothing is staged',
    choices: ['processRefused'],
    faithful: '400 `{detail, code}`',
    variant: '422 (team) and 404 (not staged), `{message}`',
    toleratedBy: ['migration.process.refuses-unknown-team', 'migration.process.refuses-not-staged'],
  },
  {
    spec: '§4.1 process rule 2',
    freedom: 'Body and wording of the dry-run 400',
    choices: ['dryRunWouldSucceed'],
    faithful: '`{detail, code: "dry_run"}`',
    variant: '`{message, rolled_back: true}`',
    toleratedBy: ['migration.process.dry-run'],
  },
  {
    spec: '§4.1 process rule 3',
    freedom: 'The rest of the already-imported 400 body',
    choices: ['alreadyImported'],
    faithful: '`{detail, code, external_account_number, service_account_number}`',
    variant: '`{message, external_account_number, service_account_number}`',
    toleratedBy: ['migration.process.refuses-second'],
  },
  {
    spec: '§4.1, §3',
    freedom: 'Bodies of the staging refusals (skipped, paused, complete, imported)',
    choices: ['stagingRefused', 'alreadyImported'],
    faithful: '`{detail, code}`',
    variant: 'a §7.1 body under `non_field_errors`',
    toleratedBy: [
      'migration.stage.refuses-skipped',
      'migration.stage.refuses-paused-supplier',
      'migration.stage.refuses-complete-supplier',
      'migration.stage.refuses-after-import',
    ],
  },
  {
    spec: '§4.1 process rule 4, §8',
    freedom: 'Body and headers of the 429',
    choices: ['tooManyRequests'],
    faithful: '`{detail, code}`, `Retry-After`: the processing time in whole seconds (0 when quick)',
    variant: '`{message}`, `Retry-After: 2`; `demanding`: `{detail, code: "throttled"}`, `Retry-After: 1`',
    toleratedBy: ['limits.concurrency.429-then-retry'],
  },
  {
    spec: '§4.1',
    freedom: 'A process request while the same account is being processed',
    choices: ['processRefused'],
    faithful: '400',
    variant: '409',
    toleratedBy: ['limits.concurrency.429-then-retry'],
  },
  {
    spec: '§4.2',
    freedom: 'The open statement period',
    choices: ['openPeriodEndsAfterDays'],
    faithful: 'from the day after the latest ledger closing date, open-ended',
    variant: 'the same start, ending 62 days after today',
    toleratedBy: [
      'transactions.period.refused-without-forcing',
      'transactions.period.forced-by-default',
      'transactions.in-period.not-forced',
    ],
  },
  {
    spec: '§4.2',
    freedom: 'How a forced transaction is described',
    choices: ['forcedTransactionDescription'],
    faithful: 'a `description` field in `transaction_data`',
    variant: 'no description in the response',
    toleratedBy: ['transactions.period.forced-by-default', 'transactions.period.forced-date-moved'],
  },
  {
    spec: '§4.2',
    freedom: 'Whether a refused transaction request keeps the transactions before the failing one',
    choices: ['atomicTransactionRequests'],
    faithful: 'nothing is added',
    variant: 'the ones before the failing transaction (outside the period, or invalid) are added',
    toleratedBy: ['transactions.period.refused-without-forcing'],
    observedBy: ['refused.validation.valid-items-not-kept.create-transactions'],
  },
  {
    spec: '§4.2, §7.1',
    freedom: 'Body of the 400 for an invalid transaction payload',
    choices: ['invalidTransactionBody'],
    faithful: 'the §7.1 body',
    variant: 'the `TRANSACTION_IMPORT_ERROR` body',
    toleratedBy: ['transactions.invalid.refused'],
  },
  {
    spec: '§4.2',
    freedom: 'Spellings of the boolean query parameters',
    choices: ['booleanSpellings'],
    faithful: '`true`/`false`/`1`/`0`, any case',
    variant: 'exactly `true` or `false`',
    toleratedBy: [
      'transactions.dedup.check-true',
      'transactions.dedup.check-false',
      'transactions.period.refused-without-forcing',
      'transactions.period.forced-explicitly',
    ],
  },
  {
    spec: '§4.2',
    freedom: 'Which ledger a billing document import names, and a ledger the account does not have',
    choices: ['unknownLedger'],
    faithful: 'must be a ledger the account was imported with',
    variant: 'any code; a new one is created',
    toleratedBy: ['billing.create.period-based', 'billing.once-per-ledger.other-ledger'],
  },
  {
    spec: '§4.2, §8',
    freedom: 'Status and body of the once-per-ledger refusal',
    choices: ['ledgerAlreadyFinalized'],
    faithful: '400 `{detail, code}`',
    variant: '409 `{message}`',
    toleratedBy: [
      'billing.once-per-ledger.period-then-period',
      'billing.once-per-ledger.item-then-item',
      'billing.once-per-ledger.item-then-period',
      'billing.once-per-ledger.period-then-item',
    ],
  },
  {
    spec: '§4.2 historical statements',
    freedom: 'Status: "stated as 201 and also as 200"',
    choices: ['historicalStatementsStatus'],
    faithful: '201',
    variant: '200',
    toleratedBy: ['statements.create.accepted', 'statements.statement-path.optional'],
  },
  {
    spec: '§4.2 historical statements',
    freedom:
      'A second statements request about one account: no de-duplication and no rule about periods is shown, so a server may take it or refuse a statement whose period overlaps one the account already has',
    choices: ['statementPeriodsApart'],
    faithful: 'takes it (the statements are kept one after another)',
    variant: 'refuses a statement overlapping an earlier one with a §7.1 400 at its period',
    toleratedBy: ['relations.edge.create-historical-statements', 'relations.shape.create-historical-statements'],
  },
  {
    spec: '§4.2',
    freedom: 'Payload shape of the agreements endpoint',
    choices: ['agreementsShape'],
    faithful: '`{…, supply_point_identifier, agreements}`',
    variant: '`{…, supply_points: [{identifier, agreements}]}` (the runner is configured with `payloads.agreements`)',
    toleratedBy: ['additions.agreements.created', 'additions.agreements.non-field-errors'],
  },
  {
    spec: '§4.2',
    freedom: 'Created_at of a `NOTE_ALREADY_EXISTS` result',
    choices: ['existingNoteCreatedAt'],
    faithful: "the existing note's",
    variant: 'the one sent (or now)',
    toleratedBy: ['notes.dedup.same-body-and-created-at', 'notes.dedup.no-created-at-matches-body'],
  },
  {
    spec: '§4.2 notes rule 3, §2.1',
    freedom: 'Spelling of the datetimes the service writes',
    choices: ['present'],
    faithful: '`YYYY-MM-DDTHH:MM:SSZ`',
    variant:
      'microseconds and a `+00:00` offset (ISO 8601; the SHOULD rule `conventions.datetime.written-with-z` holds listings to the form §2.1 shows, and the kill matrix lists the variant as taking the other reading)',
    toleratedBy: ['notes.created-at.kept', 'notes.created-at.defaults-to-now', 'migration.process.listed-as-created'],
  },
  {
    spec: '§4.2, §4.4',
    freedom: 'Bodies of the payment vendor failures (400 persistent, 500 intermittent)',
    choices: ['vendorPersistentFailure', 'vendorIntermittentFailure'],
    faithful: '`{detail, code}`',
    variant: 'a §7.1 body (400) and `{error: {type}}` (500)',
    toleratedBy: [
      'payments.account.persistent-trouble',
      'payments.account.intermittent-trouble',
      'payments.business.persistent-trouble',
      'payments.business.intermittent-trouble',
    ],
  },
  {
    spec: '§4.4',
    freedom: 'A business payment instruction for a business that does not exist',
    choices: ['unknownBusiness'],
    faithful: '404',
    variant: '400 at `external_business_identifier`',
    toleratedBy: ['auth.401.create-business-payment-instruction'],
  },
  {
    spec: '§4.3',
    freedom: 'A listing for a supplier code that does not exist',
    choices: ['unknownSupplierListing'],
    faithful: '404',
    variant: '200 with an empty list',
    toleratedBy: ['status.listings-per-supplier'],
  },
  {
    spec: '§4.3',
    freedom: 'Body of the imported listing ("not shown")',
    choices: ['present'],
    faithful: 'an array of §2.9 records',
    variant: '`{count, next, results: [{account, external, created}]}`',
    toleratedBy: [
      'migration.process.listed-as-imported',
      'status.listing-imported-excludes-pending',
      'status.listings-per-supplier',
      'migration.validate.stages-nothing',
    ],
  },
  {
    spec: '§4.3',
    freedom: 'Whether the imported listing ("response body: not shown") is paginated',
    choices: ['importedListingPages'],
    faithful: 'one array of every imported account',
    variant:
      '`paginated`: pages of ten, `{count, next, previous, results}`, with absolute `next` links (every rule reading a listing follows `next`, relative or absolute, on the target)',
    toleratedBy: [
      'migration.process.listed-as-imported',
      'status.listing-imported-200',
      'status.listing-imported-excludes-pending',
      'status.listings-per-supplier',
      'migration.validate.stages-nothing',
    ],
  },
  {
    spec: '§2.1, §4.2 notes',
    freedom: "Whether a result item omits an optional field without data (a body-less note's `body`) or sends it null",
    choices: ['emptyResultFields'],
    faithful: '`body: null`',
    variant:
      '`paginated`: `body` omitted (§2.1: "An optional field that carries no data is omitted from the payload entirely")',
    toleratedBy: ['notes.content.document-only'],
  },
  {
    spec: '§4.3',
    freedom: 'Order of the listings',
    choices: ['present'],
    faithful: 'staging order',
    variant: 'newest first',
    toleratedBy: ['status.listing-pending-nulls', 'status.listing-all-pending', 'migration.process.listed-as-created'],
  },
  {
    spec: '§5.1',
    freedom: 'Address, arguments and result of the token mutation',
    choices: ['graphql'],
    faithful: '`POST /v1/graphql/`, `obtainServiceToken(input: {APIKey}) { token }`',
    variant:
      '`POST /graphql`, the token in `accessToken` (the runner is configured with `auth.graphql_url`, `auth.mutation`, `auth.token_path`)',
    toleratedBy: [],
  },
  {
    spec: '§2.2, §2.3, §4.2',
    freedom:
      'Whether the spaces around a key sent (supplier code, external account number, business identifier) are part of it: keys are shown only as strings',
    choices: ['keysTrimmedOnInput'],
    faithful: 'kept: `" E1"` is another account than `"E1"`',
    variant:
      'trimmed on input, in every request body, as Django REST framework trims strings: `" E1"` names account `E1` (a key found by a near miss is then failed only when the server holds it as another key elsewhere)',
    toleratedBy: [
      'relations.lookup-near-miss.stage-account',
      'relations.lookup-near-miss.process-account',
      'relations.lookup-near-miss.create-notes',
      'relations.lookup-near-miss.create-agreements',
      'relations.lookup-near-miss.create-supply-points',
      'relations.lookup-near-miss.create-transactions',
      'relations.lookup-near-miss.create-historical-billing-documents',
      'relations.lookup-near-miss.create-historical-statements',
      'relations.lookup-near-miss.create-payment-instruction',
      'relations.lookup-near-miss.create-business',
      'relations.lookup-near-miss.create-business-payment-instruction',
    ],
  },
  {
    spec: '§5.2',
    freedom: 'Case of the `Token` scheme word',
    choices: ['tokenSchemeCaseSensitive'],
    faithful: 'any case',
    variant: 'exactly `Token`',
    toleratedBy: ['auth.token-scheme.accepted'],
  },
  {
    spec: '§3',
    freedom:
      'A re-stage while the account is being processed (IN_PROGRESS: the state table shows no transition for it)',
    faithful: 'refused like a process request in progress (400); the account is created from the first payload',
    variant:
      'refused alike; another reading answers 200 and still creates the account from the first payload (recorded by the rule, not failed)',
    toleratedBy: ['races.stage.during-process'],
  },
  {
    spec: '§5',
    freedom: 'Token lifetime and refresh ("Token lifetime and refresh: not shown")',
    faithful: 'unlimited unless the operator sets a lifetime (`token_ttl_seconds`)',
    variant:
      '`local-clock`: tokens live 2 seconds; the runner obtains a new one through the API key whenever the token it was using is refused mid-run, and sends the refused request again with it — again while each token it met had expired in turn (every rule of a run stands on this)',
    toleratedBy: [
      'auth.token-scheme.accepted',
      'auth.401.nothing-done',
      'stateful.state-machine',
      'properties.notes.dedup',
      'limits.concurrency.429-then-retry',
    ],
  },
  {
    spec: '§4.2 notes rule 3, §2.1',
    freedom:
      'The server\'s zone ("`created_at` defaults to the current local time"; the zone is not shown), and its local time written in the `YYYY-MM-DDTHH:MM:SSZ` form',
    choices: ['localTimeOffsetMinutes'],
    faithful: 'UTC',
    variant:
      '`local-clock`: UTC+1, written with `Z` (an hour from UTC); the rule holds a defaulted time to now within ±14 h on the quarter-hour grid of legal offsets and reports the offset it saw',
    toleratedBy: [
      'notes.created-at.defaults-to-now',
      'migration.process.listed-as-created',
      'history.account.created-at-stable',
      'conventions.datetime.written-with-z',
    ],
  },
  {
    spec: '§7.1',
    freedom: 'Error codes beyond the two examples, and the top-level code',
    choices: ['present'],
    faithful: '`required`, `invalid_date`, … and `account_failed_validation`',
    variant: '`missing_field`, `bad_date`, … and `invalid_account`',
    toleratedBy: ['errors.body.shape', 'errors.codes.stable', 'conventions.date.impossible-day'],
    observedBy: ['errors.code.account-failed-validation', 'errors.code.invalid-phone-number'],
  },
  {
    spec: '§7.1',
    freedom: 'Wording of `detail`',
    choices: ['present'],
    faithful: 'English sentences',
    variant: 'other sentences',
    toleratedBy: ['errors.body.shape'],
  },
  {
    spec: '§7.2',
    freedom: 'Bodies of 401 and 404',
    choices: ['unauthorized', 'notFound'],
    faithful: '`{detail, code}`',
    variant: 'an empty 401 with `WWW-Authenticate`; `{error}` for 404',
    toleratedBy: ['auth.401.create-notes', 'notes.404.wrong-number', 'status.404-without-process'],
  },
  {
    spec: '§7.1',
    freedom: 'Which "other create endpoints" report validation errors under `non_field_errors`',
    choices: ['present'],
    faithful: 'agreements and supply points only',
    variant: 'every endpoint that takes a body, except validate',
    toleratedBy: [
      'notes.content.required',
      'statements.invalid.refused',
      'billing.invalid-type.refused',
      'business.invalid.refused',
      'errors.stage-same-as-validate',
      'conventions.date.impossible-day',
      'conventions.note.without-content',
      'properties.account.single-defect-refused',
    ],
  },
  {
    spec: '§7.1',
    freedom: 'Whether every error of a payload is reported, or validation stops at the first',
    choices: ['present'],
    faithful: 'every error',
    variant: 'the first error only',
    toleratedBy: [
      'errors.attr.zero-based-nested',
      'errors.stage-same-as-validate',
      'errors.codes.stable',
      'errors.body.shape',
    ],
  },
  {
    spec: '§3 creation statuses',
    freedom: 'What `transaction_data.status` holds ("`TRANSACTION_IMPORT_SUCCESS` also appears" there)',
    choices: ['present'],
    faithful: '`TRANSACTION_IMPORT_SUCCESS` on added transactions, nothing on skipped ones',
    variant:
      "`TRANSACTION_IMPORT_SUCCESS` on added ones, the item's status (`TRANSACTION_ALREADY_EXISTS`) on skipped ones",
    toleratedBy: [
      'transactions.dedup.already-exists',
      'transactions.dedup.check-true',
      'transactions.dedup.within-one-request',
      'properties.transactions.dedup',
      'stateful.state-machine',
      'transactions.create.import-success-status',
    ],
  },
  {
    spec: '§4.2 notes rule 2',
    freedom: 'Whether two notes without a body have "the same body"',
    choices: ['bodylessNotesMatch'],
    faithful: 'only when their document paths match too',
    variant: 'yes: any two body-less notes are alike',
    toleratedBy: ['notes.content.document-only'],
  },
  {
    spec: '§4.2',
    freedom: 'Order of the notes results and of the transactions `results`',
    choices: ['present'],
    faithful: 'the order sent',
    variant: 'reversed',
    toleratedBy: [
      'notes.create.one-result-per-note',
      'notes.dedup.other-body-creates',
      'notes.dedup.within-one-request',
      'properties.notes.dedup',
      'transactions.dedup.already-exists',
      'transactions.create.every-type',
      'properties.transactions.dedup',
      'migration.stage.update-replaces-data',
    ],
    observedBy: ['notes.create.results-order'],
  },
  {
    spec: '§4.2 transactions',
    freedom: 'A transaction added earlier, sent again with `check_previously_added=false`',
    choices: ['uncheckedDuplicateTransaction'],
    faithful: 'added again',
    variant:
      'refused: 400 `TRANSACTION_IMPORT_ERROR` (a unique constraint); the SHOULD rule `transactions.dedup.check-false` takes the other reading and fails, as the kill matrix lists',
    toleratedBy: ['properties.transactions.dedup'],
  },
  {
    spec: '§2.3',
    freedom: 'Account fields required beyond those the canonical account carries',
    choices: ['requiredAccountFields'],
    faithful: 'none',
    variant:
      '`demanding`: `billing_postcode`, `account_type`, and `account_roles` on every customer (the runner is configured with `payloads.account`)',
    toleratedBy: [
      'migration.validate.accepts-valid',
      'migration.stage.first-201',
      'properties.account.valid-accepted',
      'stateful.state-machine',
    ],
    observedBy: ['conventions.minimal-account', 'properties.account.sparse-accepted'],
  },
  {
    spec: '§2.3',
    freedom: 'Allowed `account_type` values ("a domestic type appears in the examples")',
    faithful: 'any string',
    variant: '`demanding`: only `RESIDENCIAL` and `PYME` (the runner is configured with `payloads.account`)',
    toleratedBy: ['migration.validate.accepts-valid', 'migration.stage.first-201', 'properties.account.valid-accepted'],
  },
  {
    spec: '§2.8',
    freedom: 'Allowed `business_type` values ("a limited-company type is seen")',
    faithful: 'any string',
    variant:
      '`demanding`: only `SOCIEDAD_LIMITADA` and `SOCIEDAD_ANONIMA` (the runner is configured with `payloads.business`)',
    toleratedBy: ['business.create.created', 'business.link.known-contract', 'business.duplicate.not-created-twice'],
  },
  {
    spec: '§4.2, §7.2',
    freedom: "Whether a data request's body is validated before the account is looked up",
    choices: ['accountLookupFirst'],
    faithful: 'the body first (an invalid body for an unknown account is a 400)',
    variant: '`demanding`: the account first (a 404 before any validation)',
    toleratedBy: [
      'errors.404.create-agreements',
      'errors.404.create-supply-points',
      'errors.404.create-transactions',
      'notes.404.wrong-number',
      'additions.agreements.non-field-errors',
      'additions.supply-points.non-field-errors',
    ],
  },
  {
    spec: '§4.1 process rule 4, §8',
    freedom: 'The concurrency limit and how long processing takes',
    faithful: 'limit 8 in the embedded run, 15 ms per account',
    variant:
      "`demanding`: limit 1, 25 ms per account, `Retry-After: 1` (every rule's process call retries, honouring it); limit 4 and 0 ms per account, each account done before the next request reaches it, so never more than one IN_PROGRESS and no 429: the §8 rule is then not judged, never failed",
    toleratedBy: [
      'stateful.state-machine',
      'properties.transactions.dedup',
      'properties.notes.dedup',
      'migration.process.creates-account',
      'limits.concurrency.429-then-retry',
    ],
  },
  {
    spec: '§2.3, §8',
    freedom:
      'Limits of what is stored ("Required or optional flags, allowed values and validation rules of every account field: not shown"; "payload size limits: not shown"): longest string, integer range, items per request, body size',
    faithful: 'none (bodies up to 10 MiB)',
    variant:
      '`limited`: strings up to 255 characters, 32-bit integers, 100 items a list (a §7.1 400 naming the field: `max_length`, `max_value`, `max_items`), bodies up to 256 KiB (413). Undeclared, each is reported as a discovered limit (INFO) and the case replayed inside it; declared (`limits:`), generated values stay inside',
    toleratedBy: [
      'properties.account.valid-accepted',
      'notes.create.success-is-stored',
      'transactions.create.added-is-stored',
    ],
  },
  {
    spec: '§9.2',
    freedom: 'New fields on responses',
    choices: ['present'],
    faithful: 'none',
    variant: '`request_id` on every object, `import_batch` on records, an `x-request-id` header',
    toleratedBy: [
      'migration.stage.first-201',
      'migration.process.creates-account',
      'status.staged-unknown',
      'notes.create.one-result-per-note',
      'transactions.create.every-type',
    ],
    observedBy: ['versioning.extra-response-fields'],
  },
];

const cell = (s: string) => s.replace(/\|/g, '\\|');

export function renderFreedoms(): string {
  const lines = [
    '# Freedoms the spec leaves',
    '',
    'Every place where `spec/data-import-interface.md` leaves a choice to the implementation ("not shown", an',
    'example value, a status stated two ways). The faithful reference server makes one choice, the variant',
    '(`conformance serve --variant`) another, and the `demanding` profile (`conformance serve --profile',
    'demanding`) others still, where choices conflict or need a configured runner. The suite must pass',
    'every profile with no MUST or SHOULD failure, but for a SHOULD rule a profile deliberately reads',
    'otherwise, which the kill matrix lists (`npm run mutation` checks it). Generated from',
    '`reference/freedoms.ts` (`npm run schemas`).',
    '',
    '| Spec | Freedom | Faithful | Variant profiles | Must tolerate it | Observed by (INFO) |',
    '|---|---|---|---|---|---|',
  ];
  for (const f of FREEDOMS) {
    const rules = (ids: string[] | undefined) => (ids?.length ? ids.map((id) => `\`${id}\``).join(', ') : '—');
    lines.push(
      `| ${f.spec} | ${cell(f.freedom)} | ${cell(f.faithful)} | ${cell(f.variant)} | ${rules(f.toleratedBy)} | ${rules(f.observedBy)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}
