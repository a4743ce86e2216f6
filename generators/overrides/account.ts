/**
 * §2.3 account payload: customers, supply addresses and points with their agreements, readings and
 * billable items, notes, payment schedules, statements, metadata and references.
 */
import fc from 'fast-check';
import { addDays, addMonths, dateTime, dayBetween, endOfMonth, timeOfDay } from '../calendar.js';
import { EDGE_GIVEN_NAMES, edgeInteger, orEdge, orTextEdge } from '../edges.js';
import type { ObjectRule } from '../from-model.js';
import {
  ANNUAL_CONSUMPTION,
  DOCUMENT_NAMES,
  MONTHLY_FEE_CENTS,
  NOTE_BODIES,
  STREET_FIELDS,
  SUPPLY,
  type SupplyKind,
  addressLine,
  cups,
  dniArb,
  emailOf,
  euros,
  fullName,
  landline,
  maxPower,
  mobile,
  person,
  place,
  round2,
  street,
} from '../spanish.js';
import { type Context, list, pad } from './context.js';

/** A list sorted oldest first by a date field (ISO dates sort as text). */
function chronological(items: unknown, by: string): unknown {
  if (!Array.isArray(items)) return items;
  const date = (item: Record<string, unknown>) => String(item[by] ?? '');
  return [...(items as Record<string, unknown>[])].sort((a, b) => date(a).localeCompare(date(b)));
}

// §2.3 account, customers, addresses ------------------------------------------------------------

const account: ObjectRule<Context> = {
  // Its own billing details, for when the first customer or supply address is left out; otherwise
  // `finish` bills the first customer at the first supply address.
  joint: {
    fields: ['billing_name', 'billing_address1', 'billing_address4', 'billing_postcode'],
    values: () =>
      fc.tuple(person, place, street).map(([p, where, s]) => ({
        billing_name: fullName(p),
        billing_address1: addressLine(s),
        billing_address4: where.locality,
        billing_postcode: where.postal_code,
      })),
  },
  finish: (value) => {
    const holder = list(value.customers)[0];
    const address = list(value.supply_addresses)[0]?.supply_address as Record<string, unknown> | undefined;
    const line = addressLine((address?.structured_street_address ?? {}) as Record<string, string>);
    return {
      ...value,
      ...(holder?.given_name !== undefined &&
        holder.family_name !== undefined && { billing_name: `${holder.given_name} ${holder.family_name}` }),
      ...(line !== undefined && { billing_address1: line }),
      ...(address?.locality !== undefined &&
        address.postal_code !== undefined && {
          billing_address4: address.locality,
          billing_postcode: address.postal_code,
        }),
    };
  },
  // An energy account supplies something; the `supply` option would mean nothing without supply points.
  keep: () => ['supply_addresses'],
};

const customer: ObjectRule<Context> = {
  joint: {
    fields: ['given_name', 'family_name', 'user_details', 'email', 'mobile', 'landline'],
    values: (s) =>
      fc
        .tuple(
          person,
          dniArb(s.index),
          mobile,
          landline,
          orEdge<string | undefined>(fc.constant(undefined), fc.constantFrom(...EDGE_GIVEN_NAMES)),
        )
        .map(([p, fiscalCode, mobileNumber, landlineNumber, edgeName]) => ({
          // An edge name (astral, decomposed, right-to-left) replaces the given name only: the e-mail
          // address stays a plain one.
          given_name: edgeName ?? p.given,
          family_name: `${p.first} ${p.second}`,
          user_details: [
            { namespace: 'fiscal_code', value: fiscalCode },
            { namespace: 'first_family_name', value: p.first },
            { namespace: 'second_family_name', value: p.second },
          ],
          email: emailOf(p, s.index),
          mobile: mobileNumber,
          landline: landlineNumber,
        })),
  },
};

