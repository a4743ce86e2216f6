/**
 * The endpoint catalogue of §4: method, path, parameters, request body and every documented
 * response. The reference server routes by it, the client calls through it, the auth rules iterate
 * it and the OpenAPI/Pact exports are generated from it.
 */
import type { z } from 'zod';
import type { defineRequests } from './requests.js';
import type { defineResponses } from './responses.js';

export type EndpointId =
  | 'validateAccount'
  | 'stageAccount'
  | 'processAccount'
  | 'createNotes'
  | 'createAgreements'
  | 'createSupplyPoints'
  | 'createTransactions'
  | 'createHistoricalBillingDocuments'
  | 'createHistoricalStatements'
  | 'createPaymentInstruction'
  | 'accountTransferStatus'
  | 'allAccountImportProcesses'
  | 'pendingAccountImportProcesses'
  | 'importedAccountImportProcesses'
  | 'createBusiness'
  | 'createBusinessPaymentInstruction';

/** A documented response. `body` is a schema, `empty` (§4.2 "empty body") or `not shown`. */
export interface DocumentedResponse {
  status: number;
  spec: string;
  description: string;
  body: z.ZodType | 'empty' | 'not shown';
  /** Where this answer hands back what was sent (core/engine/echo.ts). */
  echoes?: Echo;
}

/**
 * An answer that hands back what was sent: the request's `from` (a dot path, `[]` for every item,
 * `''` the whole body) comes back as the body, or — `itemAt` — at that field of each item of a result
 * list; `fields` when only some of each item's fields come back (§4.2 notes: `{created_at, body,
 * status}`). `strength` is `stated` where the spec says the body is what was sent, `reading` where
 * it names the echo without showing its content (`why` says so).
 */
export interface Echo {
  from: string;
  itemAt?: string;
  fields?: readonly string[];
  strength: 'stated' | 'reading';
  why?: string;
  /** Documented rules that change a value sent (§4.2 transactions: forcing moves the date). */
  changes?: readonly { field: string; when: string }[];
}

export interface EndpointSpec {
  id: EndpointId;
  method: 'GET' | 'POST';
  /**
   * Whether a successful request keeps what it is sent (§1, §4): staging and every "create". Validate
   * keeps nothing, process builds the account from what was staged, and reads keep nothing.
   */
  stores: boolean;
  /** The endpoint in words, for causes and messages ("pending listing not implemented (501)"). */
  words: string;
  /**
   * Whether the request looks up something that may not exist (an account, a business), so that a
   * 404 may be §7.2's "not found". Validate checks a payload, stage creates or replaces staged data
   * (its refusals are 400), the listings list a supplier's records, business creation creates: a 404
   * to those, naming a supplier that exists, can only mean the path is not there.
   */
  looksUp: boolean;
  /** Path template under `{base_url}`, with `{name}` path parameters. */
  path: string;
  spec: string;
  title: string;
  pathParams?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  responses: DocumentedResponse[];
}

type Requests = ReturnType<typeof defineRequests>;
type Responses = ReturnType<typeof defineResponses>;

export const DATA_IMPORT_PREFIX = '/v1/data-import/';

