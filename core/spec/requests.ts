/** Request bodies, query parameters and path parameters of every endpoint in §4. */
import { z } from 'zod';
import type { ModelBuilder } from './builder.js';
import { BooleanQueryParam } from './conventions.js';
import { BillingDocumentType } from './enums.js';
import type { defineResources } from './resources.js';

type Resources = ReturnType<typeof defineResources>;
const IDENTITY = 'every §4.2 request body carries the supplier code and the external account number';

export function defineRequests(b: ModelBuilder, r: Resources) {
  const { field } = b;
  const accountKey = {
    import_supplier: field(z.string().min(1), 'required', IDENTITY),
    external_account_number: field(z.string().min(1), 'required', IDENTITY),
  };

  // §4.1 ------------------------------------------------------------------------------------
  const ProcessAccountRequest = b.request(
    { id: 'ProcessAccountRequest', spec: '§4.1 process' },
    {
      external_account_number: field(z.string().min(1), 'required', 'names the staged account (§4.1)'),
      import_supplier_code: field(z.string().min(1), 'required', 'names the supplier (§4.1)'),
      operations_team_name: field(
        z.string().min(1),
        'required',
        '§4.1 process rule 1: the named team must already exist',
      ),
      dry_run: field(z.boolean(), 'optional'),
    },
  );

  // §4.2 ------------------------------------------------------------------------------------
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

  // §4.4 ------------------------------------------------------------------------------------
  const BusinessRequest = b.request(
    { id: 'BusinessRequest', spec: '§2.8, §4.4 business' },
    {
      import_supplier_code: field(z.string().min(1), 'required', 'names the supplier (§2.2)'),
      external_business_identifier: field(
        z.string().min(1),
        'required',
        'a business is unique by its external identifier (§2.8)',
      ),
      business: field(r.Business, 'expected', 'not shown; it holds the key attributes of uniqueness (§2.8)'),
    },
  );

  const BusinessPaymentInstructionRequest = b.request(
    { id: 'BusinessPaymentInstructionRequest', spec: '§2.7, §4.4 business payment instruction' },
    {
      import_supplier_code: field(z.string().min(1), 'required', 'names the supplier (§2.2)'),
      external_business_identifier: field(z.string().min(1), 'required', 'names the business (§2.7)'),
      vendor: field(z.string().min(1), 'required', 'the service checks the instruction with this vendor (§2.7)'),
      reference: field(z.string().min(1), 'required', 'the service checks this instruction with the vendor (§2.7)'),
      type: field(z.string(), 'expected', 'listed for the business instruction (§2.7)'),
      accounts: field(
        z.array(
          b.request(
            { id: 'BusinessPaymentInstructionAccount', spec: '§2.7 business payment instruction.accounts' },
            {
              external_account_number: field(z.string().min(1), 'expected', 'the only documented content of the item'),
            },
          ),
        ),
        'unspecified',
      ),
    },
  );

  // §4.3 path parameters ------------------------------------------------------------------------
  const SupplierPathParams = z
    .object({ import_supplier_code: z.string().min(1) })
    .meta({ spec: '§4.3', description: 'path parameters of the listings' });
  const AccountPathParams = z
    .object({ import_supplier_code: z.string().min(1), external_account_number: z.string().min(1) })
    .meta({ spec: '§4.3', description: 'path parameters of the status endpoint' });

  return {
    AccountPayload: r.AccountPayload,
    ProcessAccountRequest,
    NotesRequest,
    AgreementsRequest,
    SupplyPointsRequest,
    TransactionsRequest,
    TransactionsQuery,
    HistoricalBillingDocumentsRequest,
    HistoricalStatementsRequest,
    PaymentInstructionRequest,
    BusinessRequest,
    BusinessPaymentInstructionRequest,
    SupplierPathParams,
    AccountPathParams,
  };
}
