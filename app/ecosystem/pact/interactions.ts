/**
 * The interactions of the Pact contract between an import supplier (consumer) and the data-import
 * service (provider): one per documented success and error case that a provider state can set up.
 * Request bodies are the canonical fixtures; identifiers the provider must create come from provider
 * state (`fromProviderState`); response bodies are matchers derived from the spec model's response
 * schemas (matchers.ts), never literals the spec does not state, never message wording (§7.1).
 */
import { DRIVERS, type EndpointDriver } from '../../../core/engine/drivers.js';
import { Preconditions } from '../../../core/engine/needs.js';
import type { RuleContext } from '../../../core/engine/rule.js';
import { PayloadTemplates } from '../../../core/engine/templates.js';
import { loadFixture } from '../../../core/spec/fixtures.js';
import { getAtPath, setAtPath } from '../../../core/spec/paths.js';
import { type EndpointId, type EndpointSpec, endpointPath, model } from '../../../core/spec/index.js';
import type { Matcher, PactMatchers } from './library.js';
import { bodyMatcher, contains, exact, items, pattern, each } from './matchers.js';
import {
  STATE,
  type StateName,
  VALUE,
  accountTemplate,
  accountValueName,
  businessTemplate,
  businessValueName,
  freshAccountPaths,
  freshBusinessPaths,
  probeIds,
} from './states.js';

export const CONSUMER = 'import-supplier';
export const PROVIDER = 'data-import-service';
export const CONTRACT_FILE = `${CONSUMER}-${PROVIDER}.json`;

/** Examples the contract shows (a stub server answers with them); they are matched by type or format only. */
const TEAM_EXAMPLE = 'Migrations';
const ACCOUNT_NUMBER_EXAMPLE = 'A-0000ABCD';

/** §2.3 customer email is "an e-mail address": a value without an @ is unambiguously not one (docs/design.md §7). */
export const INVALID_ACCOUNT_DEFECT = { path: 'customers.0.email', value: 'not-an-email' };

/** A date long before any account existed: outside the open statement period of any fresh account. */
export const OUT_OF_PERIOD_DATE = '2001-03-15';

export interface ContractState {
  name: StateName;
  params?: Record<string, unknown>;
}

export interface ContractInteraction {
  description: string;
  endpoint: EndpointId;
  spec: string;
  /** What the interaction asserts and what it leaves open, for the contract's readers. */
  comment: string;
  states: ContractState[];
  request: {
    path: string | Matcher;
    query?: Record<string, string>;
    body?: unknown;
    /** Carries `Authorization: Token <ACCESS_TOKEN>` (§5.2); false only for the 401 case. */
    authenticated: boolean;
  };
  response: {
    /** The status the consumer test expects from the mock server. */
    status: number;
    /** A status matcher, where the spec allows more than one status. */
    statusMatcher?: Matcher;
    body?: unknown;
  };
}

/** Documented cases the contract leaves out, and why. */
export const NOT_IN_CONTRACT: readonly { endpoint: EndpointId; case?: string; reason: string }[] = [
  {
    endpoint: 'createAgreements',
    reason: '§4.2: the agreements payload shape is not shown, so no contract can state one',
  },
  {
    endpoint: 'createSupplyPoints',
    reason: '§4.2: the supply-points payload shape is not shown, so no contract can state one',
  },
  {
    endpoint: 'processAccount',
    case: '429',
    reason:
      '§8: the concurrency limit is an optional operator setting, and exceeding it takes concurrent requests; an interaction is one request',
  },
  {
    endpoint: 'accountTransferStatus',
    case: 'IN_PROGRESS',
    reason: '§3: only observable while a process request runs; an interaction is one request',
  },
];

/** One documented case of an endpoint; which endpoint is given by the table row it is listed in. */
type EndpointInteraction = Omit<ContractInteraction, 'endpoint'>;

interface EndpointInteractions {
  endpoint: EndpointId;
  /** The endpoint's cases, in contract order; `spec` is the row's endpoint, so paths come from the model. */
  interactions(M: PactMatchers, spec: EndpointSpec): EndpointInteraction[];
}

// Shared pieces of requests and responses ---------------------------------------------------------

