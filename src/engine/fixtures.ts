/** The configured preconditions (docs/design.md §5), with accessors that rules can rely on once `needs` passed. */
import type { FixturesConfig } from '../config/schema.js';
import { NEEDS, type Need } from './needs.js';
import type { PayloadTemplates } from './templates.js';

export class RunFixtures {
  private paymentReference = 0;

  constructor(
    readonly config: NonNullable<FixturesConfig>,
    /** The payload templates (`payloads:`), with the canonical payloads where none is configured. */
    readonly payloads: PayloadTemplates,
  ) {}

  private required<T>(value: T | undefined, need: Need): T {
    if (value === undefined)
      throw new Error(`internal: a rule used ${NEEDS[need].key} without declaring the need "${need}"`);
    return value;
  }

  get ongoingSupplier(): string {
    return this.required(this.config.import_suppliers?.ongoing, 'ongoingSupplier');
  }
  get otherOngoingSupplier(): string {
    return this.required(this.config.import_suppliers?.other_ongoing, 'otherOngoingSupplier');
  }
  get pausedSupplier(): string {
    return this.required(this.config.import_suppliers?.paused, 'pausedSupplier');
  }
  get completeSupplier(): string {
    return this.required(this.config.import_suppliers?.complete, 'completeSupplier');
  }
  get operationsTeam(): string {
    return this.required(this.config.operations_team, 'operationsTeam');
  }
  get pausedSupplierStagedAccount(): string {
    return this.required(this.config.paused_supplier_staged_account, 'pausedSupplierStagedAccount');
  }
  get completeSupplierStagedAccount(): string {
    return this.required(this.config.complete_supplier_staged_account, 'completeSupplierStagedAccount');
  }
  get skippedAccount(): string {
    return this.required(this.config.skipped_account, 'skippedAccount');
  }
  get concurrencyLimit(): number {
    return this.required(this.config.concurrency_limit, 'concurrencyLimit');
  }
  get paymentInstruction() {
    return this.required(this.config.payment_instruction, 'paymentInstruction');
  }
  /** The valid references in turn, so rules spread over every instruction the operator provided. */
  nextValidPaymentReference(): string {
    const valid = this.paymentInstruction.references.valid;
    return valid[this.paymentReference++ % valid.length];
  }
  get agreementsPayload(): Record<string, unknown> {
    return this.required(
      this.payloads.configured('agreements') ? this.payloads.base('agreements') : undefined,
      'agreementsPayload',
    );
  }
  get supplyPointsPayload(): Record<string, unknown> {
    return this.required(
      this.payloads.configured('supply_points') ? this.payloads.base('supply_points') : undefined,
      'supplyPointsPayload',
    );
  }
}

/** Fills `{{name}}` placeholders in every string of a payload template. */
export function fillTemplate(template: unknown, values: Record<string, string>): unknown {
  if (typeof template === 'string') {
    return template.replace(/\{\{(\w+)\}\}/g, (match, name: string) => values[name] ?? match);
  }
  if (Array.isArray(template)) return template.map((v) => fillTemplate(v, values));
  if (template && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fillTemplate(v, values)]));
  }
  return template;
}