export function defineEndpoints(q: Requests, s: Responses): Record<EndpointId, EndpointSpec> {
  const validationError = (spec: string, description = 'validation error (§7.1 body)'): DocumentedResponse => ({
    status: 400,
    spec,
    description,
    body: s.ValidationErrorBody,
  });
  const unauthorized: DocumentedResponse = {
    status: 401,
    spec: '§5.3, §7.2',
    description: 'missing or invalid token',
    body: 'not shown',
  };
  const notFound = (spec: string, description: string): DocumentedResponse => ({
    status: 404,
    spec,
    description,
    body: 'not shown',
  });
  const vendorResponses = (spec: string): DocumentedResponse[] => [
    {
      status: 400,
      spec,
      description: 'validation error, or persistent trouble reaching the upstream payment vendor (not retried as is)',
      body: 'not shown',
    },
    {
      status: 500,
      spec,
      description: 'intermittent trouble reaching the upstream payment vendor (retried as is)',
      body: 'not shown',
    },
  ];

  const list: EndpointSpec[] = [
    {
      id: 'validateAccount',
      words: 'account validation',
      looksUp: false,
      method: 'POST',
      stores: false,
      path: '/v1/data-import/validate-account/',
      spec: '§4.1',
      title: 'Validate an account payload',
      body: q.AccountPayload,
      responses: [
        {
          status: 200,
          spec: '§4.1',
          description: 'the validated data',
          body: s.ValidatedAccount,
          echoes: { from: '', strength: 'stated' },
        },
        validationError('§4.1, §7.1'),
        unauthorized,
      ],
    },
    {
      id: 'stageAccount',
      words: 'account staging (create-or-update)',
      looksUp: false,
      method: 'POST',
      stores: true,
      path: '/v1/data-import/account-import-process/create-or-update/',
      spec: '§4.1, §3',
      title: 'Stage (create or update) an account payload',
      body: q.AccountPayload,
      responses: [
        { status: 201, spec: '§4.1, §3', description: 'first staging', body: s.StageAccountResponse },
        { status: 200, spec: '§4.1, §3', description: 'staged data replaced', body: s.StageAccountResponse },
        {
          status: 400,
          spec: '§4.1, §3, §7.1',
          description: 'invalid payload (§7.1 body), account already imported or skipped, supplier paused or complete',
          body: 'not shown',
        },
        unauthorized,
      ],
    },
    {
      id: 'processAccount',
      words: 'account processing',
      looksUp: true,
      method: 'POST',
      stores: false,
      path: '/v1/data-import/account-import-process/process/',
      spec: '§4.1, §3',
      title: 'Process staged data into a live account',
      body: q.ProcessAccountRequest,
      responses: [
        { status: 201, spec: '§4.1', description: 'the account was created', body: s.ProcessAccountResponse },
        {
          status: 400,
          spec: '§4.1 rules 1-3',
          description:
            'dry run that would succeed (rolled back), account already imported (body adds both numbers), team missing or data not staged',
          body: 'not shown',
        },
        unauthorized,
        {
          status: 429,
          spec: '§4.1 rule 4, §8',
          description: 'the optional concurrency limit is enabled and exceeded; retry after other accounts finish',
          body: 'not shown',
        },
      ],
    },
    {
      id: 'createNotes',
      words: 'notes creation',
      looksUp: true,
      method: 'POST',
      stores: true,
      path: '/v1/data-import/notes/create/',
      spec: '§4.2 notes',
      title: 'Add notes to an imported account',
      body: q.NotesRequest,
      responses: [
        {
          status: 201,
          spec: '§4.2 notes',
          description: 'one result per note (their order is not shown: docs/freedoms.md)',
          body: s.NotesResponse,
          // `{created_at, body, status}` per note: the note's body and created_at come back; a
          // created_at not sent defaults (§4.2 notes rule 3), so only one sent is compared.
          echoes: { from: 'notes[]', fields: ['created_at', 'body'], strength: 'stated' },
        },
        validationError('§4.2 notes rule 4, §7.1'),
        unauthorized,
        notFound('§4.2 notes rules 1 and 5, §7.2', 'account not imported, or wrong supplier code or external number'),
      ],
    },
    {
      id: 'createAgreements',
      words: 'agreements creation',
      looksUp: true,
      method: 'POST',
      stores: true,
      path: '/v1/data-import/agreements/create/',
      spec: '§4.2',
      title: 'Add agreements to existing supply points',
      body: q.AgreementsRequest,
      responses: [
        { status: 201, spec: '§4.2', description: 'agreements added', body: 'empty' },
        validationError('§7.1', 'validation error, reported under non_field_errors (§7.1)'),
        unauthorized,
      ],
    },
    {
      id: 'createSupplyPoints',
      words: 'supply-points creation',
      looksUp: true,
      method: 'POST',
      stores: true,
      path: '/v1/data-import/supply-points/create/',
      spec: '§4.2',
      title: 'Add supply points to an account',
      body: q.SupplyPointsRequest,
      responses: [
        { status: 201, spec: '§4.2', description: 'supply points added', body: 'empty' },
        validationError('§7.1', 'validation error, reported under non_field_errors (§7.1)'),
        unauthorized,
      ],
    },
    {
      id: 'createTransactions',
      words: 'transactions creation',
      looksUp: true,
      method: 'POST',
      stores: true,
      path: '/v1/data-import/transactions/create/',
      spec: '§4.2 transactions',
      title: 'Add financial transactions to an account',
      body: q.TransactionsRequest,
      query: q.TransactionsQuery,
      responses: [
        {
          status: 201,
          spec: '§4.2 transactions',
          description: 'one result per transaction',
          body: s.TransactionsResponse,
          echoes: {
            from: 'transactions[]',
            itemAt: 'transaction_data',
            strength: 'reading',
            why: 'transaction_data names the transaction, but its content is not shown (§4.2): a field it leaves out is its own choice, a field it carries is held to the value sent',
            changes: [
              {
                field: 'transaction_date',
                when: '§4.2 force_add_to_current_statement: a transaction dated outside the open statement period gets its date changed',
              },
            ],
          },
        },
        {
          status: 400,
          spec: '§4.2 transactions',
          description: 'the first failing transaction only',
          body: s.TransactionImportErrorBody,
        },
        unauthorized,
      ],
    },
    {
      id: 'createHistoricalBillingDocuments',
      words: 'historical billing documents creation',
      looksUp: true,
      method: 'POST',
      stores: true,
      path: '/v1/data-import/historical-billing-documents/create/',
      spec: '§4.2, §8',
      title: 'Import historical billing documents for a ledger (once per ledger)',
      body: q.HistoricalBillingDocumentsRequest,
      responses: [
        { status: 201, spec: '§4.2', description: 'documents imported', body: 'empty' },
        {
          status: 400,
          spec: '§4.2, §8',
          description: 'invalid payload, or the ledger already has a finalized billing document',
          body: 'not shown',
        },
        unauthorized,
      ],
    },
    {
      id: 'createHistoricalStatements',
      words: 'historical statements creation',
      looksUp: true,
      method: 'POST',
      stores: true,
      path: '/v1/data-import/historical-statements/create/',
      spec: '§4.2',
      title: 'Import historical statements',
      body: q.HistoricalStatementsRequest,
      responses: [
        {
          status: 201,
          spec: '§4.2',
          description: 'the validated data (the spec states 201 and also 200)',
          body: s.ValidatedStatements,
          echoes: { from: 'statements', strength: 'stated' },
        },
        {
          status: 200,
          spec: '§4.2',
          description: 'the validated data (the spec states 201 and also 200)',
          body: s.ValidatedStatements,
          echoes: { from: 'statements', strength: 'stated' },
        },
        validationError('§7.1'),
        unauthorized,
      ],
    },
    {
      id: 'createPaymentInstruction',
      words: 'payment instruction creation',
      looksUp: true,
      method: 'POST',
      stores: true,
      path: '/v1/data-import/payment-instruction/create/',
      spec: '§2.7, §4.2',
      title: 'Add a payment instruction to an account',
      body: q.PaymentInstructionRequest,
      responses: [
        {
          status: 201,
          spec: '§4.2',
          description: 'instruction checked upstream and stored',
          body: s.PaymentInstructionResponse,
        },
        ...vendorResponses('§4.2 payment instruction, §7.2'),
        unauthorized,
      ],
    },
    {
      id: 'accountTransferStatus',
      words: 'status endpoint',
      looksUp: true,
      method: 'GET',
      stores: false,
      path: '/v1/data-import/account-transfer-status/{import_supplier_code}/{external_account_number}/',
      spec: '§4.3',
      title: 'Import status of an account',
      pathParams: q.AccountPathParams,
      responses: [
        {
          status: 200,
          spec: '§4.3',
          description: 'the status and, once created, the account number',
          body: s.AccountTransferStatus,
        },
        unauthorized,
        notFound('§4.3, §7.2', 'no import process for the supplier code and external number'),
      ],
    },
    {
      id: 'allAccountImportProcesses',
      words: 'all-accounts listing',
      looksUp: false,
      method: 'GET',
      stores: false,
      path: '/v1/data-import/all-account-import-processes/{import_supplier_code}/',
      spec: '§4.3',
      title: 'All account import processes of a supplier, pending and created',
      pathParams: q.SupplierPathParams,
      responses: [
        { status: 200, spec: '§4.3', description: 'pending and created records', body: s.AllAccountImportProcesses },
        unauthorized,
      ],
    },
    {
      id: 'pendingAccountImportProcesses',
      words: 'pending listing',
      looksUp: false,
      method: 'GET',
      stores: false,
      path: '/v1/data-import/pending-account-import-processes/{import_supplier_code}/',
      spec: '§4.3',
      title: 'Pending account import processes of a supplier',
      pathParams: q.SupplierPathParams,
      responses: [
        {
          status: 200,
          spec: '§4.3',
          description: 'pending records; number and creation time always null',
          body: s.PendingAccountImportProcesses,
        },
        unauthorized,
      ],
    },
    {
      id: 'importedAccountImportProcesses',
      words: 'imported listing',
      looksUp: false,
      method: 'GET',
      stores: false,
      path: '/v1/data-import/imported-account-import-processes/{import_supplier_code}/',
      spec: '§4.3',
      title: 'Imported account import processes of a supplier',
      pathParams: q.SupplierPathParams,
      responses: [
        { status: 200, spec: '§4.3', description: 'response body: not shown', body: 'not shown' },
        unauthorized,
      ],
    },
    {
      id: 'createBusiness',
      words: 'business creation',
      looksUp: false,
      method: 'POST',
      stores: true,
      path: '/v1/data-import/business/',
      spec: '§4.4, §2.8',
      title: 'Create a business with all its contracts',
      body: q.BusinessRequest,
      responses: [
        { status: 201, spec: '§4.4', description: 'the business was created', body: s.BusinessResponse },
        validationError('§7.1'),
        unauthorized,
      ],
    },
    {
      id: 'createBusinessPaymentInstruction',
      words: 'business payment instruction creation',
      looksUp: true,
      method: 'POST',
      stores: true,
      path: '/v1/data-import/business-payment-instruction/create/',
      spec: '§2.7, §4.4',
      title: 'Add a payment instruction to a business',
      body: q.BusinessPaymentInstructionRequest,
      responses: [
        {
          status: 201,
          spec: '§4.4',
          description: 'instruction checked upstream and stored',
          body: s.BusinessPaymentInstructionResponse,
        },
        ...vendorResponses('§4.4 rule 3, §7.2'),
        { ...unauthorized, spec: '§5.3 (stated for this endpoint), §7.2' },
      ],
    },
  ];
  return Object.fromEntries(list.map((e) => [e.id, e])) as Record<EndpointId, EndpointSpec>;
}

/**
 * An endpoint's one name wherever a rule id, a fault id or a report names it: its operation id in
 * kebab case (createNotes → create-notes), so an endpoint added to the model is named the day it is
 * added, the same way by every family.
 */
export const endpointSlug = (id: string): string => id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Fills a path template; every parameter is percent-encoded as one path segment. */
export function endpointPath(endpoint: Pick<EndpointSpec, 'path'>, params: Record<string, string> = {}): string {
  return endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${endpoint.path}`);
    return encodeURIComponent(value);
  });
}