/** The key the §4.2 payloads carry: the account the data is for. */
type AccountKeyed = { import_supplier: string; external_account_number: string };
type InstructionFields = { vendor: string; reference: string; type: string };

const NOT_SHOWN = 'The response body is not shown (§7.2), so only the status is asserted.';

const ONGOING: ContractState = { name: STATE.ongoing, params: { status: 'Ongoing' } };

/** The fixtures' transactions are dated after the template ledger's last closed statement: the state closes it then. */
const importedWithLedger = (): ContractState => ({
  name: STATE.importedWithLedger,
  params: { last_statement_closing_date: accountTemplate().ledgers?.[0]?.last_statement_closing_date ?? '2024-05-31' },
});

const injected = (M: PactMatchers, name: string, example: unknown) => M.fromProviderState(`\${${name}}`, example);

/** An identifier the request brings itself, made fresh with the state's namespace. */
const fresh = (M: PactMatchers, example: string) => M.fromProviderState(`\${${VALUE.namespace}}-${example}`, example);

/** A path with parameters from provider state: `{import_supplier_code}` → `${import_supplier}`. */
function statePath(
  M: PactMatchers,
  spec: EndpointSpec,
  values: Record<string, [valueName: string, example: string]>,
): Matcher {
  const expression = spec.path.replace(/\{(\w+)\}/g, (_, name: string) => `\${${values[name][0]}}`);
  const example = endpointPath(spec, Object.fromEntries(Object.entries(values).map(([k, [, ex]]) => [k, ex])));
  return M.fromProviderState(expression, example);
}

function statusPath(M: PactMatchers, spec: EndpointSpec): Matcher {
  const template = accountTemplate();
  return statePath(M, spec, {
    import_supplier_code: [VALUE.supplier, template.import_supplier],
    external_account_number: [VALUE.account, template.external_account_number],
  });
}

const listingPath = (M: PactMatchers, spec: EndpointSpec) =>
  statePath(M, spec, { import_supplier_code: [VALUE.supplier, accountTemplate().import_supplier] });

const accountKey = (M: PactMatchers, f: AccountKeyed) => ({
  import_supplier: injected(M, VALUE.supplier, f.import_supplier),
  external_account_number: injected(M, VALUE.account, f.external_account_number),
});

/** The account template with every identifier a run makes unique taken from provider state. */
function stateAccount(M: PactMatchers): Record<string, unknown> {
  const template = accountTemplate();
  const body = structuredClone(template) as unknown as Record<string, unknown>;
  Object.assign(body, accountKey(M, template));
  for (const path of freshAccountPaths())
    setAtPath(body, path, injected(M, accountValueName(path), getAtPath(template, path)));
  return body;
}

function invalidAccount(M: PactMatchers): Record<string, unknown> {
  const body = stateAccount(M);
  setAtPath(body, INVALID_ACCOUNT_DEFECT.path, INVALID_ACCOUNT_DEFECT.value);
  return body;
}

function stateBusiness(M: PactMatchers): Record<string, unknown> {
  const business = businessTemplate();
  const body = structuredClone(business) as unknown as Record<string, unknown>;
  body.import_supplier_code = injected(M, VALUE.supplier, business.import_supplier_code);
  body.external_business_identifier = injected(M, VALUE.business, business.external_business_identifier);
  for (const path of freshBusinessPaths())
    setAtPath(body, path, injected(M, businessValueName(path), getAtPath(business, path)));
  return body;
}

/** The staged account's key, as the stage endpoint echoes it (§4.1). */
function stagedExample(): AccountKeyed {
  const template = accountTemplate();
  return { import_supplier: template.import_supplier, external_account_number: template.external_account_number };
}

function processBody(M: PactMatchers, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const template = accountTemplate();
  return {
    external_account_number: injected(M, VALUE.account, template.external_account_number),
    import_supplier_code: injected(M, VALUE.supplier, template.import_supplier),
    operations_team_name: injected(M, VALUE.team, TEAM_EXAMPLE),
    ...extra,
  };
}

