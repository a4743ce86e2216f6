/**
 * Preconditions the interface cannot create (docs/design.md §5): the facts of the target the operator
 * configures under `fixtures:`, and the §4.2 payloads only the operator can give (`payloads:`). Each
 * need is defined once here: the config key that provides it, and how its value is read. A rule that
 * needs a missing one is skipped, and the report names the key; once its needs passed, a rule reads
 * the values through `Preconditions`.
 */
import type { FixturesConfig } from '../config/schema.js';
import type { PayloadTemplates } from './templates.js';

type Facts = NonNullable<FixturesConfig>;

interface NeedSpec<T = unknown> {
  key: string;
  describe: string;
  /** The configured value; undefined (or an empty string) when the operator did not provide it. */
  read(facts: Facts, payloads: PayloadTemplates): T | undefined;
}

const need = <T>(spec: NeedSpec<T>) => spec;

/** A payload the operator configured (§4.2: its shape is not shown), undefined when there is none. */
const configuredPayload = (payloads: PayloadTemplates, kind: 'agreements' | 'supply_points') =>
  payloads.configured(kind) ? payloads.base(kind) : undefined;

export const NEEDS = {
  ongoingSupplier: need({
    key: 'fixtures.import_suppliers.ongoing',
    describe: 'an Ongoing import supplier',
    read: (f) => f.import_suppliers?.ongoing,
  }),
  otherOngoingSupplier: need({
    key: 'fixtures.import_suppliers.other_ongoing',
    describe: 'a second Ongoing import supplier',
    read: (f) => f.import_suppliers?.other_ongoing,
  }),
  pausedSupplier: need({
    key: 'fixtures.import_suppliers.paused',
    describe: 'a Paused import supplier',
    read: (f) => f.import_suppliers?.paused,
  }),
  completeSupplier: need({
    key: 'fixtures.import_suppliers.complete',
    describe: 'a Complete import supplier',
    read: (f) => f.import_suppliers?.complete,
  }),
  operationsTeam: need({
    key: 'fixtures.operations_team',
    describe: 'an operations team that exists',
    read: (f) => f.operations_team,
  }),
  // The account is only of use with the supplier it was staged under.
  pausedSupplierStagedAccount: need({
    key: 'fixtures.paused_supplier_staged_account',
    describe: 'an account staged before its supplier was paused',
    read: (f) => (f.import_suppliers?.paused ? f.paused_supplier_staged_account : undefined),
  }),
  completeSupplierStagedAccount: need({
    key: 'fixtures.complete_supplier_staged_account',
    describe: 'an account staged before its supplier was marked Complete',
    read: (f) => (f.import_suppliers?.complete ? f.complete_supplier_staged_account : undefined),
  }),
  skippedAccount: need({
    key: 'fixtures.skipped_account',
    describe: 'an account the operator marked to be skipped',
    read: (f) => f.skipped_account,
  }),
  paymentInstruction: need({
    key: 'fixtures.payment_instruction',
    describe: 'payment instructions that exist at the upstream vendor',
    read: (f) => f.payment_instruction,
  }),
  vendorPersistentFailure: need({
    key: 'fixtures.payment_instruction.references.persistent_failure',
    describe: 'a reference the vendor has persistent trouble with',
    read: (f) => f.payment_instruction?.references.persistent_failure,
  }),
  vendorIntermittentFailure: need({
    key: 'fixtures.payment_instruction.references.intermittent_failure',
    describe: 'a reference the vendor has intermittent trouble with',
    read: (f) => f.payment_instruction?.references.intermittent_failure,
  }),
  concurrencyLimit: need({
    key: 'fixtures.concurrency_limit',
    describe: 'the §8 concurrency limit, enabled by the operator',
    read: (f) => f.concurrency_limit,
  }),
  agreementsPayload: need({
    key: 'payloads.agreements',
    describe: 'an agreements payload (§4.2: shape not shown)',
    read: (_, p) => configuredPayload(p, 'agreements'),
  }),
  supplyPointsPayload: need({
    key: 'payloads.supply_points',
    describe: 'a supply-points payload (§4.2: shape not shown)',
    read: (_, p) => configuredPayload(p, 'supply_points'),
  }),
};

export type Need = keyof typeof NEEDS;

/**
 * What staging and processing an account stands on (§4.1, §3): an Ongoing supplier to stage under
 * and an operations team to process with. Most areas need an imported account, so most take this
 * as their default.
 */
export const TO_IMPORT: readonly Need[] = ['ongoingSupplier', 'operationsTeam'];

type ValueOf<N extends Need> = NonNullable<ReturnType<(typeof NEEDS)[N]['read']>>;

const provided = (value: unknown) => value !== undefined && value !== '';

/** The first need the configuration does not satisfy, if any. */
export function missingNeed(
  needs: readonly Need[],
  facts: Facts,
  payloads: PayloadTemplates,
): (NeedSpec & { need: Need }) | undefined {
  for (const need of needs) {
    const spec: NeedSpec = NEEDS[need];
    if (!provided(spec.read(facts, payloads))) return { need, ...spec };
  }
  return undefined;
}

/** The run's preconditions, with accessors that rules can rely on once `needs` passed. */
export class Preconditions {
  private paymentReference = 0;

  constructor(
    /** The facts of the target, as configured under `fixtures:`. */
    readonly config: Facts,
    /** The payload templates (`payloads:`), with the canonical payloads where none is configured. */
    readonly payloads: PayloadTemplates,
  ) {}

  private value<N extends Need>(need: N): ValueOf<N> {
    const value = NEEDS[need].read(this.config, this.payloads);
    if (value === undefined)
      throw new Error(`internal: a rule used ${NEEDS[need].key} without declaring the need "${need}"`);
    return value as ValueOf<N>;
  }

  get ongoingSupplier() {
    return this.value('ongoingSupplier');
  }
  get otherOngoingSupplier() {
    return this.value('otherOngoingSupplier');
  }
  get pausedSupplier() {
    return this.value('pausedSupplier');
  }
  get completeSupplier() {
    return this.value('completeSupplier');
  }
  get operationsTeam() {
    return this.value('operationsTeam');
  }
  get pausedSupplierStagedAccount() {
    return this.value('pausedSupplierStagedAccount');
  }
  get completeSupplierStagedAccount() {
    return this.value('completeSupplierStagedAccount');
  }
  get skippedAccount() {
    return this.value('skippedAccount');
  }
  get concurrencyLimit() {
    return this.value('concurrencyLimit');
  }
  get paymentInstruction() {
    return this.value('paymentInstruction');
  }
  /** The valid references in turn, so rules spread over every instruction the operator provided. */
  nextValidPaymentReference(): string {
    const valid = this.paymentInstruction.references.valid;
    return valid[this.paymentReference++ % valid.length];
  }
  get agreementsPayload() {
    return this.value('agreementsPayload');
  }
  get supplyPointsPayload() {
    return this.value('supplyPointsPayload');
  }
}
