/**
 * The operator's setup as one document: what the spec leaves to the service operator (§2.2 supplier
 * status and document root, §4.1 operations teams and skipped accounts, §2.7 upstream instructions,
 * §5 API keys and tokens, §8 the concurrency limit). `defaultSeed` is the ready set the embedded run
 * and `conformance serve` start with; its names match the example conformance.config.yaml at the root of the repo.
 */
import { z } from 'zod';
import type { AccountPayload } from '../core/spec/index.js';
import type { ReferenceStore } from './store.js';

export const SupplierSeed = z.strictObject({
  code: z.string().min(1),
  status: z.enum(['Ongoing', 'Paused', 'Complete']),
  document_root: z.string().default(''),
});

export const VendorInstructionSeed = z.strictObject({
  vendor: z.string().min(1),
  reference: z.string().min(1),
  type: z.string().min(1).optional(),
  behaviour: z.enum(['ok', 'persistent_failure', 'intermittent_failure']).default('ok'),
});

export const AccountKeySeed = z.strictObject({
  import_supplier: z.string().min(1),
  external_account_number: z.string().min(1),
});

/**
 * An account staged in the past, as the operator's history has it: staged while its supplier was
 * Ongoing, whatever the supplier's status is now (which only the operator can arrange, §2.2).
 */
export const StagedAccountSeed = z.strictObject({
  import_supplier: z.string().min(1),
  external_account_number: z.string().min(1),
  payload: z.record(z.string(), z.unknown()).optional(),
});

export const SettingsPatch = z.strictObject({
  concurrency_limit: z.int().min(1).nullable().optional(),
  processing_delay_ms: z.int().min(0).max(60_000).optional(),
  token_ttl_seconds: z.int().min(1).nullable().optional(),
  response_delay_ms: z.int().min(0).max(60_000).optional(),
  account_types: z.array(z.string().min(1)).min(1).nullable().optional(),
  business_types: z.array(z.string().min(1)).min(1).nullable().optional(),
});

export const SeedDocument = z.strictObject({
  suppliers: z.array(SupplierSeed).optional(),
  operations_teams: z.array(z.string().min(1)).optional(),
  skipped_accounts: z.array(AccountKeySeed).optional(),
  staged_accounts: z.array(StagedAccountSeed).optional(),
  vendor_instructions: z.array(VendorInstructionSeed).optional(),
  api_keys: z.array(z.string().min(1)).optional(),
  tokens: z.array(z.string().min(1)).optional(),
  settings: SettingsPatch.optional(),
});

export type SeedDocument = z.input<typeof SeedDocument>;
export type SettingsPatch = z.input<typeof SettingsPatch>;

export function applySettings(store: ReferenceStore, patch: z.output<typeof SettingsPatch>): void {
  const s = store.settings;
  if (patch.concurrency_limit !== undefined) s.concurrencyLimit = patch.concurrency_limit;
  if (patch.processing_delay_ms !== undefined) s.processingDelayMs = patch.processing_delay_ms;
  if (patch.token_ttl_seconds !== undefined) s.tokenTtlSeconds = patch.token_ttl_seconds;
  if (patch.response_delay_ms !== undefined) s.responseDelayMs = patch.response_delay_ms;
  if (patch.account_types !== undefined) s.accountTypes = patch.account_types;
  if (patch.business_types !== undefined) s.businessTypes = patch.business_types;
}

/** Merges a seed document into the store (existing entries with the same key are replaced). */
export function applySeed(store: ReferenceStore, input: SeedDocument): void {
  const seed = SeedDocument.parse(input);
  for (const s of seed.suppliers ?? [])
    store.suppliers.set(s.code, { code: s.code, status: s.status, documentRoot: s.document_root });
  for (const team of seed.operations_teams ?? []) store.operationsTeams.add(team);
  for (const a of seed.skipped_accounts ?? []) store.markSkipped(a.import_supplier, a.external_account_number);
  for (const a of seed.staged_accounts ?? []) {
    const payload = {
      ...a.payload,
      import_supplier: a.import_supplier,
      external_account_number: a.external_account_number,
    } as AccountPayload;
    store.putProcess({
      supplier: a.import_supplier,
      externalAccountNumber: a.external_account_number,
      payload,
      inProgress: false,
      account: null,
    });
  }
  for (const v of seed.vendor_instructions ?? []) store.putVendorInstruction(v);
  for (const key of seed.api_keys ?? []) store.apiKeys.add(key);
  for (const token of seed.tokens ?? []) store.tokens.set(token, { expiresAt: null });
  if (seed.settings) applySettings(store, seed.settings);
}

/** Well-known local secrets of the default seed: the reference server is a local mock. */
export const DEFAULT_TOKEN = 'reference-token';
export const DEFAULT_API_KEY = 'reference-api-key';

export const DEFAULT_FIXTURES = {
  import_suppliers: {
    ongoing: 'SUPPLIER_ONGOING',
    other_ongoing: 'SUPPLIER_OTHER',
    paused: 'SUPPLIER_PAUSED',
    complete: 'SUPPLIER_COMPLETE',
  },
  operations_team: 'Migrations',
  skipped_account: 'EXT-SKIPPED-1',
  paused_supplier_staged_account: 'EXT-PAUSED-STAGED-1',
  complete_supplier_staged_account: 'EXT-COMPLETE-STAGED-1',
  payment_instruction: {
    vendor: 'STRIPE',
    type: 'CARD',
    references: { valid: ['REF-OK-1', 'REF-OK-2'], persistent_failure: 'REF-FAIL', intermittent_failure: 'REF-FLAKY' },
  },
} as const;

export function defaultSeed(secrets: { token?: string; apiKey?: string } = {}): SeedDocument {
  const f = DEFAULT_FIXTURES;
  const { vendor, type, references } = f.payment_instruction;
  return {
    suppliers: [
      { code: f.import_suppliers.ongoing, status: 'Ongoing', document_root: 'suppliers/ongoing' },
      { code: f.import_suppliers.other_ongoing, status: 'Ongoing', document_root: 'suppliers/other' },
      { code: f.import_suppliers.paused, status: 'Paused', document_root: 'suppliers/paused' },
      { code: f.import_suppliers.complete, status: 'Complete', document_root: 'suppliers/complete' },
    ],
    operations_teams: [f.operations_team],
    skipped_accounts: [{ import_supplier: f.import_suppliers.ongoing, external_account_number: f.skipped_account }],
    staged_accounts: [
      { import_supplier: f.import_suppliers.paused, external_account_number: f.paused_supplier_staged_account },
      { import_supplier: f.import_suppliers.complete, external_account_number: f.complete_supplier_staged_account },
    ],
    vendor_instructions: [
      ...references.valid.map((reference) => ({ vendor, reference, type, behaviour: 'ok' as const })),
      { vendor, reference: references.persistent_failure, type, behaviour: 'persistent_failure' },
      { vendor, reference: references.intermittent_failure, type, behaviour: 'intermittent_failure' },
    ],
    api_keys: [secrets.apiKey ?? DEFAULT_API_KEY],
    tokens: [secrets.token ?? DEFAULT_TOKEN],
  };
}
