/** Faults of §4.2 historical billing documents. */
import { reply } from '../reply.js';
import { validationError } from '../validation.js';
import { body, fault, keptUntilImport, rewrite } from './helpers.js';
import type { Around, FaultDefinition } from './types.js';

type DocsBody = {
  import_supplier: string;
  external_account_number: string;
  ledger_code?: string;
  billing_document_type?: string;
};

/** Runs the faithful billing-documents handler as if the ledger had no finalized document when `forget` says so. */
function forgetFinalized(forget: (b: DocsBody) => boolean): Around {
  return (req, env, next) => {
    const b = body<DocsBody>(req.body);
    const ledger = env.store
      .importedAccount(b.import_supplier, b.external_account_number)
      ?.ledgers.get(b.ledger_code ?? '');
    if (ledger && forget(b)) ledger.hasFinalizedBillingDocument = false;
    return next(req);
  };
}

export const billingFaults: FaultDefinition[] = [
  fault(
    {
      id: 'billing.second-import-allowed-for-period',
      spec: '§4.2, §8 (once per ledger)',
      subtle: true,
      description: 'A second import for a ledger is allowed when the new documents are period-based.',
    },
    {
      around: { createHistoricalBillingDocuments: forgetFinalized((b) => b.billing_document_type === 'PERIOD_BASED') },
    },
  ),
  fault(
    {
      id: 'billing.no-once-per-ledger',
      spec: '§4.2, §8 (once per ledger)',
      subtle: false,
      description: 'Historical billing documents can be imported any number of times for a ledger.',
    },
    { around: { createHistoricalBillingDocuments: forgetFinalized(() => true) } },
  ),
  fault(
    {
      id: 'billing.limit-per-account',
      spec: '§4.2, §8 (once per ledger)',
      subtle: true,
      description:
        'The limit is applied per account: once one ledger has documents, every other ledger is refused too.',
    },
    {
      around: {
        createHistoricalBillingDocuments: (req, env, next) => {
          const b = body<DocsBody>(req.body);
          const account = env.store.importedAccount(b.import_supplier, b.external_account_number);
          return account && [...account.ledgers.values()].some((l) => l.hasFinalizedBillingDocument)
            ? env.choices.ledgerAlreadyFinalized(b.ledger_code ?? '')
            : next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'billing.item-based-refused',
      spec: '§4.2 (supports period-based and item-based documents)',
      subtle: false,
      description: 'Item-based billing documents are refused.',
    },
    {
      around: {
        createHistoricalBillingDocuments: (req, _env, next) =>
          body<DocsBody>(req.body).billing_document_type === 'ITEM_BASED'
            ? validationError([
                { attr: 'billing_document_type', code: 'invalid_choice', detail: 'Only PERIOD_BASED is supported.' },
              ])
            : next(req),
      },
    },
  ),
  fault(
    {
      id: 'billing.document-type-unvalidated',
      spec: "§4.2 (each document's billing_document_type)",
      subtle: true,
      description: 'The billing_document_type of each document is not validated (only the top-level one is).',
    },
    { ignoreIssue: (e) => /^historical_billing_documents\.\d+\.billing_document_type$/.test(e.attr) },
  ),
  fault(
    {
      id: 'billing.refusal-uses-ledger',
      spec: '§4.2, §8',
      subtle: true,
      description: 'A refused (invalid) import still marks the ledger as having a finalized document.',
    },
    {
      around: {
        createHistoricalBillingDocuments: async (req, env, next) => {
          const r = await next(req);
          const b = body<DocsBody>(req.body);
          const ledger = env.store
            .importedAccount(b.import_supplier, b.external_account_number)
            ?.ledgers.get(b.ledger_code ?? '');
          if (r.status === 400 && ledger) ledger.hasFinalizedBillingDocument = true;
          return r;
        },
      },
    },
  ),
  fault(
    {
      id: 'billing.body-not-empty',
      spec: '§4.2 (201, empty body)',
      subtle: false,
      description: 'A successful import answers with a JSON body instead of an empty one.',
    },
    rewrite('createHistoricalBillingDocuments', (r) => (r.status === 201 ? reply(201, { imported: true }) : r)),
  ),
  {
    id: 'billing.ledger-billed-by-refused-request',
    placement: {
      by: ['refused.unknown-account.create-historical-billing-documents'],
      beside: ['refused.', 'conventions.types.', 'relations.defect.'],
    },
    spec: '§7.2 (404: account not found), §4.2 historical billing documents (usable once per ledger), §8',
    subtle: true,
    description:
      'Historical billing documents sent for an account that is staged but not imported are refused 404, yet the ledger is marked billed when the account is created.',
    create: () =>
      keptUntilImport<string>(
        'createHistoricalBillingDocuments',
        (b) => (typeof b.ledger_code === 'string' ? [b.ledger_code] : undefined),
        (account, codes) => {
          for (const code of codes) {
            const ledger = account.ledgers.get(code);
            if (ledger) ledger.hasFinalizedBillingDocument = true;
          }
        },
      ),
  },
];
