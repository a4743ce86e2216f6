/** What a rule of the override table knows about where it is generating (see from-model.ts). */
import type { z } from 'zod';
import type { BillingDocumentType, TransactionType } from '../../core/spec/index.js';
import type { BaseScope } from '../from-model.js';
import type { SupplyKind } from '../spanish.js';

export type TransactionKind = z.infer<typeof TransactionType>;
export type DocumentKind = z.infer<typeof BillingDocumentType>;

export interface Context extends BaseScope {
  /** Drawn once per payload; identifiers combine it with their position, so none repeats within it. */
  readonly serial: number;
  /** The last day of the month the payload's data is as of; its dates are laid out around it. */
  readonly anchor: string;
  /** Supply types of the account, and transaction types to draw from. */
  readonly kinds: readonly SupplyKind[];
  readonly types: readonly TransactionKind[];
  /** The supply point being generated and what it decided for its agreements and readings. */
  readonly kind?: SupplyKind;
  readonly tariff?: string;
  readonly meter?: string;
  readonly movedIn?: string;
  readonly billedTo?: string;
  readonly agreementsFrom?: string;
  /** The transaction being generated. */
  readonly type?: TransactionKind;
  readonly day?: string;
  /** Days transactions generated here fall on, inclusive. */
  readonly window?: readonly [string, string];
  readonly documentType?: DocumentKind;
  readonly period?: readonly [string, string];
  readonly issued?: string;
  readonly validFrom?: string;
}

export const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** The items of a list field of a generated object, or none when it was left out. */
export const list = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value : []);
