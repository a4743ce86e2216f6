/**
 * Traceability: every statement of §2–§9 of the spec, and how the suite holds an implementation to
 * it — the rules that check it, or why it cannot be checked through the interface (and which INFO
 * rule records what the implementation does instead), or that it is a freedom the spec leaves
 * ("not shown"), or that it only describes. A test proves that every line of §2–§9 is covered and
 * every rule named exists; docs/traceability.md is rendered from this data and the rules.
 *
 * `quote`: verbatim fragments of spec lines; a line is covered when it contains one.
 * `table`: the line that introduces a table; covers every row of that table.
 * `rules`: rule ids or globs (`auth.401.*`).
 *
 * An area may map its own statements beside its rules (`export const statements` in its file, listed
 * in `areaStatements` of suites/index.ts): `TRACE` places each at its line of the spec.
 */
import { inSpecOrder, type Statement } from '../core/engine/traceability.js';
import { specText } from '../core/spec/sections.js';
import { areaStatements } from './index.js';

/** Rules that exercise every field shape of a payload: the complete accounts and the defect properties. */
const FIELD_SHAPES = [
  'migration.validate.accepts-valid',
  'properties.account.valid-accepted',
  'properties.account.beyond-template-accepted',
  'properties.account.single-defect-refused',
  'properties.account.single-defect-refused-readings',
];

