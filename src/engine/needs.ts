/**
 * Preconditions the interface cannot create (docs/design.md §5), by the config key that provides them.
 * A rule that needs a missing one is skipped, and the report names the key.
 */
import type { FixturesConfig } from '../config/schema.js';
import type { PayloadTemplates } from './templates.js';

type Fixtures = NonNullable<FixturesConfig>;

interface NeedSpec {
  key: string;
  describe: string;
  has(f: Fixtures, payloads: PayloadTemplates): boolean;
}

export const NEEDS = {
  ongoingSupplier: {
    key: 'fixtures.import_suppliers.ongoing',
    describe: 'an Ongoing import supplier',
    has: (f) => !!f.import_suppliers?.ongoing,
  },
  otherOngoingSupplier: {
    key: 'fixtures.import_suppliers.other_ongoing',
    describe: 'a second Ongoing import supplier',
    has: (f) => !!f.import_suppliers?.other_ongoing,
  },
  pausedSupplier: {
    key: 'fixtures.import_suppliers.paused',
    describe: 'a Paused import supplier',
    has: (f) => !!f.import_suppliers?.paused,
  },
  completeSupplier: {
    key: 'fixtures.import_suppliers.complete',
    describe: 'a Complete import supplier',
    has: (f) => !!f.import_suppliers?.complete,
  },
  operationsTeam: {
    key: 'fixtures.operations_team',
    describe: 'an operations team that exists',
    has: (f) => !!f.operations_team,
  },
  pausedSupplierStagedAccount: {
    key: 'fixtures.paused_supplier_staged_account',
    describe: 'an account staged before its supplier was paused',
    has: (f) => !!f.paused_supplier_staged_account && !!f.import_suppliers?.paused,
  },
  completeSupplierStagedAccount: {
    key: 'fixtures.complete_supplier_staged_account',
    describe: 'an account staged before its supplier was marked Complete',
    has: (f) => !!f.complete_supplier_staged_account && !!f.import_suppliers?.complete,
  },
  skippedAccount: {
    key: 'fixtures.skipped_account',
    describe: 'an account the operator marked to be skipped',
    has: (f) => !!f.skipped_account,
  },
  paymentInstruction: {
    key: 'fixtures.payment_instruction',
    describe: 'payment instructions that exist at the upstream vendor',
    has: (f) => !!f.payment_instruction,
  },
  vendorPersistentFailure: {
    key: 'fixtures.payment_instruction.references.persistent_failure',
    describe: 'a reference the vendor has persistent trouble with',
    has: (f) => !!f.payment_instruction?.references.persistent_failure,
  },
  vendorIntermittentFailure: {
    key: 'fixtures.payment_instruction.references.intermittent_failure',
    describe: 'a reference the vendor has intermittent trouble with',
    has: (f) => !!f.payment_instruction?.references.intermittent_failure,
  },
  concurrencyLimit: {
    key: 'fixtures.concurrency_limit',
    describe: 'the §8 concurrency limit, enabled by the operator',
    has: (f) => f.concurrency_limit !== undefined,
  },
  agreementsPayload: {
    key: 'payloads.agreements',
    describe: 'an agreements payload (§4.2: shape not shown)',
    has: (_, p) => p.configured('agreements'),
  },
  supplyPointsPayload: {
    key: 'payloads.supply_points',
    describe: 'a supply-points payload (§4.2: shape not shown)',
    has: (_, p) => p.configured('supply_points'),
  },
} satisfies Record<string, NeedSpec>;

export type Need = keyof typeof NEEDS;

/** The first need the fixtures do not satisfy, if any. */
export function missingNeed(
  needs: readonly Need[],
  fixtures: Fixtures,
  payloads: PayloadTemplates,
): (NeedSpec & { need: Need }) | undefined {
  for (const need of needs) {
    const spec = NEEDS[need];
    if (!spec.has(fixtures, payloads)) return { need, ...spec };
  }
  return undefined;
}
