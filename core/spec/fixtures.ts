/**
 * The canonical fixtures: valid payloads for every request of the interface, kept as JSON under the
 * package's `fixtures/` directory so they can be read, copied and sent by hand as well as by code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';
import type { z } from 'zod';
import type { SpecModel } from './index.js';

export const FIXTURES_DIR = join(packageRoot(), 'fixtures');

/**
 * Reads `fixtures/<name>.json`. Parsing on every call hands each caller its own copy, so a test that
 * mutates a fixture cannot leak into another.
 */
export function loadFixture<T = unknown>(name: string): T {
  const file = join(FIXTURES_DIR, `${name}.json`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`Fixture ${name}: cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new Error(`Fixture ${name}: ${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Names of the spec model's members that are schemas (the model also carries `mode` and `endpoints`). */
export type SchemaName = { [K in keyof SpecModel]: SpecModel[K] extends z.ZodType ? K : never }[keyof SpecModel];

export interface FixtureEntry {
  /** Path under `fixtures/` without `.json`, as passed to `loadFixture`. */
  readonly name: string;
  /** The request schema the fixture satisfies, in both `model` and `strictModel`. */
  readonly schema: SchemaName;
  readonly description: string;
}

export const fixtureCatalogue: readonly FixtureEntry[] = [
  {
    name: 'accounts/electricity',
    schema: 'AccountPayload',
    description:
      'EXT-ELEC-0001: domestic electricity account in Madrid with every documented field, linked to business contract CONTRACT-ACME-2024',
  },
  {
    name: 'accounts/gas',
    schema: 'AccountPayload',
    description: 'EXT-GAS-0001: domestic gas account in Valencia with every documented field except the business link',
  },
  {
    name: 'accounts/minimal',
    schema: 'AccountPayload',
    description: 'EXT-MIN-0001: the smallest account payload the strict model accepts',
  },
  {
    name: 'business/business',
    schema: 'BusinessRequest',
    description:
      'BUS-ACME-0001: limited company with contracts CONTRACT-ACME-2024 and CONTRACT-ACME-2025, two versions each',
  },
  {
    name: 'notes/notes',
    schema: 'NotesRequest',
    description: 'three notes for EXT-ELEC-0001: with created_at, body only, with a document and pinned',
  },
  {
    name: 'transactions/all-types',
    schema: 'TransactionsRequest',
    description: 'one transaction of every type for EXT-ELEC-0001, dated inside the open statement period (June 2024)',
  },
  {
    name: 'historical-billing-documents/period-based',
    schema: 'HistoricalBillingDocumentsRequest',
    description:
      'two period-based billing documents for ledger ELEC-LEDGER-1 of EXT-ELEC-0001, plus an additional transaction',
  },
  {
    name: 'historical-billing-documents/item-based',
    schema: 'HistoricalBillingDocumentsRequest',
    description:
      'two item-based billing documents for ledger GAS-LEDGER-1 of EXT-GAS-0001, plus an additional transaction',
  },
  {
    name: 'historical-statements/statements',
    schema: 'HistoricalStatementsRequest',
    description: 'two historical statements for EXT-ELEC-0001, one with a statement_path and one without',
  },
  {
    name: 'payment-instructions/account',
    schema: 'PaymentInstructionRequest',
    description: 'card instruction STRIPE REF-OK-1 for EXT-ELEC-0001',
  },
  {
    name: 'payment-instructions/business',
    schema: 'BusinessPaymentInstructionRequest',
    description: 'card instruction STRIPE REF-OK-2 for BUS-ACME-0001, covering EXT-ELEC-0001',
  },
  {
    name: 'additions/agreements',
    schema: 'AgreementsRequest',
    description:
      "a 2025 agreement for EXT-ELEC-0001's supply point, in the reference server's payload shape (§4.2: shape not shown)",
  },
  {
    name: 'additions/supply-points',
    schema: 'SupplyPointsRequest',
    description:
      "a new electricity supply point for EXT-ELEC-0001, in the reference server's payload shape (§4.2: shape not shown)",
  },
];
