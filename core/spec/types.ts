/** TypeScript types of the payloads, inferred from the spec model (never written by hand). */
import type { z } from 'zod';
import type { SpecModel } from './model.js';

type Infer<K extends keyof SpecModel> = SpecModel[K] extends z.ZodType ? z.input<SpecModel[K]> : never;

export type AccountPayload = Infer<'AccountPayload'>;
export type Customer = Infer<'Customer'>;
export type SupplyAddressGroup = Infer<'SupplyAddressGroup'>;
export type SupplyPoint = Infer<'SupplyPoint'>;
export type Agreement = Infer<'Agreement'>;
export type Reading = Infer<'Reading'>;
export type BillableItem = Infer<'BillableItem'>;
export type Note = Infer<'Note'>;
export type Ledger = Infer<'Ledger'>;
export type Transaction = Infer<'Transaction'>;
export type LineItem = Infer<'LineItem'>;
export type TaxItem = Infer<'TaxItem'>;
export type AccountStatement = Infer<'AccountStatement'>;
export type HistoricalBillingDocument = Infer<'HistoricalBillingDocument'>;
export type HistoricalStatement = Infer<'HistoricalStatement'>;
export type BusinessContract = Infer<'BusinessContract'>;
export type ProcessAccountRequest = Infer<'ProcessAccountRequest'>;
export type NotesRequest = Infer<'NotesRequest'>;
export type TransactionsRequest = Infer<'TransactionsRequest'>;
export type TransactionsQuery = Infer<'TransactionsQuery'>;
export type HistoricalBillingDocumentsRequest = Infer<'HistoricalBillingDocumentsRequest'>;
export type HistoricalStatementsRequest = Infer<'HistoricalStatementsRequest'>;
export type PaymentInstructionRequest = Infer<'PaymentInstructionRequest'>;
export type BusinessRequest = Infer<'BusinessRequest'>;
export type BusinessPaymentInstructionRequest = Infer<'BusinessPaymentInstructionRequest'>;
export type ValidationErrorBody = z.output<SpecModel['ValidationErrorBody']>;
export type ValidationErrorItem = z.output<SpecModel['ValidationErrorItem']>;
export type AccountTransferStatus = z.output<SpecModel['AccountTransferStatus']>;
export type AccountImportProcess = z.output<SpecModel['AccountImportProcess']>;