const supplyAddressGroup: ObjectRule<Context> = {
  // The customer moved in years before the supply point's agreements start.
  narrow: (s) => dayBetween(addDays(s.anchor, -12 * 365), addDays(s.anchor, -4 * 365)).map((movedIn) => ({ movedIn })),
  joint: {
    fields: ['customer_at_supply_address_from_date'],
    values: (s) => fc.constant({ customer_at_supply_address_from_date: s.movedIn }),
  },
  keep: () => ['supply_points'],
};

// §2.3 supply point and what hangs from it ------------------------------------------------------------

/** A dual account has a dual-fuel home: its first point is electricity, its second gas. */
function supplyKind(s: Context): fc.Arbitrary<SupplyKind> {
  if (s.kinds.length === 1 || s.index > 1) return fc.constantFrom(...s.kinds);
  return fc.constant(s.kinds[s.index]);
}

/** Gas meters are read every two months, electricity meters every month. */
const readingMonths = (kind: SupplyKind | undefined): number => (kind === 'GAS' ? 2 : 1);

const supplyPoint: ObjectRule<Context> = {
  narrow: (s) =>
    supplyKind(s).chain((kind) =>
      fc
        .record({
          tariff: fc.constantFrom(...SUPPLY[kind].tariffs),
          meter: fc
            .tuple(fc.constantFrom(...SUPPLY[kind].meterPrefixes), fc.integer({ min: 0, max: 99_999_999 }))
            .map(([prefix, n]) => `${prefix}${pad(n, kind === 'GAS' ? 8 : 10)}`),
          billedMonthsAgo: fc.integer({ min: 0, max: 1 }),
          renewedMonthsAgo: fc.integer({ min: 0, max: 11 }),
        })
        .map(({ tariff, meter, billedMonthsAgo, renewedMonthsAgo }) => {
          const billedTo = endOfMonth(addMonths(s.anchor, -billedMonthsAgo));
          return { kind, tariff, meter, billedTo, agreementsFrom: addMonths(billedTo, -renewedMonthsAgo) };
        }),
    ),
  joint: {
    fields: ['identifier', 'distributor_ree_code', 'supply_type', 'supply_start_date', 'last_billed_to_date', 'atr'],
    values: (s) => {
      const kind = s.kind!;
      const movedIn = s.movedIn ?? addDays(s.anchor, -4 * 365);
      // The position in the payload ends the CUPS digits, so two points of one account never share one.
      const position = s.at
        .filter((p): p is number => typeof p === 'number')
        .map((i) => pad(i, 2))
        .join('')
        .slice(-4)
        .padStart(4, '0');
      return fc
        .record({
          distributor: fc.constantFrom(...SUPPLY[kind].distributors),
          digits: fc.integer({ min: 0, max: 99_999_999 }),
          start: dayBetween(movedIn, addDays(movedIn, 90)),
          atr: fc.integer({ min: 0, max: 999_999 }),
        })
        .map(({ distributor, digits, start, atr }) => ({
          identifier: cups(distributor, `${pad(digits, 8)}${position}`),
          distributor_ree_code: distributor,
          supply_type: kind,
          supply_start_date: start,
          last_billed_to_date: s.billedTo,
          atr: `ATR-${distributor}-${start.slice(0, 4)}-${pad(atr, 6)}`,
        }));
    },
  },
  // Items are generated newest first (the n-th goes n periods back); lists read oldest first.
  finish: (value) => ({
    ...value,
    agreements: chronological(value.agreements, 'effective_from'),
    readings: chronological(value.readings, 'interval_start'),
    billable_items: chronological(value.billable_items, 'interval_start'),
  }),
};