const validationError = (M: PactMatchers) =>
  bodyMatcher(M, model.ValidationErrorBody, {
    detail: 'The account failed validation.',
    code: 'account_failed_validation', // §7.1's example code, matched by type only
    // Only attr is pinned; the item's code is an example (codes beyond §7.1's two examples are not shown).
    errors: contains({
      detail: 'Enter a valid e-mail address.',
      code: 'invalid_email',
      attr: exact(INVALID_ACCOUNT_DEFECT.path),
    }),
  });

const withTransactionIds = (M: PactMatchers, list: Record<string, unknown>[]) =>
  list.map((t) => ({ ...t, transaction_id: fresh(M, String(t.transaction_id)) }));

const instructionFrom = (M: PactMatchers, vendorExample: string, referenceExample: string, typeExample: string) => ({
  vendor: injected(M, VALUE.vendor, vendorExample),
  reference: injected(M, VALUE.reference, referenceExample),
  type: injected(M, VALUE.instructionType, typeExample),
});

// The table: one row per endpoint, in the order the contract lists them ---------------------------

const INTERACTIONS: readonly EndpointInteractions[] = [
  // §4.1 account migration -----------------------------------------------------------------
  {
    endpoint: 'stageAccount',
    interactions: (M, spec) => [
      {
        description: 'stage: the first staging of a valid account payload',
        spec: '§4.1, §3',
        comment:
          'Answers 201 {import_supplier, external_account_number} on first staging (§4.1). Every identifier the account brings comes from provider state, so the account is new.',
        states: [ONGOING],
        request: { path: spec.path, body: stateAccount(M), authenticated: true },
        response: { status: 201, body: bodyMatcher(M, model.StageAccountResponse, stagedExample()) },
      },
      {
        description: 'stage: staging an already staged account again',
        spec: '§4.1, §3 (staged → staged, data replaced)',
        comment: 'Staged data can be replaced until the account is created; an update answers 200 (§3, §4.1).',
        states: [{ name: STATE.staged }],
        request: { path: spec.path, body: stateAccount(M), authenticated: true },
        response: { status: 200, body: bodyMatcher(M, model.StageAccountResponse, stagedExample()) },
      },
      {
        description: 'stage: an invalid account payload',
        spec: '§4.1, §7.1',
        comment: `Staging validates with the rules of the validate endpoint first (§4.1): 400 with the §7.1 body, an errors item at ${INVALID_ACCOUNT_DEFECT.path} (zero-based, dot-delimited attr). detail wording is never compared.`,
        states: [ONGOING],
        request: { path: spec.path, body: invalidAccount(M), authenticated: true },
        response: { status: 400, body: validationError(M) },
      },
      {
        description: 'stage: an account of a paused supplier',
        spec: '§2.2, §4.1',
        comment: `Accounts of a Paused supplier that try to migrate get an error: 400 (§2.2, §4.1). ${NOT_SHOWN}`,
        states: [{ name: STATE.paused, params: { status: 'Paused' } }],
        request: { path: spec.path, body: stateAccount(M), authenticated: true },
        response: { status: 400 },
      },
    ],
  },
  {
    endpoint: 'validateAccount',
    interactions: (M, spec) => [
      {
        description: 'validate: a valid account payload',
        spec: '§4.1',
        comment: 'Answers 200 with the validated data as body (§4.1); its content is not specified further.',
        states: [ONGOING],
        request: { path: spec.path, body: stateAccount(M), authenticated: true },
        response: { status: 200, body: bodyMatcher(M, model.ValidatedAccount) },
      },
      {
        description: 'validate: an invalid account payload',
        spec: '§4.1, §7.1',
        comment: `400 with the §7.1 body and an errors item at ${INVALID_ACCOUNT_DEFECT.path}.`,
        states: [ONGOING],
        request: { path: spec.path, body: invalidAccount(M), authenticated: true },
        response: { status: 400, body: validationError(M) },
      },
    ],
  },
  {
    endpoint: 'processAccount',
    interactions: (M, spec) => [
      {
        description: 'process: a staged account',
        spec: '§4.1, §3',
        comment: 'The named team exists and the data is staged: 201 {service_account_number} (§4.1 rule 1).',
        states: [{ name: STATE.staged }, { name: STATE.team }],
        request: { path: spec.path, body: processBody(M), authenticated: true },
        response: {
          status: 201,
          body: bodyMatcher(M, model.ProcessAccountResponse, { service_account_number: ACCOUNT_NUMBER_EXAMPLE }),
        },
      },
      {
        description: 'process: a dry run that would succeed',
        spec: '§4.1 rule 2',
        comment: `The creation runs and is rolled back: 400 (§4.1 rule 2). ${NOT_SHOWN}`,
        states: [{ name: STATE.staged }, { name: STATE.team }],
        request: { path: spec.path, body: processBody(M, { dry_run: true }), authenticated: true },
        response: { status: 400 },
      },
      {
        description: 'process: an account that is already imported',
        spec: '§4.1 rule 3, §3',
        comment:
          'The 400 body has the two extra fields external_account_number and service_account_number (§4.1 rule 3).',
        states: [{ name: STATE.imported }, { name: STATE.team }],
        request: { path: spec.path, body: processBody(M), authenticated: true },
        response: {
          status: 400,
          body: bodyMatcher(M, model.AlreadyImportedBody, {
            external_account_number: accountTemplate().external_account_number,
            service_account_number: ACCOUNT_NUMBER_EXAMPLE,
          }),
        },
      },
    ],
  },

  // §4.2 data added to an imported account ---------------------------------------------------
  {
    endpoint: 'createNotes',
    interactions: (M, spec) => {
      const notes = loadFixture<AccountKeyed & { notes: { body?: string; created_at?: string }[] }>('notes/notes');
      return [
        {
          description: 'notes: new notes for an imported account',
          spec: '§4.2 notes',
          comment: '201 with one {created_at, body, status} per note, in order, each NOTE_CREATION_SUCCESS (§4.2).',
          states: [{ name: STATE.imported }],
          request: { path: spec.path, body: { ...accountKey(M, notes), notes: notes.notes }, authenticated: true },
          response: {
            status: 201,
            body: bodyMatcher(
              M,
              model.NotesResponse,
              items(
                ...notes.notes.map((n) => ({
                  created_at: n.created_at,
                  body: n.body,
                  status: exact('NOTE_CREATION_SUCCESS'),
                })),
              ),
            ),
          },
        },
        {
          description: 'notes: a note with the body and created_at of an existing note',
          spec: '§4.2 notes rule 2',
          comment:
            'A note is not created again when one with the same body and created_at exists: NOTE_ALREADY_EXISTS (§4.2 rule 2).',
          states: [
            {
              name: STATE.importedWithNote,
              params: { body: notes.notes[0].body, created_at: notes.notes[0].created_at },
            },
          ],
          request: { path: spec.path, body: { ...accountKey(M, notes), notes: [notes.notes[0]] }, authenticated: true },
          response: {
            status: 201,
            body: bodyMatcher(M, model.NotesResponse, items({ status: exact('NOTE_ALREADY_EXISTS') })),
          },
        },
        {
          description: 'notes: a wrong external account number',
          spec: '§4.2 notes rule 5, §7.2',
          comment: `A wrong supplier code or external number gives 404 (§4.2 rule 5). ${NOT_SHOWN}`,
          states: [{ name: STATE.imported }],
          request: {
            path: spec.path,
            body: {
              import_supplier: injected(M, VALUE.supplier, notes.import_supplier),
              external_account_number: M.fromProviderState(
                `\${${VALUE.account}}-WRONG`,
                `${notes.external_account_number}-WRONG`,
              ),
              notes: [notes.notes[1]],
            },
            authenticated: true,
          },
          response: { status: 404 },
        },
      ];
    },
  },
  {
    endpoint: 'createTransactions',
    interactions: (M, spec) => {
      const transactions = loadFixture<AccountKeyed & { transactions: Record<string, unknown>[] }>(
        'transactions/all-types',
      );
      return [
        {
          description: 'transactions: one transaction of every type',
          spec: '§4.2 transactions, §2.4',
          comment:
            '201 {results: [{status, transaction_data}]}, one result per transaction, each TRANSACTION_ADDED_TO_ACCOUNT. Transaction ids are fresh (namespace from provider state).',
          states: [importedWithLedger()],
          request: {
            path: spec.path,
            body: { ...accountKey(M, transactions), transactions: withTransactionIds(M, transactions.transactions) },
            authenticated: true,
          },
          response: {
            status: 201,
            body: bodyMatcher(M, model.TransactionsResponse, {
              results: items(
                ...transactions.transactions.map(() => ({ status: exact('TRANSACTION_ADDED_TO_ACCOUNT') })),
              ),
            }),
          },
        },
        {
          description: 'transactions: a transaction outside the open statement period, not forced',
          spec: '§4.2 transactions',
          comment: `With force_add_to_current_statement=false a transaction dated ${OUT_OF_PERIOD_DATE}, before the ledger's last statement closed, cannot be imported: 400 {status: TRANSACTION_IMPORT_ERROR, error_detail, transaction_data} (§4.2). error_detail wording is not compared.`,
          states: [importedWithLedger()],
          request: {
            path: spec.path,
            query: { force_add_to_current_statement: 'false' },
            body: {
              ...accountKey(M, transactions),
              transactions: withTransactionIds(M, [
                { ...transactions.transactions[0], transaction_date: OUT_OF_PERIOD_DATE },
              ]),
            },
            authenticated: true,
          },
          response: {
            status: 400,
            body: bodyMatcher(M, model.TransactionImportErrorBody, {
              status: exact('TRANSACTION_IMPORT_ERROR'),
              error_detail: 'The transaction is outside the open statement period.',
            }),
          },
        },
      ];
    },
  },
  {
    endpoint: 'createHistoricalBillingDocuments',
    interactions: (M, spec) => {
      const billing = loadFixture<Record<string, unknown> & AccountKeyed & { ledger_code: string }>(
        'historical-billing-documents/period-based',
      );
      const records = (list: unknown) => (list as Record<string, unknown>[] | undefined) ?? [];
      return [
        {
          description: 'historical billing documents: period-based documents for a ledger',
          spec: '§4.2, §8',
          comment:
            'The first import for a ledger answers 201 with an empty body (§4.2); the body is not asserted. Document and transaction ids are fresh.',
          states: [importedWithLedger()],
          request: {
            path: spec.path,
            body: {
              ...billing,
              ...accountKey(M, billing),
              ledger_code: injected(M, VALUE.ledger, billing.ledger_code),
              historical_billing_documents: records(billing.historical_billing_documents).map((d) => ({
                ...d,
                billing_document_identifier: fresh(M, String(d.billing_document_identifier)),
                transactions: withTransactionIds(M, records(d.transactions)),
              })),
              additional_historical_transactions: withTransactionIds(
                M,
                records(billing.additional_historical_transactions),
              ),
            },
            authenticated: true,
          },
          response: { status: 201 },
        },
      ];
    },
  },
  {
    endpoint: 'createHistoricalStatements',
    interactions: (M, spec) => {
      const statements = loadFixture<AccountKeyed & { statements: Record<string, unknown>[] }>(
        'historical-statements/statements',
      );
      return [
        {
          description: 'historical statements: statements for an imported account',
          spec: '§4.2',
          comment:
            'The body is the validated data; the status is stated as 201 and also as 200 (§4.2), so either is accepted. Statement ids are fresh.',
          states: [{ name: STATE.imported }],
          request: {
            path: spec.path,
            body: {
              ...accountKey(M, statements),
              statements: statements.statements.map((s) => ({ ...s, statement_id: fresh(M, String(s.statement_id)) })),
            },
            authenticated: true,
          },
          response: {
            status: 201,
            statusMatcher: M.matchStatus(201, [201, 200]),
            body: bodyMatcher(M, model.ValidatedStatements),
          },
        },
      ];
    },
  },
  {
    endpoint: 'createPaymentInstruction',
    interactions: (M, spec) => {
      const instruction = loadFixture<Record<string, unknown> & AccountKeyed & InstructionFields>(
        'payment-instructions/account',
      );
      const vendorParams = { vendor: instruction.vendor, type: instruction.type };
      // The cases differ only in the reference: provider state injects the one its vendor state answers for.
      const body = (reference: string) => ({
        ...accountKey(M, instruction),
        ...instructionFrom(M, instruction.vendor, reference, instruction.type),
      });
      return [
        {
          description: 'payment instruction: an instruction that exists upstream, for an imported account',
          spec: '§2.7, §4.2',
          comment:
            'The service checks the instruction with the vendor and stores it: 201 {service_account_number, reference} (§4.2).',
          states: [{ name: STATE.imported }, { name: STATE.instruction, params: vendorParams }],
          request: { path: spec.path, body: body(instruction.reference), authenticated: true },
          response: {
            status: 201,
            body: bodyMatcher(M, model.PaymentInstructionResponse, {
              service_account_number: ACCOUNT_NUMBER_EXAMPLE,
              reference: instruction.reference,
            }),
          },
        },
        {
          description: 'payment instruction: persistent trouble at the upstream vendor',
          spec: '§4.2 payment instruction, §7.2',
          comment: `Persistent trouble reaching the vendor is a 400: the request is not retried in its current form (§4.2). ${NOT_SHOWN}`,
          states: [{ name: STATE.imported }, { name: STATE.persistentTrouble, params: vendorParams }],
          request: { path: spec.path, body: body('REF-FAIL'), authenticated: true },
          response: { status: 400 },
        },
        {
          description: 'payment instruction: intermittent trouble at the upstream vendor',
          spec: '§4.2 payment instruction, §7.2',
          comment: `Intermittent trouble reaching the vendor is a 500: the request is retried as it is (§4.2). ${NOT_SHOWN}`,
          states: [{ name: STATE.imported }, { name: STATE.intermittentTrouble, params: vendorParams }],
          request: { path: spec.path, body: body('REF-FLAKY'), authenticated: true },
          response: { status: 500 },
        },
      ];
    },
  },

  // §4.3 status and listings --------------------------------------------------------------
  {
    endpoint: 'accountTransferStatus',
    interactions: (M, spec) => {
      const path = statusPath(M, spec);
      return [
        {
          description: 'status: a staged account that is not created yet',
          spec: '§4.3, §3',
          comment:
            'No account exists yet: 200 {status: UNKNOWN, service_account_number: ""} — the number is an empty string (§4.3, §3).',
          states: [{ name: STATE.staged }],
          request: { path, authenticated: true },
          response: {
            status: 200,
            body: bodyMatcher(M, model.AccountTransferStatus, {
              status: exact('UNKNOWN'),
              service_account_number: exact(''),
            }),
          },
        },
        {
          description: 'status: an imported account',
          spec: '§4.3, §3',
          comment:
            'The account has been created: 200 {status: COMPLETED, service_account_number} with the number (§3, §4.3).',
          states: [{ name: STATE.imported }],
          request: { path, authenticated: true },
          response: {
            status: 200,
            body: bodyMatcher(M, model.AccountTransferStatus, {
              status: exact('COMPLETED'),
              service_account_number: pattern('^.+$', ACCOUNT_NUMBER_EXAMPLE),
            }),
          },
        },
        {
          description: 'status: an account without an import process',
          spec: '§4.3, §7.2',
          comment: `No import process for the supplier code and external number: 404 (§4.3). ${NOT_SHOWN}`,
          states: [ONGOING],
          request: { path, authenticated: true },
          response: { status: 404 },
        },
      ];
    },
  },
  {
    endpoint: 'allAccountImportProcesses',
    interactions: (M, spec) => [
      {
        description: 'listings: all account import processes of a supplier',
        spec: '§4.3, §2.9',
        comment:
          'Pending and created records (§4.3): a pending record has null service_account_number and account_created_at; a created one has both. Other records may be there too.',
        states: [{ name: STATE.staged }, { name: STATE.imported }],
        request: { path: listingPath(M, spec), authenticated: true },
        response: {
          status: 200,
          body: bodyMatcher(
            M,
            model.AllAccountImportProcesses,
            contains(
              {
                external_account_number: accountTemplate().external_account_number,
                service_account_number: pattern('^.+$', ACCOUNT_NUMBER_EXAMPLE),
                account_created_at: '2024-06-10T11:15:00Z',
              },
              { external_account_number: 'EXT-GAS-0001', service_account_number: null, account_created_at: null },
            ),
          ),
        },
      },
    ],
  },
  {
    endpoint: 'pendingAccountImportProcesses',
    interactions: (M, spec) => [
      {
        description: 'listings: pending account import processes of a supplier',
        spec: '§4.3',
        comment: 'Every pending record has service_account_number and account_created_at null, always (§4.3).',
        states: [{ name: STATE.staged }],
        request: { path: listingPath(M, spec), authenticated: true },
        response: {
          status: 200,
          body: bodyMatcher(
            M,
            model.PendingAccountImportProcesses,
            each(
              {
                external_account_number: accountTemplate().external_account_number,
                service_account_number: null,
                account_created_at: null,
              },
              1,
            ),
          ),
        },
      },
    ],
  },
  {
    endpoint: 'importedAccountImportProcesses',
    interactions: (M, spec) => [
      {
        description: 'listings: imported account import processes of a supplier',
        spec: '§4.3',
        comment: 'Answers 200; the response body is not shown (§4.3), so only the status is asserted.',
        states: [{ name: STATE.imported }],
        request: { path: listingPath(M, spec), authenticated: true },
        response: { status: 200 },
      },
    ],
  },

  // §4.4 business ---------------------------------------------------------------------------
  {
    endpoint: 'createBusiness',
    interactions: (M, spec) => [
      {
        description: 'business: a business with all its contracts',
        spec: '§4.4, §2.8',
        comment:
          '201 {service_business_id: integer, external_business_identifier} (§4.4). The business identifier, contract identifiers and company name are fresh.',
        states: [ONGOING],
        request: { path: spec.path, body: stateBusiness(M), authenticated: true },
        response: {
          status: 201,
          body: bodyMatcher(M, model.BusinessResponse, {
            service_business_id: 1001,
            external_business_identifier: businessTemplate().external_business_identifier,
          }),
        },
      },
    ],
  },
  {
    endpoint: 'createBusinessPaymentInstruction',
    interactions: (M, spec) => {
      const instruction = loadFixture<
        Record<string, unknown> &
          InstructionFields & {
            import_supplier_code: string;
            external_business_identifier: string;
            accounts: { external_account_number: string }[];
          }
      >('payment-instructions/business');
      return [
        {
          description: 'business payment instruction: an instruction that exists upstream, for a business',
          spec: '§2.7, §4.4',
          comment: '201 {reference, external_business_identifier} (§4.4).',
          states: [
            { name: STATE.business },
            { name: STATE.imported },
            { name: STATE.instruction, params: { vendor: instruction.vendor, type: instruction.type } },
          ],
          request: {
            path: spec.path,
            body: {
              ...instruction,
              import_supplier_code: injected(M, VALUE.supplier, instruction.import_supplier_code),
              external_business_identifier: injected(M, VALUE.business, instruction.external_business_identifier),
              ...instructionFrom(M, instruction.vendor, instruction.reference, instruction.type),
              accounts: instruction.accounts.map((a) => ({
                external_account_number: injected(M, VALUE.account, a.external_account_number),
              })),
            },
            authenticated: true,
          },
          response: {
            status: 201,
            body: bodyMatcher(M, model.BusinessPaymentInstructionResponse, {
              reference: instruction.reference,
              external_business_identifier: instruction.external_business_identifier,
            }),
          },
        },

        // §5 authentication ----------------------------------------------------------------------
        {
          description: 'authentication: a request without a token',
          spec: '§5.3, §7.2',
          comment:
            'A missing token gives 401, stated for the business payment instruction endpoint (§5.3). The 401 body is not shown (§7.2).',
          states: [],
          request: { path: spec.path, body: instruction, authenticated: false },
          response: { status: 401 },
        },
      ];
    },
  },
];

