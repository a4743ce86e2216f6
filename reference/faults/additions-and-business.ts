/** Faults of §4.2 billing documents, statements, agreements, supply points and payment instructions, and of §4.4 businesses. */
import { reply } from '../reply.js';
import { validationError } from '../validation.js';
import { body, clone, fault, isValidationError, mapAttrs, rewrite } from './helpers.js';
import type { Around, FaultDefinition } from './types.js';

type DocsBody = {
  import_supplier: string;
  external_account_number: string;
  ledger_code?: string;
  billing_document_type?: string;
};
type BusinessBody = {
  import_supplier_code: string;
  external_business_identifier: string;
  business?: { business_contracts?: unknown[] };
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

export const historicalFaults: FaultDefinition[] = [
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
  fault(
    {
      id: 'statements.answer-202',
      spec: '§4.2 historical statements (201, also 200)',
      subtle: false,
      description: 'Historical statements answer 202.',
    },
    rewrite('createHistoricalStatements', (r) => (r.status === 201 ? { ...r, status: 202 } : r)),
  ),
  fault(
    {
      id: 'statements.path-required',
      spec: '§2.6 (statement_path optional)',
      subtle: true,
      description: 'A historical statement without statement_path is refused.',
    },
    {
      around: {
        createHistoricalStatements: (req, _env, next) => {
          const statements = body<{ statements?: { statement_path?: string }[] }>(req.body).statements ?? [];
          const i = Array.isArray(statements) ? statements.findIndex((s) => s && s.statement_path === undefined) : -1;
          return i >= 0
            ? validationError([
                { attr: `statements.${i}.statement_path`, code: 'required', detail: 'This field is required.' },
              ])
            : next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'statements.dates-unvalidated',
      spec: '§2.6, §2.1',
      subtle: false,
      description: 'Dates of historical statements are not validated.',
    },
    { ignoreIssue: (e) => /^statements\.\d+\.\w*date$/.test(e.attr) && e.code === 'invalid_date' },
  ),
  fault(
    {
      id: 'statements.no-echo',
      spec: '§4.2 historical statements (body is the validated data)',
      subtle: false,
      description: 'Historical statements answer with an empty object instead of the validated data.',
    },
    rewrite('createHistoricalStatements', (r) => (r.status === 201 ? reply(201, {}) : r)),
  ),
  fault(
    {
      id: 'additions.agreements-all-attr',
      spec: '§7.1 (non_field_errors)',
      subtle: false,
      description: 'The agreements endpoint reports errors under __all__ instead of non_field_errors.',
    },
    rewrite('createAgreements', (r) => mapAttrs(r, (a) => (a === 'non_field_errors' ? '__all__' : a))),
  ),
  fault(
    {
      id: 'additions.supply-points-field-attrs',
      spec: '§7.1 (non_field_errors)',
      subtle: true,
      description:
        'The supply-points endpoint reports field errors at their field paths instead of under non_field_errors.',
    },
    rewrite('createSupplyPoints', (r) =>
      isValidationError(r)
        ? {
            ...r,
            body: {
              ...r.body,
              errors: r.body.errors.map((e) => ({ ...e, attr: /^([\w.]+): /.exec(e.detail)?.[1] ?? e.attr })),
            },
          }
        : r,
    ),
  ),
  fault(
    {
      id: 'additions.supply-points-200',
      spec: '§4.2 supply points (201)',
      subtle: false,
      description: 'Adding supply points answers 200 instead of 201.',
    },
    rewrite('createSupplyPoints', (r) => (r.status === 201 ? { ...r, status: 200 } : r)),
  ),
];

export const paymentFaults: FaultDefinition[] = [
  fault(
    {
      id: 'payments.intermittent-as-400',
      spec: '§4.2 payment instruction (500: intermittent trouble)',
      subtle: true,
      description: 'Intermittent vendor trouble is answered with 400, so clients give up instead of retrying.',
    },
    rewrite('createPaymentInstruction', (r) => (r.status === 500 ? { ...r, status: 400 } : r)),
  ),
  fault(
    {
      id: 'payments.persistent-as-500',
      spec: '§4.2 payment instruction (400: persistent trouble)',
      subtle: true,
      description: 'Persistent vendor trouble is answered with 500, so clients retry forever.',
    },
    rewrite('createPaymentInstruction', (r) =>
      r.status === 400 && body(r.body).code === 'payment_vendor_error' ? { ...r, status: 500 } : r,
    ),
  ),
  fault(
    {
      id: 'payments.account-number-wrong',
      spec: '§4.2 payment instruction ({service_account_number, reference})',
      subtle: true,
      description: 'The response gives the external account number as service_account_number.',
    },
    rewrite('createPaymentInstruction', (r, req) =>
      r.status === 201
        ? reply(201, {
            ...body(r.body),
            service_account_number: body<{ external_account_number: string }>(req.body).external_account_number,
          })
        : r,
    ),
  ),
  fault(
    {
      id: 'payments.business-intermittent-as-400',
      spec: '§4.4 rule 3',
      subtle: true,
      description: 'For businesses, intermittent vendor trouble is answered with 400.',
    },
    rewrite('createBusinessPaymentInstruction', (r) => (r.status === 500 ? { ...r, status: 400 } : r)),
  ),
  fault(
    {
      id: 'payments.business-vendor-unchecked',
      spec: '§2.7, §4.4 rule 3',
      subtle: true,
      description: 'Business payment instructions are stored without asking the vendor, so vendor trouble never shows.',
    },
    rewrite('createBusinessPaymentInstruction', (r, req) =>
      r.status === 400 || r.status === 500
        ? reply(201, {
            reference: body(req.body).reference,
            external_business_identifier: body(req.body).external_business_identifier,
          })
        : r,
    ),
  ),
  fault(
    {
      id: 'payments.business-response-misnamed',
      spec: '§4.4 ({reference, external_business_identifier})',
      subtle: false,
      description: 'The business payment instruction response names the business as business_id.',
    },
    rewrite('createBusinessPaymentInstruction', (r) =>
      r.status === 201
        ? reply(201, { reference: body(r.body).reference, business_id: body(r.body).external_business_identifier })
        : r,
    ),
  ),
];

export const businessFaults: FaultDefinition[] = [
  fault(
    {
      id: 'business.duplicate-creates-another',
      spec: '§2.8 (a business is unique by its identifier and key attributes)',
      subtle: true,
      description: 'Sending the same business again creates a second business with a new id.',
    },
    rewrite('createBusiness', (r, req, env) => {
      if (body(r.body).code !== 'business_already_exists') return r;
      const b = body<BusinessBody>(req.body);
      const id = env.choices.businessId(env.store.businesses.length + 1);
      env.store.businesses.push({
        id,
        supplier: b.import_supplier_code,
        externalIdentifier: b.external_business_identifier,
        contractIdentifiers: [],
        paymentInstructions: [],
      });
      return reply(201, { service_business_id: id, external_business_identifier: b.external_business_identifier });
    }),
  ),
  fault(
    {
      id: 'business.id-as-string',
      spec: '§4.4 (service_business_id: integer)',
      subtle: false,
      description: 'service_business_id is a string.',
    },
    rewrite('createBusiness', (r) =>
      r.status === 201
        ? reply(201, { ...body(r.body), service_business_id: String(body(r.body).service_business_id) })
        : r,
    ),
  ),
  fault(
    {
      id: 'business.first-contract-only',
      spec: '§4.4 rule 1 (created with all contracts in one payload)',
      subtle: true,
      description: 'Only the first contract of the payload is created.',
    },
    {
      around: {
        createBusiness: (req, _env, next) => {
          const b = clone(body<BusinessBody>(req.body));
          if (Array.isArray(b.business?.business_contracts))
            b.business.business_contracts = b.business.business_contracts.slice(0, 1);
          return next({ ...req, body: b });
        },
      },
    },
  ),
  fault(
    {
      id: 'business.contract-link-unchecked',
      spec: '§2.3 (business_contract_identifier must name a contract)',
      subtle: false,
      description: 'An account may name a contract identifier that no business has.',
    },
    { ignoreIssue: (e) => e.attr === 'business.business_contract_identifier' },
  ),
  fault(
    {
      id: 'business.attrs-without-prefix',
      spec: '§7.1 (attr is the path to the offending input)',
      subtle: true,
      description: 'Validation errors of a business leave out the business. part of the path.',
    },
    rewrite('createBusiness', (r) => mapAttrs(r, (a) => a.replace(/^business\./, ''))),
  ),
];
