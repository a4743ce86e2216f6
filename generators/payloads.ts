/**
 * Valid request bodies of every §4 endpoint that takes one. Values the caller owns (the supplier
 * code, the keys of the account or business a request is about, the upstream payment instruction)
 * are parameters; everything else is generated. Payloads are complete unless `complete: false`:
 * a complete payload carries every documented field, so a rule may send it to any implementation.
 */
import fc from 'fast-check';
import type { z } from 'zod';
import {
  model,
  TransactionType,
  type AccountPayload,
  type BusinessPaymentInstructionRequest,
  type BusinessRequest,
  type HistoricalBillingDocumentsRequest,
  type HistoricalStatementsRequest,
  type NotesRequest,
  type PaymentInstructionRequest,
  type TransactionsRequest,
} from '../core/spec/index.js';
import { addDays, endOfMonth, monthBetween } from './calendar.js';
import { orEdge } from './edges.js';
import { derive } from './from-model.js';
import { rules, type Context, type DocumentKind, type TransactionKind } from './overrides/index.js';
import type { SupplyKind } from './spanish.js';

export type Supply = 'electricity' | 'gas' | 'dual';

const SUPPLY_KINDS: Readonly<Record<Supply, readonly SupplyKind[]>> = {
  electricity: ['ELECTRICITY'],
  gas: ['GAS'],
  dual: ['ELECTRICITY', 'GAS'],
};

/** The keys every §4.2 request carries: the account it is about must exist. */
export interface AccountKey {
  import_supplier: string;
  external_account_number: string;
}

export interface Completeness {
  /** Every documented field at every level, lists non-empty (default). `false` leaves out random `optional` and `unspecified` fields. */
  complete?: boolean;
}

export interface AccountOptions extends Completeness {
  import_supplier: string;
  /** Generated when not given; `freshIdentifiers` replaces it anyway. */
  external_account_number?: string;
  /** Kinds of supply points: `dual` gives each supply address an electricity and a gas point. Any when not given. */
  supply?: Supply;
  /** Links the account to a business contract created earlier (§2.3); no `business` field when not given. */
  business_contract_identifier?: string;
}

/**
 * Where every payload's timeline starts: a serial for its identifiers and the month its data is as
 * of. Outside an account payload, transactions may be about either supply.
 */
function context(complete: boolean, facts: Partial<Context> = {}): fc.Arbitrary<Context> {
  return fc
    .record({
      serial: fc.integer({ min: 10_000, max: 99_999 }),
      // Once in five the data is as of a leap day or a year's last day, so the statements, closing
      // dates and open periods laid out around it fall on and across those edges.
      anchor: orEdge(
        monthBetween('2023-01-01', '2025-06-01').map(endOfMonth),
        fc.constantFrom('2024-02-29', '2023-12-31', '2024-12-31'),
      ),
    })
    .map(({ serial, anchor }) => ({
      at: [],
      index: 0,
      complete,
      serial,
      anchor,
      kinds: SUPPLY_KINDS.dual,
      types: TransactionType.options,
      ...facts,
    }));
}

function generate<T>(schema: z.ZodType, complete: boolean | undefined, facts: Partial<Context> = {}): fc.Arbitrary<T> {
  return context(complete ?? true, facts).chain((scope) => derive(schema, rules, scope)) as fc.Arbitrary<T>;
}

/** The caller's values replace the stand-ins; a field left out stays out. */
const given = <T extends object>(payload: T, values: Partial<T>): T => {
  const result = { ...payload };
  for (const [key, value] of Object.entries(values) as [keyof T, T[keyof T]][]) {
    if (value !== undefined && key in result) result[key] = value;
  }
  return result;
};

/** §2.3: one account, for validate and stage (§4.1). */
export function accountPayload(options: AccountOptions): fc.Arbitrary<AccountPayload> {
  const kinds = options.supply
    ? fc.constant(SUPPLY_KINDS[options.supply])
    : fc.constantFrom(...Object.values(SUPPLY_KINDS));
  return kinds
    .chain((k) => generate<AccountPayload>(model.AccountPayload, options.complete, { kinds: k }))
    .map((payload) => {
      const { business: _, ...account } = given(payload, {
        import_supplier: options.import_supplier,
        external_account_number: options.external_account_number,
      });
      const contract = options.business_contract_identifier;
      return contract === undefined ? account : { ...account, business: { business_contract_identifier: contract } };
    });
}

