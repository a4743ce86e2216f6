/**
 * fast-check arbitraries for the data-import interface (docs/design.md §7): valid request bodies with
 * realistic Spanish energy-retail data, single-defect invalid ones with the `attr` a server must
 * report, and fresh namespaced identifiers for whatever a rule sends. One draw in five of every
 * domain value is at an edge of its domain (edges.ts lists them; docs/design.md §7).
 */
export {
  accountPayload,
  notesRequest,
  transactionsRequest,
  historicalBillingDocumentsRequest,
  historicalStatementsRequest,
  paymentInstructionRequest,
  businessRequest,
  businessPaymentInstructionRequest,
} from './payloads.js';
export type {
  AccountKey,
  AccountOptions,
  BillingDocumentsOptions,
  BusinessInstructionOptions,
  BusinessOptions,
  Completeness,
  Supply,
  TransactionsOptions,
  VendorInstruction,
} from './payloads.js';
export {
  DEFECTS,
  DEFECTS_PER_REQUEST,
  defectGroups,
  defectKinds,
  withDefects,
  everyDefect,
  defectPlaces,
  kindsFitting,
  placeOfAttr,
  invalidAccountPayload,
  invalidFrom,
  invalidNotesRequest,
  invalidTransactionsRequest,
  matchesDefect,
  TYPE_DEFECTS,
} from './defects.js';
export type { Defect, DefectKind, DefectLevel, DefectOptions, DefectPlace, Invalid } from './defects.js';
export { freshIdentifiers } from '../core/engine/fresh-identifiers.js';
export { LARGE_BATCH, LARGE_REQUEST } from './edges.js';
export type { FreshOptions, Renames, RequestName } from '../core/engine/fresh-identifiers.js';