const agreement: ObjectRule<Context> = {
  // One agreement a year, back to back: the latest covers the last billed day, the n-th starts n years before it.
  joint: {
    fields: [
      'tariff_code',
      'effective_from',
      'effective_to',
      'params',
      'contractual_max_power',
      'annual_consumption',
      'estimated_monthly_fee_in_cents',
    ],
    values: (s) => {
      const tariff = s.tariff!;
      const from = addMonths(s.agreementsFrom!, -12 * s.index);
      const [minKwh, maxKwh] = ANNUAL_CONSUMPTION[tariff];
      const [minFee, maxFee] = MONTHLY_FEE_CENTS[tariff];
      return fc
        .record({
          power: maxPower(tariff),
          annual: fc.integer({ min: minKwh, max: maxKwh }),
          // Once in five an integer past 32 bits (generators/edges.ts): §2.3 says only "integer".
          fee: orEdge(fc.integer({ min: minFee, max: maxFee }), edgeInteger),
          availability: fc.constantFrom(0, 0.05, 0.1),
          consumption: fc.constantFrom(0, 0.05, 0.1),
        })
        .map(({ power, annual, fee, availability, consumption }) => ({
          tariff_code: tariff,
          effective_from: from,
          effective_to: addDays(addMonths(from, 12), -1),
          params: { availability_discount: availability, consumption_discount: consumption },
          contractual_max_power: power,
          annual_consumption: String(annual),
          estimated_monthly_fee_in_cents: fee,
        }));
    },
  },
};

const reading: ObjectRule<Context> = {
  // Consecutive meter readings: the latest ends where the point was last billed.
  joint: {
    fields: ['meter_serial_number', 'interval_start', 'interval_end', 'consumption_delta', 'source'],
    values: (s) => {
      const months = readingMonths(s.kind);
      const start = addMonths(addDays(s.billedTo!, 1), -months * (s.index + 1));
      const [minKwh, maxKwh] = ANNUAL_CONSUMPTION[s.tariff!];
      return fc
        .record({
          centsOfKwh: fc.integer({
            min: Math.round((minKwh * 100 * months) / 12),
            max: Math.round((maxKwh * 100 * months) / 12),
          }),
          source: fc.constantFrom(1, 2),
        })
        .map(({ centsOfKwh, source }) => ({
          meter_serial_number: s.meter,
          interval_start: dateTime(start),
          interval_end: dateTime(addMonths(start, months)),
          consumption_delta: (centsOfKwh / 100).toFixed(2),
          source,
        }));
    },
  },
};

const billableItem: ObjectRule<Context> = {
  // Meter rental, one unit a month, billed per reading period going back from the last billed day.
  joint: {
    fields: ['interval_start', 'interval_end', 'number_of_units', 'price_per_unit', 'net_amount'],
    values: (s) => {
      const months = readingMonths(s.kind);
      const start = addMonths(s.billedTo!, -(months * (s.index + 1) - 1));
      return euros(50, 150).map((price) => ({
        interval_start: start,
        interval_end: endOfMonth(addMonths(start, months - 1)),
        number_of_units: months,
        price_per_unit: price,
        net_amount: round2(price * months),
      }));
    },
  },
};

// §2.3 notes ---------------------------------------------------------------------------------------

/** Distinct within a payload however many notes it has: past the list of bodies, numbered. */
function noteBody(s: Context): string {
  const body = NOTE_BODIES[(s.serial + s.index) % NOTE_BODIES.length];
  const round = Math.floor(s.index / NOTE_BODIES.length);
  return round === 0 ? body : `${body} (${round + 1})`;
}

const note: ObjectRule<Context> = {
  // An unpin date only means something on a pinned note, and a complete note carries one.
  joint: {
    fields: ['body', 'created_at', 'is_pinned', 'unpin_at'],
    values: (s) =>
      fc
        .record({
          day: dayBetween(addDays(s.anchor, -365), s.anchor),
          time: timeOfDay,
          pinnedFor: fc.integer({ min: 15, max: 90 }),
          pinned: s.complete ? fc.constant(true) : fc.boolean(),
          body: orTextEdge(noteBody(s)),
        })
        .map(({ day, time, pinnedFor, pinned, body }) => ({
          body,
          created_at: dateTime(day, time),
          is_pinned: pinned,
          unpin_at: dateTime(addDays(day, pinnedFor)),
        })),
  },
  finish: (value) => {
    if (value.is_pinned !== false) return value;
    const { unpin_at: _, ...unpinned } = value;
    return unpinned;
  },
  // §2.3: "A note must have body or document_paths or both."
  keep: () => [['body', 'document_paths']],
};