// Endpoints without a row: their interactions derived from the driver table ------------------------

/** A context for a driver's sample outside a run: the canonical payloads, fixed identifiers, no fixtures. */
const sampleContext = () =>
  ({ ids: probeIds(), preconditions: new Preconditions({}, new PayloadTemplates()) }) as unknown as RuleContext;

/** The first documented success status of a driver, and a matcher when it documents more than one. */
function successStatus(M: PactMatchers, driver: EndpointDriver): { status: number; statusMatcher?: Matcher } {
  const statuses = [driver.accepted.status].flat();
  return statuses.length > 1
    ? { status: statuses[0]!, statusMatcher: M.matchStatus(statuses[0]!, [...statuses]) }
    : { status: statuses[0]! };
}

/**
 * The interactions of an endpoint the table has no row for, derived from its driver (§9.2: the
 * interface grows): its sample request about the provider state's account, answered with its
 * documented success; the 404 of an account that is staged but not imported, where the endpoint
 * documents a 404; and the 401 without a token. Undefined where no request can be derived: an
 * endpoint that is not a POST about an account (`staged` or `imported` scope, its body keyed by
 * `import_supplier` and `external_account_number` as §4.2's are), or one accepted only
 * with what a provider state does not set up (the driver's `accepted.needs`, a request shaped by its
 * subject, a configured template) — its row is then written by hand, or its reason given in
 * NOT_IN_CONTRACT.
 */
