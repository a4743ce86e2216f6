/**
 * What makes derived payloads look like a Spanish energy retailer's data: the override table of
 * the model walker. Object rules are keyed by the `§…` section the model gives each resource, field
 * rules by field name. Dates follow one timeline per payload, anchored at `anchor` (the last day of
 * the month the data is as of), so every range is ordered and no two items of a list overlap.
 */
import fc from 'fast-check';
import { addDays, dateTime, dayBetween, timeOfDay } from '../calendar.js';
import type { Rules } from '../from-model.js';
import { LARGE_BATCH } from '../edges.js';
import { emailOf, euros, mobile, person } from '../spanish.js';
import { accountRules } from './account.js';
import { billingRules } from './billing.js';
import { businessRules } from './business.js';
import type { Context } from './context.js';

export type { Context, DocumentKind, TransactionKind } from './context.js';

const LENGTHS: Readonly<Record<string, readonly [number, number]>> = {
  customers: [1, 3],
  supply_addresses: [1, 2],
  supply_points: [1, 3],
  agreements: [1, 3],
  readings: [1, 3],
  billable_items: [1, 3],
  ledgers: [1, 2],
  current_statement_transactions: [1, 4],
  historical_statement_transactions: [1, 4],
  notes: [1, 3],
  statements: [1, 2],
  metadata: [1, 2],
  references: [1, 2],
  payment_schedules: [1, 1],
  account_roles: [1, 1],
  document_paths: [1, 2],
  tax_items: [1, 1],
  details: [1, 4],
};

/**
 * Lists that take `LARGE_BATCH` items once in five. Notes only: a large list costs every case that
 * draws it (generation, validation, the report), and one large list a payload is enough to meet
 * a server's batch edges.
 */
const LARGE = new Set(['notes']);

export const rules: Rules<Context> = {
  objects: { ...accountRules, ...billingRules, ...businessRules },
  fields: {
    // Open strings whose values are not shown: only the values the examples use.
    account_type: () => fc.constant('DOMESTIC'),
    sales_channel: () => fc.constant('DIRECT'),
    sales_subchannel: () => fc.constantFrom('WEB', 'PHONE'),
    communication_preference: () => fc.constant('ONLINE'),
    unknown_occupier: () => fc.constant(false),
    country: () => fc.constant('ES'),
    cnae: () => fc.constant('9820'),
    atr_type: () => fc.constant('C1'),
    billable_item_type: () => fc.constant('METER_RENTAL'),
    // Stand-ins for values the caller provides (the keys and references of existing things).
    external_account_number: (s) => fc.constant(`EXT-${s.serial}`),
    external_business_identifier: (s) => fc.constant(`BUS-${s.serial}`),
    ledger_code: (s) => fc.constant(`LEDGER-${s.serial}-1`),
    ledger_number: (s) => fc.constant(String(100_000 + s.serial)),
  },
  formats: {
    date: (s) => dayBetween(addDays(s.anchor, -365), s.anchor),
    datetime: (s) =>
      fc.tuple(dayBetween(addDays(s.anchor, -365), s.anchor), timeOfDay).map(([day, time]) => dateTime(day, time)),
    email: (s) => person.map((p) => emailOf(p, s.index)),
    phone: () => mobile,
    decimal: () => euros(100, 100_000).map((n) => n.toFixed(2)),
  },
  length: (field, s) => (field === 'supply_points' && s.kinds.length > 1 ? [2, 3] : (LENGTHS[field] ?? [1, 3])),
  large: (field) => (LARGE.has(field) ? LARGE_BATCH : undefined),
};
