/**
 * The enumerations of §2–§3. Closed sets (the spec lists every value) are zod enums; open sets
 * (the spec lists "values seen") are plain strings carrying the seen values as metadata, because
 * refusing an unseen value would assert something the spec leaves open.
 */
import { z } from 'zod';

/** §2.3 supply point, §2.3 statement: `GAS` or `ELECTRICITY`. */
export const SupplyType = z.enum(['GAS', 'ELECTRICITY']).meta({ spec: '§2.3 supply point' });

/** §2.4: the five transaction types. */
export const TransactionType = z
  .enum(['CHARGE', 'CREDIT', 'PAYMENT', 'REPAYMENT', 'SUPPLY_CHARGE'])
  .meta({ spec: '§2.4 transaction' });

/** §2.5, §4.2: `ITEM_BASED` or `PERIOD_BASED`. */
export const BillingDocumentType = z
  .enum(['ITEM_BASED', 'PERIOD_BASED'])
  .meta({ spec: '§2.5 historical billing document' });

/** §2.2: set by the operator, not through the interface. */
export const SupplierStatus = z.enum(['Ongoing', 'Paused', 'Complete']).meta({ spec: '§2.2 import supplier' });

/** §3: account import status returned by the status endpoint. */
export const ImportStatus = z.enum(['UNKNOWN', 'IN_PROGRESS', 'COMPLETED']).meta({ spec: '§3 account import status' });

/** §3, §4.2: per-note creation status. */
export const NoteCreationStatus = z
  .enum(['NOTE_CREATION_SUCCESS', 'NOTE_ALREADY_EXISTS'])
  .meta({ spec: '§3, §4.2 notes' });

/** §3, §4.2: per-transaction status in a 201 (`results[].status`). */
export const TransactionCreationStatus = z
  .enum(['TRANSACTION_ADDED_TO_ACCOUNT', 'TRANSACTION_ALREADY_EXISTS'])
  .meta({ spec: '§3, §4.2 transactions' });

/** §3, §4.2: the status of a transaction-import 400 body. */
export const TransactionImportError = z.literal('TRANSACTION_IMPORT_ERROR').meta({ spec: '§3, §4.2 transactions' });

/** §3: "`TRANSACTION_IMPORT_SUCCESS` also appears in a `status` field inside `transaction_data`". */
export const TransactionDataStatus = z.literal('TRANSACTION_IMPORT_SUCCESS').meta({ spec: '§3' });

/** Values the spec shows for open string fields. Used by fixtures and generators, never to refuse. */
export const seen = {
  transactionReasons: [
    'IMPORTED_CHARGE',
    'IMPORTED_CREDIT',
    'ACCOUNT_CHARGE_PAYMENT',
    'FULL_CREDIT_REFUND',
    'GENERAL_CREDIT',
  ],
  paymentTypes: [
    'DD_REGULAR_COLLECTION',
    'DD_FINAL_COLLECTION',
    'DIRECT_CREDIT',
    'CHEQUE',
    'CREDIT_CARD',
    'DEBIT_CARD',
  ],
  accountRoles: ['ACCOUNT_HOLDER'],
  userDetailNamespaces: ['fiscal_code', 'first_family_name', 'second_family_name'],
  unitTypes: ['PER_ITEM'],
  rateBands: ['CONSUMPTION_STANDARD'],
  taxTypes: ['VAT'],
  taxUnitTypes: ['PROPORTION'],
  paymentScheduleMeans: ['MANUAL'],
  paymentScheduleTriggers: ['BILL'],
} as const;

/** A string field whose values the spec only illustrates. */
export function openString(spec: string, values: readonly string[]) {
  return z.string().meta({ spec, seen: values });
}