export function derivedInteractions(
  M: PactMatchers,
  spec: EndpointSpec,
  driver: EndpointDriver = DRIVERS[spec.id],
): EndpointInteraction[] | undefined {
  const scope = driver.accepted.scope ?? driver.scope;
  // A driver with `about` accepts only a request shaped by its subject (a ledger it was imported with).
  if (spec.method !== 'POST' || (scope !== 'imported' && scope !== 'staged') || driver.accepted.needs?.length)
    return undefined;
  if (driver.about || driver.sampleNeeds?.length) return undefined;
  const sample = driver.sample(sampleContext()).body;
  // The provider state's account replaces the sample's: a body keyed as §4.2's are (other keys: its row).
  if (
    typeof sample !== 'object' ||
    sample === null ||
    !('import_supplier' in sample && 'external_account_number' in sample)
  )
    return undefined;
  const body = { ...(sample as Record<string, unknown>), ...accountKey(M, stagedExample()) };
  const { status, statusMatcher } = successStatus(M, driver);
  const success = spec.responses.find((r) => r.status === status);
  const documents = (code: number) => spec.responses.some((r) => r.status === code);
  const derived = "Derived from the endpoint's driver (its sample request)";
  return [
    {
      description: `${spec.words}: a valid request for ${scope === 'imported' ? 'an imported' : 'a staged'} account`,
      spec: success?.spec ?? spec.spec,
      comment: `${derived}, answered with its documented success, ${status}${success?.body === 'empty' ? ' with an empty body' : ''}.`,
      states: [{ name: scope === 'imported' ? STATE.imported : STATE.staged }],
      request: { path: spec.path, body, authenticated: true },
      response: {
        status,
        ...(statusMatcher ? { statusMatcher } : {}),
        ...(success && typeof success.body === 'object' ? { body: bodyMatcher(M, success.body) } : {}),
      },
    },
    ...(scope === 'imported' && documents(404)
      ? [
          {
            description: `${spec.words}: an account that is staged but not imported`,
            spec: spec.responses.find((r) => r.status === 404)!.spec,
            comment: `${derived}: its documented 404 (${spec.responses.find((r) => r.status === 404)!.description}) for an account that is staged but not imported. ${NOT_SHOWN}`,
            states: [{ name: STATE.staged }],
            request: { path: spec.path, body, authenticated: true },
            response: { status: 404 },
          },
        ]
      : []),
    ...(documents(401)
      ? [
          {
            description: `${spec.words}: a request without a token`,
            spec: '§5.3, §7.2',
            comment: `${derived}: a missing token gives 401 (§5.3). The 401 body is not shown (§7.2).`,
            states: [],
            request: { path: spec.path, body, authenticated: false },
            response: { status: 401 },
          },
        ]
      : []),
  ];
}

/** The endpoints whose interactions the table writes out. */
const WRITTEN = new Set<EndpointId>(INTERACTIONS.map((row) => row.endpoint));

export function contractInteractions(M: PactMatchers): ContractInteraction[] {
  const rows: EndpointInteractions[] = [
    ...INTERACTIONS,
    ...Object.values(model.endpoints)
      .filter((e) => !WRITTEN.has(e.id) && !NOT_IN_CONTRACT.some((n) => n.endpoint === e.id && n.case === undefined))
      .flatMap((e) => {
        const derived = derivedInteractions(M, e);
        return derived ? [{ endpoint: e.id, interactions: () => derived }] : [];
      }),
  ];
  return rows.flatMap(({ endpoint, interactions }) =>
    interactions(M, model.endpoints[endpoint]).map((interaction) => ({ ...interaction, endpoint })),
  );
}