const documentReference: ObjectRule<Context> = {
  // §2.1: the path is relative to the supplier's root; a leading slash is accepted.
  joint: {
    fields: ['document_path'],
    values: (s) =>
      fc.boolean().map((slash) => ({
        document_path: `${slash ? '/' : ''}documents/${s.serial}/${DOCUMENT_NAMES[(s.index + s.serial) % DOCUMENT_NAMES.length]}`,
      })),
  },
};

// §2.3 payment schedules, statements, metadata, references -----------------------------------------

const paymentSchedule: ObjectRule<Context> = {
  joint: {
    fields: ['start_date'],
    values: (s) => fc.constant({ start_date: addDays(s.anchor, 1) }),
  },
};

/** One statement a month going back from the anchor; in a dual account, alternately per supply. */
const accountStatement: ObjectRule<Context> = {
  joint: {
    fields: ['bill_period_from_date', 'bill_period_to_date', 'statement_id', 'statement_path', 'supply_type'],
    values: (s) => {
      const from = addMonths(s.anchor, -s.index);
      return fc.constant({
        bill_period_from_date: from,
        bill_period_to_date: endOfMonth(from),
        statement_id: `ST-${s.serial}-${from.slice(0, 7)}`,
        statement_path: `/statements/${s.serial}/${from.slice(0, 7)}.pdf`,
        supply_type: s.kinds[s.index % s.kinds.length],
      });
    },
  },
};

const metadata: ObjectRule<Context> = {
  joint: {
    fields: ['key', 'value'],
    values: (s) =>
      fc
        .record({
          electronicInvoice: fc.boolean(),
          email: fc.boolean(),
          sms: fc.boolean(),
          day: dayBetween(addDays(s.anchor, -700), s.anchor),
        })
        .map((m) =>
          s.index % 2 === 0
            ? {
                key: 'legacy_customer',
                value: {
                  system: 'SIGE',
                  customer_id: s.serial,
                  segment: 'residencial',
                  e_invoice: m.electronicInvoice,
                },
              }
            : { key: 'marketing_consent', value: { email: m.email, sms: m.sms, updated_at: dateTime(m.day) } },
        ),
  },
};

const reference: ObjectRule<Context> = {
  joint: {
    fields: ['namespace', 'value'],
    values: (s) =>
      fc.constant(
        s.index % 2 === 0
          ? { namespace: 'legacy_account_id', value: `CLI-${pad(s.serial, 7)}` }
          : { namespace: 'legacy_contract_id', value: `CTR-${s.serial}-01` },
      ),
  },
};

export const accountRules: Readonly<Record<string, ObjectRule<Context>>> = {
  '§2.3 account payload': account,
  '§2.3 customer': customer,
  '§2.3 supply_address': {
    joint: { fields: ['locality', 'administrative_area', 'postal_code', 'country'], values: () => place },
  },
  '§2.3 supply_address.structured_street_address': { joint: { fields: STREET_FIELDS, values: () => street } },
  '§2.3 supply address group': supplyAddressGroup,
  '§2.3 supply point': supplyPoint,
  '§2.3 agreement': agreement,
  '§2.3 reading': reading,
  '§2.3 billable item': billableItem,
  '§2.3 note': note,
  '§2.3 note.document_paths': documentReference,
  '§2.3 payment schedule': paymentSchedule,
  '§2.3 statement': accountStatement,
  '§2.3 metadata': metadata,
  '§2.3 references': reference,
};