export const STATEMENTS: Statement[] = [
  // §2.1 ---------------------------------------------------------------------------------------
  {
    section: '2.1',
    quote: ['Dates use ISO 8601 `YYYY-MM-DD`. Datetimes use ISO 8601'],
    rules: [
      'conventions.date.*',
      'conventions.datetime.*',
      'properties.account.single-defect-refused',
      'statements.invalid.refused',
      'business.invalid.refused',
      // Every date and datetime field at the calendar's edges, kept as sent.
      'relations.edge.*',
    ],
  },
  {
    section: '2.1',
    quote: ['An optional field that carries no data is omitted from the payload entirely.'],
    rules: [
      'conventions.optional-fields.omitted',
      'statements.statement-path.optional',
      'migration.process.dry-run-false',
    ],
  },
  {
    section: '2.1',
    quote: ['When an optional object or array is provided, the fields inside it that are required must be provided.'],
    rules: [
      'conventions.required-inside-provided-object',
      'conventions.note.without-content',
      'properties.account.single-defect-refused-readings',
    ],
  },
  {
    section: '2.1',
    quote: ['A provided optional field must satisfy its validation rules, and so must its sub-objects.'],
    rules: [
      'conventions.date.impossible-day',
      'conventions.enum.*',
      'conventions.type.*',
      'conventions.integer.fraction',
      'conventions.boolean.*',
      'errors.attr.zero-based-nested',
      'conventions.types.*',
      'relations.defect.*',
      'properties.account.single-defect-refused',
      'refused.validation.*',
    ],
  },
  {
    section: '2.1',
    quote: ['Only documented fields may be sent.'],
    freedom: 'An obligation of clients; what the service does with undocumented fields is not shown.',
    info: ['conventions.undocumented-field'],
  },
  {
    section: '2.1',
    quote: ['Document path: a path in a payload'],
    rules: ['conventions.document-path.relative', 'conventions.document-path.leading-slash'],
  },

  // §2.2 ---------------------------------------------------------------------------------------
  {
    section: '2.2',
    quote: ['| code | string, sent as `import_supplier`'],
    rules: [
      'relations.lookup-near-miss.*-account-import-processes',
      'migration.stage.first-201',
      'migration.process.creates-account',
      'business.create.created',
    ],
  },
  {
    section: '2.2',
    quote: ['| status | `Ongoing`, `Paused` or `Complete`'],
    uncheckable:
      'Supplier status is set by the operator, not through the interface; the rules use the suppliers the configuration names for each status.',
  },
  {
    section: '2.2',
    quote: ['| document root |'],
    uncheckable:
      'The document root is an operator setting and the interface stores no files; document paths are checked as accepted (§2.1).',
  },
  { section: '2.2', quote: ['Status meanings:'], descriptive: 'Introduces the meanings below.' },
  {
    section: '2.2',
    quote: ['`Ongoing`: in use and accepting new accounts.'],
    rules: ['migration.stage.first-201', 'properties.account.valid-accepted'],
  },
  {
    section: '2.2',
    quote: ['`Paused`: accounts that try to migrate get an error.'],
    rules: [
      'migration.stage.refuses-paused-supplier',
      'migration.stage.refuses-update-paused-supplier',
      'migration.process.refuses-paused-supplier',
      'migration.process.dry-run-checks-paused-supplier',
      'refused.stage.paused-*',
      'refused.process.paused-*',
    ],
  },
  {
    section: '2.2',
    quote: ['`Complete`: accounts that try to migrate get an error.'],
    rules: [
      'migration.stage.refuses-complete-supplier',
      'migration.process.refuses-complete-supplier',
      'migration.process.dry-run-checks-complete-supplier',
      'refused.stage.complete-*',
      'refused.process.complete-*',
    ],
  },
  {
    section: '2.2',
    quote: ['Other fields of the import supplier record: not shown.'],
    freedom: 'Not part of the interface.',
  },

  // §2.3 ---------------------------------------------------------------------------------------
  {
    section: '2.3',
    quote: ['One JSON object describes one account.'],
    table: 'One JSON object describes one account. Top-level fields:',
    rules: [
      ...FIELD_SHAPES,
      'conventions.account-key.required',
      'conventions.account-key.required-on-validate',
      'conventions.type.metadata-value',
      'conventions.boolean.*',
      'migration.stage.first-201',
    ],
  },
  {
    section: '2.3',
    quote: ['Also carried by the account payload: `business.business_contract_identifier`.'],
    rules: ['business.link.known-contract', 'business.link.unknown-contract', 'business.create.all-contracts'],
  },
  {
    section: '2.3',
    quote: ['Required or optional flags, allowed values and validation rules of every account field: not shown.'],
    freedom: 'The suite asserts presence only where the spec states it (docs/freedoms.md).',
    info: ['conventions.minimal-account', 'properties.account.sparse-accepted'],
  },
  {
    section: '2.3',
    table: '**customer**',
    rules: [...FIELD_SHAPES, 'conventions.email.malformed', 'conventions.phone.malformed'],
  },
  {
    section: '2.3',
    table: '**supply address group** (element of `supply_addresses`)',
    rules: [...FIELD_SHAPES, 'conventions.type.object-expected', 'conventions.date.impossible-day'],
  },
  { section: '2.3', quote: ['`supply_address` fields: `locality`'], rules: FIELD_SHAPES },
  {
    section: '2.3',
    table: '**supply point**',
    rules: [
      ...FIELD_SHAPES,
      'conventions.enum.supply-type',
      'conventions.enum.wrong-case',
      'conventions.required-inside-provided-object',
    ],
  },
  {
    section: '2.3',
    table: '**agreement**',
    rules: [
      ...FIELD_SHAPES,
      'conventions.type.array-expected',
      'conventions.date.impossible-day',
      'conventions.integer.fraction',
    ],
  },
  {
    section: '2.3',
    table: '**reading**',
    rules: [...FIELD_SHAPES, 'conventions.datetime.impossible', 'conventions.datetime.missing-z'],
  },
  { section: '2.3', table: '**billable item**', rules: FIELD_SHAPES },
  {
    section: '2.3',
    table: '**note**',
    rules: [
      ...FIELD_SHAPES,
      'conventions.datetime.not-a-datetime',
      'conventions.optional-fields.omitted',
      'notes.create.one-result-per-note',
    ],
  },
  {
    section: '2.3',
    quote: ['A note must have `body` or `document_paths` or both.'],
    rules: ['conventions.note.without-content', 'notes.content.required', 'notes.content.document-only'],
  },
  {
    section: '2.3',
    table: '**ledger**',
    rules: [...FIELD_SHAPES, 'conventions.date.wrong-format', 'conventions.date.datetime-given'],
  },
  { section: '2.3', quote: ['**payment schedule**: `means`'], rules: FIELD_SHAPES },
  {
    section: '2.3',
    quote: ['**statement** (account payload):'],
    rules: [...FIELD_SHAPES, 'conventions.document-path.leading-slash'],
  },

  // §2.4–§2.9 -----------------------------------------------------------------------------------
  {
    section: '2.4',
    table: '### 2.4 Transaction',
    rules: [
      'transactions.create.every-type',
      'transactions.invalid.refused',
      'conventions.enum.transaction-type',
      'conventions.enum.transaction-type-case',
      'properties.account.valid-accepted',
    ],
  },
  {
    section: '2.4',
    quote: ['Line item: `rate_band`', 'Tax item: `amount`'],
    rules: [
      'transactions.create.every-type',
      'transactions.create.supply-charge-items',
      'properties.account.valid-accepted',
    ],
  },
  {
    section: '2.4',
    quote: ['Which reasons and payment types are valid for each transaction type: not shown.'],
    freedom:
      'The rules send values the spec shows as "seen"; the rule that sends every type with them (transactions.create.every-type) is SHOULD for this reason.',
  },
  {
    section: '2.5',
    table: '### 2.5 Historical billing document',
    rules: ['billing.create.*', 'billing.invalid-type.refused'],
  },
  {
    section: '2.6',
    quote: ['`bill_period_from_date` (date), `bill_period_to_date` (date), `statement_id` (string), `issued_date`'],
    rules: ['statements.*'],
  },
  {
    section: '2.7',
    quote: ['For an account: `import_supplier`'],
    rules: ['payments.account.created', 'payments.business.created'],
  },
  {
    section: '2.7',
    quote: ['The service calls the upstream payment vendor to check that the instruction exists'],
    rules: ['payments.account.unknown-reference-refused', 'payments.business.unknown-reference-refused', 'payments.*'],
    unobservable:
      'The details fetched "for storage" cannot be read back (no endpoint returns a stored instruction); only that an instruction the vendor does not have (a reference generated per run) is not accepted is checked.',
  },
  {
    section: '2.7',
    quote: ['Allowed values of `vendor` and `type`: not shown.'],
    freedom: 'Vendor, type and references come from fixtures.payment_instruction.',
  },
  {
    section: '2.8',
    table: '### 2.8 Business',
    rules: ['business.create.created', 'business.invalid.refused', 'business.create.all-contracts'],
  },
  {
    section: '2.8',
    quote: ['Business contract: `valid_from_date`'],
    rules: ['business.invalid.refused', 'business.create.all-contracts'],
  },
  {
    section: '2.8',
    quote: ['A business is unique by its external identifier together with key attributes'],
    rules: [
      'relations.identity.*',
      'relations.lookup-near-miss.create-business',
      'business.duplicate.not-created-twice',
      'races.business.one-business',
      'keys.business.other-identifier',
      'history.business.ids-unique',
    ],
  },
  {
    section: '2.8',
    quote: ['Full list of allowed `business_type` values and structure of items in `terms`: not shown.'],
    freedom:
      'The canonical business uses the limited-company type the spec shows as seen; an implementation with its own values is run with a business payload template (the variant profile `demanding` proves it).',
    info: ['business.same-identifier-other-attributes'],
  },
  {
    section: '2.9',
    quote: ['`external_account_number` (string), `service_account_number` (string, null or empty'],
    rules: [
      'migration.process.listed-as-created',
      'status.listing-all-pending',
      'status.listing-pending-nulls',
      'stateful.state-machine',
      'history.account.number-stable',
      'history.account.created-at-stable',
    ],
  },

  // §3 -----------------------------------------------------------------------------------------
  {
    section: '3',
    quote: ['Account import status, returned by the status endpoint:'],
    descriptive: 'Introduces the table below.',
  },
  {
    section: '3',
    quote: ['| `UNKNOWN` | No account exists'],
    rules: [
      'status.staged-unknown',
      'migration.process.dry-run',
      'migration.process.refuses-unknown-team',
      'stateful.state-machine',
      'keys.import-process.other-supplier',
    ],
  },
  {
    section: '3',
    quote: ['| `IN_PROGRESS` |'],
    uncheckable:
      'IN_PROGRESS can only be seen while a process request runs; whether a status request lands in that window depends on timing, not on conformance.',
    info: ['status.in-progress'],
  },
  {
    section: '3',
    quote: ['| `COMPLETED` | An account has been created |'],
    rules: ['migration.process.status-completed', 'stateful.state-machine', 'history.account.state-agrees'],
  },
  { section: '3', quote: ['Account import process, by operation:'], descriptive: 'Introduces the state table below.' },
  {
    section: '3',
    quote: ['| none | stage (create-or-update) |'],
    rules: [
      'relations.lookup-near-miss.stage-account',
      'migration.stage.first-201',
      'migration.stage.refuses-invalid',
      'migration.stage.refuses-skipped',
      'migration.stage.refuses-paused-supplier',
      'races.stage.one-first-staging',
      'stateful.state-machine',
    ],
  },
  {
    section: '3',
    quote: ['| staged | stage again | same conditions |'],
    rules: [
      'migration.stage.update-200',
      'migration.stage.update-replaces-data',
      'migration.stage.refuses-update-paused-supplier',
      'races.stage.one-first-staging',
      'stateful.state-machine',
      'races.stage.during-process',
    ],
  },
  {
    section: '3',
    quote: ['| staged | process | team exists, data staged, not a dry run |'],
    rules: [
      'migration.process.creates-account',
      'migration.process.status-completed',
      'migration.process.refuses-unknown-team',
      'migration.process.refuses-not-staged',
      'races.process.one-account',
      'stateful.state-machine',
      'races.process.dry-run-during-process',
      'history.ids.unique',
      'history.account.number-stable',
      'history.account.created-at-stable',
      'history.refused.nothing-appears',
    ],
  },
  {
    section: '3',
    quote: ['| staged | process with `dry_run` true |'],
    rules: [
      'migration.process.dry-run',
      'migration.process.dry-run-supported',
      'migration.process.dry-run-checks-*',
      'stateful.state-machine',
      'races.process.dry-run-during-process',
    ],
  },
  {
    section: '3',
    quote: ['| imported | stage or process | account already imported |'],
    rules: [
      'migration.stage.refuses-after-import',
      'migration.process.refuses-second',
      'migration.process.refuses-second-dry-run',
      'migration.process.dry-run-imported-numbers',
      'races.process.one-account',
      'stateful.state-machine',
      'races.stage.during-process',
      'refused.stage.already-imported',
      'refused.process.already-imported*',
    ],
  },
  {
    section: '3',
    quote: ['Moves between `UNKNOWN`, `IN_PROGRESS` and `COMPLETED` other than those above: not shown.'],
    freedom: 'No rule asserts other moves.',
  },
  {
    section: '3',
    quote: ['Import supplier statuses are `Ongoing`, `Paused`, `Complete`. Transitions: not shown.'],
    freedom:
      "Transitions are the operator's; the paused-supplier rules use an account staged before the pause (fixtures.paused_supplier_staged_account).",
  },
  {
    section: '3',
    quote: ['Creation statuses (per item in responses):'],
    descriptive: 'Introduces the statuses below.',
  },
  {
    section: '3',
    quote: ['- Note: `NOTE_CREATION_SUCCESS`, `NOTE_ALREADY_EXISTS`.'],
    rules: ['notes.dedup.*', 'notes.create.success-is-stored', 'properties.notes.dedup'],
  },
  {
    section: '3',
    quote: ['- Transaction: `TRANSACTION_ADDED_TO_ACCOUNT`'],
    rules: [
      'transactions.create.every-type',
      'transactions.dedup.already-exists',
      'transactions.period.refused-without-forcing',
      'transactions.create.import-success-status',
    ],
  },

  // §4 -----------------------------------------------------------------------------------------
  {
    section: '4',
    quote: [
      'All paths start with `{base_url}`. Bodies are JSON. All requests carry the authentication header of section 5.',
    ],
    rules: ['auth.401.*', 'versioning.v1-prefix', 'conventions.media-type.json'],
  },
  {
    section: '4.1',
    quote: ['| POST `/v1/data-import/validate-account/` |'],
    rules: [
      'relations.shape.validate-account',
      'migration.validate.*',
      'relations.echo.validate-nested',
      'relations.echo.validate-account',
    ],
  },
  {
    section: '4.1',
    quote: ['| POST `/v1/data-import/account-import-process/create-or-update/` |'],
    rules: [
      'relations.shape.stage-account',
      'migration.stage.first-201',
      'migration.stage.update-200',
      'errors.stage-same-as-validate',
      'properties.account.stage-agrees-with-validate',
      'properties.account.single-defect-refused',
    ],
  },
  {
    section: '4.1',
    quote: ['| POST `/v1/data-import/account-import-process/process/` |'],
    rules: [
      'relations.shape.process-account',
      'migration.process.creates-account',
      'migration.process.dry-run-false',
      'migration.process.dry-run-false-string',
      'migration.process.dry-run-supported',
      'errors.bad-input.no-5xx.process-account',
    ],
  },
  { section: '4.1', quote: ['Rules for process:'], descriptive: 'Introduces the rules below.' },
  {
    section: '4.1',
    quote: ['1. The named team must already exist and the account data must already be staged.'],
    rules: [
      'relations.lookup-near-miss.process-account',
      'migration.process.refuses-unknown-team',
      'migration.process.refuses-not-staged',
      'migration.process.dry-run-checks-team',
      'refused.process.not-staged*',
      'refused.process.unknown-team*',
    ],
  },
  {
    section: '4.1',
    quote: ['2. When `dry_run` is true, the full creation runs and is rolled back.'],
    rules: [
      'migration.process.dry-run',
      'migration.process.dry-run-false-string',
      'migration.process.dry-run-supported',
      'migration.process.dry-run-checks-*',
      'migration.process.dry-run-no-trace',
      'migration.process.dry-run-not-listed-as-imported',
      'stateful.state-machine',
      'races.process.dry-run-during-process',
      'refused.process.*-dry-run',
    ],
    unobservable:
      'That the creation really runs is seen only through its checks: a dry run that would fail (unknown team, Paused or Complete supplier) must not get the answer of one that would succeed. The dry-run message\'s wording and body are not shown, so "would succeed" is recognised only by comparison.',
  },
  {
    section: '4.1',
    quote: ['3. When the account was already imported, the 400 body has two extra fields'],
    rules: [
      'migration.process.refuses-second',
      'migration.process.dry-run-imported-numbers',
      'races.process.one-account',
    ],
  },
  {
    section: '4.1',
    quote: ['4. When a concurrency limit is enabled and exceeded, the response is 429.'],
    rules: ['limits.concurrency.429-then-retry', 'races.process.one-account', 'refused.process.over-limit'],
  },
  {
    section: '4.1',
    quote: ['Failures of staging (400) arise when:'],
    rules: ['migration.stage.refuses-*', 'refused.stage.*', 'history.refused.nothing-appears'],
  },
  {
    section: '4.2',
    quote: ['All request bodies carry the supplier code and the external account number'],
    rules: ['notes.404.*', 'errors.404.*'],
  },
  {
    section: '4.2',
    quote: ['| POST `/v1/data-import/notes/create/` |'],
    rules: [
      'relations.shape.create-notes',
      'notes.create.one-result-per-note',
      'notes.created-at.kept',
      'relations.echo.notes',
      'relations.echo.create-notes',
    ],
    info: ['notes.create.results-order'],
  },
  {
    section: '4.2',
    quote: ['| POST `/v1/data-import/agreements/create/` |'],
    rules: ['relations.shape.create-agreements', 'additions.agreements.created'],
  },
  {
    section: '4.2',
    quote: ['| POST `/v1/data-import/supply-points/create/` |'],
    rules: ['relations.shape.create-supply-points', 'additions.supply-points.created'],
  },
  {
    section: '4.2',
    quote: ['| POST `/v1/data-import/transactions/create/` |'],
    rules: [
      'relations.shape.create-transactions',
      'transactions.create.every-type',
      'relations.echo.transactions',
      'relations.echo.create-transactions',
    ],
  },
  {
    section: '4.2',
    quote: ['| POST `/v1/data-import/historical-billing-documents/create/` |'],
    rules: ['relations.shape.create-historical-billing-documents', 'billing.create.*'],
  },
  {
    section: '4.2',
    quote: ['| POST `/v1/data-import/historical-statements/create/` |'],
    rules: [
      'relations.shape.create-historical-statements',
      'statements.create.accepted',
      'statements.create.echoes-statements',
      'statements.create.echo-fidelity',
      'relations.echo.statements-edges',
      'relations.echo.create-historical-statements',
    ],
  },
  {
    section: '4.2',
    quote: ['| POST `/v1/data-import/payment-instruction/create/` |'],
    rules: [
      'relations.shape.create-payment-instruction',
      'payments.account.created',
      'payments.account.staged-only-refused',
      'races.payments.instructions-at-once',
    ],
  },
  { section: '4.2', quote: ['Notes rules:'], descriptive: 'Introduces the rules below.' },
  {
    section: '4.2',
    quote: ['1. The account must be imported, not merely staged.'],
    rules: ['notes.404.staged-only', 'stateful.state-machine', 'refused.unknown-account.create-notes'],
  },
  {
    section: '4.2',
    quote: ['2. A note is created only if no note on the account has the same `body`'],
    rules: [
      'notes.dedup.*',
      'properties.notes.dedup',
      'races.notes.one-note',
      'stateful.state-machine',
      'races.notes.same-body-two-requests',
      'keys.note.other-account',
    ],
  },
  {
    section: '4.2',
    quote: ['3. `created_at` defaults to the current local time.'],
    rules: ['notes.created-at.defaults-to-now'],
  },
  {
    section: '4.2',
    quote: ['4. A note must have `body` or `document_paths`.'],
    rules: ['notes.content.required', 'notes.content.document-only'],
  },
  {
    section: '4.2',
    quote: ['5. A wrong supplier code or external number gives 404.'],
    rules: [
      'relations.lookup-near-miss.create-notes',
      'notes.404.wrong-supplier',
      'notes.404.wrong-supplier-existing',
      'notes.404.wrong-number',
      'refused.unknown-account.create-notes',
    ],
  },
  {
    section: '4.2',
    quote: ['Transactions rules:', '- Query parameters (both boolean, both optional):'],
    descriptive: 'Introduces the rules below.',
  },
  {
    section: '4.2',
    quote: ['| check_previously_added | true |'],
    rules: ['transactions.dedup.*', 'properties.transactions.dedup'],
  },
  {
    section: '4.2',
    quote: ['| force_add_to_current_statement | true |'],
    rules: ['transactions.period.*', 'transactions.in-period.not-forced'],
    unobservable:
      "That a forced transaction is added is checked (MUST). Its moved date is checked only where transaction_data shows a date (SHOULD: the content of transaction_data is not shown; the rule skips otherwise). The description added to the transaction and the note pinned to the account cannot be seen: no endpoint reads transactions or notes back, and the pinned note's body is not shown (so it cannot be found through the notes dedup either).",
  },
  {
    section: '4.2',
    quote: ['- Per-item statuses: `TRANSACTION_ADDED_TO_ACCOUNT`'],
    rules: [
      'transactions.dedup.already-exists',
      'transactions.create.added-is-stored',
      'transactions.create.every-type',
      'races.transactions.one-transaction',
      'keys.transaction.other-account',
    ],
  },
  {
    section: '4.2',
    quote: ['- On a 400 the body is `{status: TRANSACTION_IMPORT_ERROR'],
    rules: ['transactions.period.refused-without-forcing', 'transactions.invalid.refused'],
  },
  { section: '4.2', quote: ['Historical billing documents rules:'], descriptive: 'Introduces the rules below.' },
  {
    section: '4.2',
    quote: ['- Usable once per ledger.'],
    rules: ['billing.once-per-ledger.*', 'races.billing.one-import', 'keys.ledger.other-account'],
  },
  {
    section: '4.2',
    quote: ['- Supports period-based documents'],
    rules: ['billing.create.period-based', 'billing.create.item-based'],
  },
  {
    section: '4.2',
    quote: ["- The top-level `billing_document_type` and each document's"],
    rules: ['billing.invalid-type.refused'],
  },
  {
    section: '4.3',
    quote: ['| `/v1/data-import/account-transfer-status/'],
    rules: [
      'relations.shape.account-transfer-status',
      'status.staged-unknown',
      'migration.process.status-completed',
      'stateful.state-machine',
      'history.account.number-stable',
    ],
  },
  {
    section: '4.3',
    quote: ['| `/v1/data-import/all-account-import-processes/'],
    rules: [
      'relations.shape.all-account-import-processes',
      'status.listing-all-pending',
      'migration.process.listed-as-created',
      'status.listings-per-supplier',
    ],
  },
  {
    section: '4.3',
    quote: ['| `/v1/data-import/pending-account-import-processes/'],
    rules: [
      'relations.shape.pending-account-import-processes',
      'status.listing-pending-nulls',
      'migration.process.listed-as-created',
      'migration.process.dry-run',
    ],
  },
  {
    section: '4.3',
    quote: ['| `/v1/data-import/imported-account-import-processes/'],
    rules: [
      'status.listing-imported-200',
      'migration.process.listed-as-imported',
      'status.listing-imported-excludes-pending',
      'migration.process.dry-run-not-listed-as-imported',
    ],
  },
  {
    section: '4.3',
    quote: ['- The status endpoint gives 404 when no import process exists'],
    rules: [
      'relations.lookup-near-miss.account-transfer-status',
      'status.404-without-process',
      'migration.validate.stages-nothing',
      'history.account.state-agrees',
    ],
  },
  {
    section: '4.3',
    quote: ['- In the all-accounts listing, a pending account has null'],
    rules: ['status.listing-all-pending', 'migration.process.dry-run', 'migration.process.dry-run-no-trace'],
  },
  {
    section: '4.4',
    quote: ['| POST `/v1/data-import/business/` |'],
    rules: ['relations.shape.create-business', 'business.create.created'],
  },
  {
    section: '4.4',
    quote: ['| POST `/v1/data-import/business-payment-instruction/create/` |'],
    rules: [
      'relations.shape.create-business-payment-instruction',
      'payments.business.created',
      'payments.business.unknown-business-refused',
    ],
  },
  { section: '4.4', quote: ['Rules:'], descriptive: 'Introduces the rules below.' },
  {
    section: '4.4',
    quote: ['1. A business with contracts is created with all contracts in one payload.'],
    rules: ['business.create.all-contracts'],
  },
  {
    section: '4.4',
    quote: ['2. The business is created before its accounts are migrated.'],
    rules: ['business.link.known-contract', 'business.link.unknown-contract'],
  },
  {
    section: '4.4',
    quote: ['3. The business payment instruction has the same 400 and 500 retry meaning'],
    rules: ['payments.business.persistent-trouble', 'payments.business.intermittent-trouble'],
  },

  // §5–§9 --------------------------------------------------------------------------------------
  {
    section: '5',
    quote: ['1. Requests are authenticated with a token obtained through a GraphQL mutation'],
    rules: ['auth.api-key.unknown-key-no-token'],
    unobservable:
      'That the issued key yields a token is exercised by the runner before any rule when auth.api_key is set (a failure ends the run with exit code 3); the rule on an unknown key runs only then, since with a configured token nothing says the mutation is set up.',
  },
  {
    section: '5',
    quote: ['2. The token is sent in the `Authorization` header.'],
    rules: ['auth.token-scheme.accepted', 'auth.other-schemes.refused'],
  },
  {
    section: '5',
    quote: ['3. A missing or invalid token gives 401'],
    rules: ['relations.lookup-near-miss.token', 'auth.401.*', 'auth.refused-has-no-effect.*'],
  },
  {
    section: '5',
    quote: ['Address, arguments and result of the token mutation: not shown.'],
    freedom: 'Configurable: auth.graphql_url, auth.mutation, auth.token_path.',
  },
  {
    section: '5',
    quote: ['Token lifetime and refresh: not shown.'],
    freedom:
      'The runner renews a token refused mid-run with the API key as often as the run needs, stopping only when obtaining fails or two new tokens in a row are refused before either was accepted.',
  },
  { section: '6', quote: ['Events and webhooks: not shown.'], freedom: 'Nothing to check.' },
  {
    section: '7.1',
    quote: ['{detail: string, code: string, errors: [{detail: string, code: string, attr: string}]}'],
    rules: ['errors.body.shape', 'relations.shape.*'],
  },
  {
    section: '7.1',
    quote: ['- The top-level `detail` and `code` describe the failure as a whole.'],
    rules: ['errors.body.shape'],
  },
  {
    section: '7.1',
    quote: ['One example code is `account_failed_validation`.'],
    freedom: 'An example; other codes are legal.',
    info: ['errors.code.account-failed-validation'],
  },
  {
    section: '7.1',
    quote: ['- In each `errors` item, `detail` is human-readable and its wording may change.'],
    rules: ['errors.body.shape'],
  },
  {
    section: '7.1',
    quote: ['- Each `errors` item has a `code`, a stable machine-readable identifier'],
    rules: ['errors.codes.stable'],
    info: ['errors.code.invalid-phone-number'],
  },
  {
    section: '7.1',
    quote: ['- Each `errors` item has an `attr`, a dot-delimited path'],
    // An edge refused as a limit: only a 400 whose attr names the field is one (relations.edge.*).
    rules: [
      'errors.attr.zero-based-nested',
      'conventions.*',
      'properties.account.single-defect-refused',
      'relations.edge.*',
    ],
  },
  {
    section: '7.1',
    quote: [
      '- The agreements, supply-points and some other create endpoints report validation errors under `non_field_errors`.',
    ],
    rules: [
      'additions.*.non-field-errors',
      'additions.*.field-error-under-non-field-errors',
      'additions.*.non-field-errors-only',
      'notes.content.required',
      'statements.invalid.refused',
      'billing.invalid-type.refused',
      'business.invalid.refused',
      'errors.stage-same-as-validate',
      'properties.account.single-defect-refused',
    ],
  },
  {
    section: '7.2',
    quote: ['| 400 | validation error on any endpoint;'],
    rules: [
      'migration.*.refuses-*',
      'migration.process.dry-run',
      'transactions.period.refused-without-forcing',
      'payments.*.persistent-trouble',
      'errors.body.shape',
      'errors.bad-input.no-5xx.*',
      'conventions.types.*',
      'relations.defect.*',
      'refused.validation.*',
      'refused.stage.*',
      'refused.process.already-imported*',
    ],
  },
  {
    section: '7.2',
    quote: ['| 401 | missing or invalid token |'],
    rules: ['relations.lookup-near-miss.token', 'auth.401.*', 'auth.refused-has-no-effect.*'],
  },
  {
    section: '7.2',
    quote: ['| 404 | account not found'],
    rules: [
      'relations.lookup-near-miss.*',
      'notes.404.*',
      'status.404-without-process',
      'errors.404.*',
      'refused.unknown-account.*',
    ],
  },
  {
    section: '7.2',
    quote: ['| 429 | process endpoint'],
    rules: ['limits.concurrency.429-then-retry', 'refused.process.over-limit'],
  },
  {
    section: '7.2',
    quote: ['| 500 | unexpected error;'],
    // A valid value at an edge (relations.edge.*) is taken or refused as a limit, never a 5xx.
    rules: ['payments.*.intermittent-trouble', 'errors.bad-input.no-5xx.*', 'relations.edge.*'],
  },
  {
    section: '7.2',
    quote: ['Complete list of error codes: not shown.'],
    freedom: 'No rule compares codes beyond stability.',
    info: ['errors.code.*'],
  },
  {
    section: '7.2',
    quote: ['Bodies of the 404, 429, 500 and 401 responses: not shown.'],
    freedom:
      'Rules judge only statuses for these; nothing is asserted about their form (auth.401.no-data checks, under §5.3, only that a 401 carries none of the account data the request would have returned).',
  },
  {
    section: '8',
    quote: ['| Concurrent account processing (process endpoint) |'],
    rules: ['limits.concurrency.429-then-retry', 'races.process.one-account'],
  },
  {
    section: '8',
    quote: ['| Historical billing documents import | once per ledger;'],
    rules: ['billing.once-per-ledger.*', 'races.billing.one-import'],
  },
  {
    section: '8',
    quote: ['Rate limits and payload size limits: not shown.'],
    freedom:
      'The runner bounds its own rate (--rate-limit). The edge rules (relations.edge.*) send a batch near 1 MiB and values past common widths: a 413 for a body larger than the examples, or a §7.1 400 naming the field, is recorded as a discovered limit, never failed.',
  },
  { section: '9', quote: ['1. All paths carry the prefix `/v1/`.'], rules: ['versioning.v1-prefix'] },
  { section: '9', quote: ['2. The interface grows over time'], rules: ['versioning.extra-response-fields'] },
  {
    section: '9',
    quote: ['3. The behaviour and return values of existing endpoints do not change without notice.'],
    uncheckable: 'A promise about the future; a run checks the present.',
  },
  {
    section: '9',
    quote: ['4. Undocumented fields are excluded from this guarantee.'],
    freedom: 'Clients send only documented fields: every payload the suite sends validates against the spec model.',
    info: ['conventions.undocumented-field'],
  },
];

/** Every statement: this map's and the areas' own, in the order of the spec's lines. */
export const TRACE: readonly Statement[] = inSpecOrder(specText(), STATEMENTS, areaStatements);
