/** A config file for a hand-started reference server that configures every fixture, as the embedded run does. */
import { EMBEDDED_LIMIT } from '../../app/embedded.js';

export function fullConfig(baseUrl: string, auth: string): string {
  return `base_url: ${baseUrl}
auth:
${auth}
fixtures:
  import_suppliers: { ongoing: SUPPLIER_ONGOING, other_ongoing: SUPPLIER_OTHER, paused: SUPPLIER_PAUSED, complete: SUPPLIER_COMPLETE }
  operations_team: Migrations
  skipped_account: EXT-SKIPPED-1
  paused_supplier_staged_account: EXT-PAUSED-STAGED-1
  complete_supplier_staged_account: EXT-COMPLETE-STAGED-1
  payment_instruction:
    vendor: STRIPE
    type: CARD
    references: { valid: [REF-OK-1, REF-OK-2], persistent_failure: REF-FAIL, intermittent_failure: REF-FLAKY }
  concurrency_limit: ${EMBEDDED_LIMIT.concurrencyLimit}
payloads:
  agreements:
    import_supplier: "{{import_supplier}}"
    external_account_number: "{{external_account_number}}"
    supply_point_identifier: "{{supply_point_identifier}}"
    agreements: [{ tariff_code: 2.0TD, effective_from: "2025-01-01", effective_to: "2025-12-31" }]
  supply_points:
    import_supplier: "{{import_supplier}}"
    external_account_number: "{{external_account_number}}"
    supply_points: [{ identifier: "{{new_supply_point_identifier}}", supply_type: ELECTRICITY, supply_start_date: "2025-01-01" }]
`;
}

/** The flags that make a hand-started `serve` behave like the embedded target. */
export const SERVE_LIKE_EMBEDDED = [
  '--concurrency-limit',
  String(EMBEDDED_LIMIT.concurrencyLimit),
  '--processing-delay',
  String(EMBEDDED_LIMIT.processingDelayMs),
];