/** §4.2 notes. */
export function notesRequest(options: AccountKey & Completeness): fc.Arbitrary<NotesRequest> {
  return generate<NotesRequest>(model.NotesRequest, options.complete).map((p) => given(p, key(options)));
}

export interface TransactionsOptions extends AccountKey, Completeness {
  /** Types to draw from; all five when not given. */
  types?: readonly TransactionKind[];
  /** First day of the account's open statement period: transactions are dated in its first four weeks. */
  from?: string;
}

/** §4.2 transactions. */
export function transactionsRequest(options: TransactionsOptions): fc.Arbitrary<TransactionsRequest> {
  const from = options.from;
  const facts: Partial<Context> = {
    ...(options.types && { types: options.types }),
    ...(from !== undefined && { window: [from, addDays(from, 27)] as const }),
  };
  return generate<TransactionsRequest>(model.TransactionsRequest, options.complete, facts).map((p) =>
    given(p, key(options)),
  );
}

export interface BillingDocumentsOptions extends AccountKey, Completeness {
  /** The ledger of the account the documents are for (§4.2: once per ledger). */
  ledger_code: string;
  billing_document_type: DocumentKind;
}

/** §4.2 historical billing documents, all of one type; period-based ones carry their bill period. */
export function historicalBillingDocumentsRequest(
  options: BillingDocumentsOptions,
): fc.Arbitrary<HistoricalBillingDocumentsRequest> {
  return generate<HistoricalBillingDocumentsRequest>(model.HistoricalBillingDocumentsRequest, options.complete, {
    documentType: options.billing_document_type,
  }).map((p) => given(p, { ...key(options), ledger_code: options.ledger_code }));
}

/** §4.2 historical statements. */
export function historicalStatementsRequest(
  options: AccountKey & Completeness,
): fc.Arbitrary<HistoricalStatementsRequest> {
  return generate<HistoricalStatementsRequest>(model.HistoricalStatementsRequest, options.complete).map((p) =>
    given(p, key(options)),
  );
}

/** An instruction that exists at the upstream vendor (§2.7): it comes from the configuration. */
export interface VendorInstruction {
  vendor: string;
  reference: string;
  type: string;
}

/** §2.7, §4.2 payment instruction for an account. */
export function paymentInstructionRequest(
  options: AccountKey & VendorInstruction,
): fc.Arbitrary<PaymentInstructionRequest> {
  return generate<PaymentInstructionRequest>(model.PaymentInstructionRequest, true).map((p) =>
    given(p, { ...key(options), ...instruction(options) }),
  );
}

export interface BusinessOptions extends Completeness {
  import_supplier_code: string;
  /** Generated when not given; `freshIdentifiers` replaces it anyway. */
  external_business_identifier?: string;
}

/** §2.8, §4.4 business with its contracts (1–3, each with 1–3 versions). */
export function businessRequest(options: BusinessOptions): fc.Arbitrary<BusinessRequest> {
  return generate<BusinessRequest>(model.BusinessRequest, options.complete).map((p) =>
    given(p, {
      import_supplier_code: options.import_supplier_code,
      external_business_identifier: options.external_business_identifier,
    }),
  );
}

export interface BusinessInstructionOptions extends VendorInstruction {
  import_supplier_code: string;
  external_business_identifier: string;
  /** External numbers of the business's accounts the instruction covers. */
  accounts: readonly string[];
}

/** §2.7, §4.4 business payment instruction. */
export function businessPaymentInstructionRequest(
  options: BusinessInstructionOptions,
): fc.Arbitrary<BusinessPaymentInstructionRequest> {
  return generate<BusinessPaymentInstructionRequest>(model.BusinessPaymentInstructionRequest, true).map((p) => ({
    ...given(p, {
      import_supplier_code: options.import_supplier_code,
      external_business_identifier: options.external_business_identifier,
      ...instruction(options),
    }),
    accounts: options.accounts.map((external_account_number) => ({ external_account_number })),
  }));
}

const key = (o: AccountKey): AccountKey => ({
  import_supplier: o.import_supplier,
  external_account_number: o.external_account_number,
});
const instruction = (o: VendorInstruction): VendorInstruction => ({
  vendor: o.vendor,
  reference: o.reference,
  type: o.type,
});
