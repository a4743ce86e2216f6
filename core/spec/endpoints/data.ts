/**
 * §4.2 Data added to an imported account: notes, agreements, supply points, transactions, historical
 * billing documents and statements, the payment instruction. Each endpoint's request body is defined
 * here beside its row of the spec's table (method, path, the documented answers), so an endpoint of
 * this section is one request and one row in this file; core/spec/requests.ts and
 * core/spec/endpoints.ts put the sections together, and the operation id is the row's key.
 */
import { z } from 'zod';
import type { ModelBuilder } from '../builder.js';
import { BooleanQueryParam } from '../conventions.js';
import { BillingDocumentType } from '../enums.js';
import type { Documented, EndpointRow, Resources, Responses } from '../endpoint-row.js';

const IDENTITY = 'every §4.2 request body carries the supplier code and the external account number';

/** The request bodies and parameters of §4.2, in the order the model registers their names. */
export function requests(b: ModelBuilder, r: Resources) {
  const { field } = b;
  const accountKey = {
    import_supplier: field(z.string().min(1), 'required', IDENTITY),
    external_account_number: field(z.string().min(1), 'required', IDENTITY),
  };

  const NotesRequest = b.request(
    { id: 'NotesRequest', spec: '§4.2 notes' },
    {
      ...accountKey,
      notes: field(z.array(r.Note), 'required', 'the notes are what the request adds'),
    },
  );

  /**
   * §4.2: agreements and supply points are added with a "payload shape: not shown". Only the
   * account key is documented; anything else is accepted by the model and judged by the server.
   */
  const AgreementsRequest = z.looseObject({ ...accountKey }).meta({
    ...(b.mode === 'spec' && { id: 'AgreementsRequest' }),
    spec: '§4.2 agreements',
    description: 'payload shape beyond the account key: not shown',
  });
  const SupplyPointsRequest = z.looseObject({ ...accountKey }).meta({
    ...(b.mode === 'spec' && { id: 'SupplyPointsRequest' }),
    spec: '§4.2 supply points',
    description: 'payload shape beyond the account key: not shown',
  });

  const TransactionsRequest = b.request(
    { id: 'TransactionsRequest', spec: '§4.2 transactions' },
    {
      ...accountKey,
      transactions: field(z.array(r.Transaction), 'required', 'the transactions are what the request adds'),
    },
  );

  /** §4.2: both boolean, both optional, both default to true. */
  const TransactionsQuery = z
    .object({
      check_previously_added: BooleanQueryParam.optional().meta({
        presence: 'optional',
        description: 'default true: check whether each transaction was already added',
      }),
      force_add_to_current_statement: BooleanQueryParam.optional().meta({
        presence: 'optional',
        description: 'default true: move out-of-period transactions into the open statement period',
      }),
    })
    .meta({ ...(b.mode === 'spec' && { id: 'TransactionsQuery' }), spec: '§4.2 transactions query parameters' });

  const HistoricalBillingDocumentsRequest = b.request(
    { id: 'HistoricalBillingDocumentsRequest', spec: '§4.2 historical billing documents' },
    {
      ...accountKey,
      ledger_code: field(
        z.string().min(1),
        'expected',
        'not shown; the import is once per ledger, so it must name one',
      ),
      ledger_number: field(z.string(), 'unspecified'),
      billing_document_type: field(BillingDocumentType, 'expected', 'not shown; the import is of one type'),
      historical_billing_documents: field(
        z.array(r.HistoricalBillingDocument),
        'expected',
        'not shown; the documents are what the request adds',
      ),
      additional_historical_transactions: field(z.array(r.Transaction), 'unspecified'),
    },
  );

  const HistoricalStatementsRequest = b.request(
    { id: 'HistoricalStatementsRequest', spec: '§4.2 historical statements' },
    {
      ...accountKey,
      statements: field(z.array(r.HistoricalStatement), 'required', 'the statements are what the request adds'),
    },
  );

  const PaymentInstructionRequest = b.request(
    { id: 'PaymentInstructionRequest', spec: '§2.7, §4.2 payment instruction' },
    {
      ...accountKey,
      vendor: field(z.string().min(1), 'required', 'the service checks the instruction with this vendor (§2.7)'),
      reference: field(z.string().min(1), 'required', 'the service checks this instruction with the vendor (§2.7)'),
      type: field(
        z.string().meta({ description: 'a card type is seen; values not shown' }),
        'expected',
        'listed for the account instruction (§2.7, §4.2)',
      ),
    },
  );

  return {
    NotesRequest,
    AgreementsRequest,
    SupplyPointsRequest,
    TransactionsRequest,
    TransactionsQuery,
    HistoricalBillingDocumentsRequest,
    HistoricalStatementsRequest,
    PaymentInstructionRequest,
  };
}

/** The rows of §4.2, keyed by operation id (its one name: core/spec/endpoints.ts `endpointSlug`). */
export function endpoints(
  q: ReturnType<typeof requests>,
  s: Responses,
  { validationError, unauthorized, notFound, vendorResponses }: Documented,
) {
  return {
    createNotes: {
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
    createAgreements: {
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
    createSupplyPoints: {
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
    createTransactions: {
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
    createHistoricalBillingDocuments: {
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
    createHistoricalStatements: {
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
    createPaymentInstruction: {
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
  } satisfies Record<string, EndpointRow>;
}
