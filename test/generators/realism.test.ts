/** Generated data looks like a Spanish energy retailer's: matched addresses, valid CUPS, ordered ranges, exact formats. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cupsCheckLetters, dni } from '../../core/domain/spanish-identifiers.js';
import { model, type AccountPayload } from '../../core/spec/index.js';
import * as gen from '../../generators/index.js';
import { formatOf } from '../../generators/model-shape.js';
import { MANY_DECIMAL_AMOUNTS } from '../../generators/edges.js';
import { POSTAL_PREFIX } from '../../generators/spanish.js';
import { KEY, SUPPLIER, lastField, walk } from './helpers.js';

const accounts = fc.sample(
  fc.oneof(
    gen.accountPayload({ import_supplier: SUPPLIER }),
    gen.accountPayload({ import_supplier: SUPPLIER, complete: false }),
  ),
  { seed: 2024, numRuns: 100 },
);
const transactions = fc.sample(gen.transactionsRequest({ ...KEY, from: '2024-06-01' }), { seed: 2024, numRuns: 100 });

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const TWO_DECIMALS = /^-?\d+\.\d{2}$/;
const hasAtMostTwoDecimals = (n: number) => Math.round(n * 100) / 100 === n;

const points = (a: AccountPayload) => (a.supply_addresses ?? []).flatMap((g) => g.supply_points ?? []);

describe('realistic values', () => {
  it('postal codes start with the province prefix, in Spain', () => {
    for (const address of accounts.flatMap((a) => (a.supply_addresses ?? []).map((g) => g.supply_address ?? {}))) {
      if (address.administrative_area !== undefined && address.postal_code !== undefined) {
        expect(address.postal_code.slice(0, 2)).toBe(POSTAL_PREFIX[address.administrative_area]);
      }
      expect(address.postal_code ?? '00000').toMatch(/^\d{5}$/);
      if (address.country !== undefined) expect(address.country).toBe('ES');
    }
    expect(POSTAL_PREFIX).toMatchObject({
      Madrid: '28',
      Barcelona: '08',
      Valencia: '46',
      Sevilla: '41',
      Bizkaia: '48',
      Málaga: '29',
    });
  });

  it('supply points are CUPS of real distributors, with valid check letters', () => {
    const distributors = { ELECTRICITY: ['0021', '0031', '0026'], GAS: ['0230', '0234'] };
    for (const point of accounts.flatMap(points)) {
      const [, digits, letters] = /^ES(\d{16})([A-Z]{2})$/.exec(point.identifier ?? '') ?? [];
      expect(letters).toBe(cupsCheckLetters(digits));
      expect(distributors[point.supply_type!]).toContain(digits.slice(0, 4));
      if (point.distributor_ree_code !== undefined) expect(digits.slice(0, 4)).toBe(point.distributor_ree_code);
    }
  });

  it('tariffs fit the supply: 2.0TD/3.0TD with six powers in watts, or RL.1–RL.4', () => {
    for (const point of accounts.flatMap(points)) {
      for (const agreement of point.agreements ?? []) {
        if (point.supply_type === 'ELECTRICITY') expect(['2.0TD', '3.0TD']).toContain(agreement.tariff_code);
        else expect(['RL.1', 'RL.2', 'RL.3', 'RL.4']).toContain(agreement.tariff_code);
        if (agreement.contractual_max_power) {
          expect(agreement.contractual_max_power).toHaveLength(6);
          expect(agreement.contractual_max_power.every((w) => Number.isInteger(w) && w % 50 === 0)).toBe(true);
        }
        if (agreement.cnae !== undefined) expect(agreement.cnae).toBe('9820');
      }
    }
  });

  it('ranges are ordered and items of a list do not overlap', () => {
    const ordered = (from: string | undefined, to: string | undefined, strict = false) => {
      if (from !== undefined && to !== undefined)
        expect(strict ? from < to : from <= to, `${from} .. ${to}`).toBe(true);
    };
    for (const account of accounts) {
      for (const point of points(account)) {
        point.agreements?.forEach((a) => ordered(a.effective_from, a.effective_to));
        point.readings?.forEach((r) => ordered(r.interval_start, r.interval_end, true));
        point.billable_items?.forEach((b) => ordered(b.interval_start, b.interval_end));
        ordered(point.supply_start_date, point.last_billed_to_date);
        const readings = (point.readings ?? []).filter((r) => r.interval_start && r.interval_end);
        readings.slice(1).forEach((r, i) => ordered(readings[i].interval_end, r.interval_start));
      }
      account.statements?.forEach((s) => ordered(s.bill_period_from_date, s.bill_period_to_date));
    }
    for (const request of transactions) {
      for (const t of request.transactions) {
        t.line_items?.forEach((l) => ordered(l.start_date, l.end_date));
        ordered('2024-06-01', t.transaction_date);
      }
    }
  });

  it('dates, datetimes and amounts are written exactly as §2.1 and §2.4 show', () => {
    const visits = [
      ...accounts.flatMap((a) => walk(model.AccountPayload, a)),
      ...transactions.flatMap((t) => walk(model.TransactionsRequest, t)),
    ];
    for (const { path, schema, value } of visits) {
      if (formatOf(schema) === 'date') expect(value).toMatch(DATE);
      if (formatOf(schema) === 'datetime') expect(value).toMatch(DATETIME);
      // The edge amounts (generators/edges.ts): zero, negative in cents, or one of the many-decimal ones.
      if (lastField(path) === 'amount' && (typeof value === 'number' || typeof value === 'string')) {
        if (MANY_DECIMAL_AMOUNTS.includes(value)) continue;
        if (Number(value) <= 0) {
          expect(String(value)).toMatch(/^(0|0\.00|-\d+(\.\d{1,2})?)$/);
          continue;
        }
      }
      if (formatOf(schema) === 'decimal' || (lastField(path) === 'amount' && typeof value === 'string'))
        expect(value).toMatch(TWO_DECIMALS);
      if (typeof value === 'number') expect(hasAtMostTwoDecimals(value), `${path.join('.')} = ${value}`).toBe(true);
    }
    const amounts = transactions.flatMap((r) => r.transactions.map((t) => typeof t.amount));
    expect(new Set(amounts)).toEqual(new Set(['number', 'string']));
  });

  it('people have two family names, a DNI, a plain e-mail and Spanish phone numbers', () => {
    for (const customer of accounts.flatMap((a) => a.customers ?? [])) {
      const details = Object.fromEntries((customer.user_details ?? []).map((d) => [d.namespace, d.value]));
      if (customer.family_name !== undefined && details.first_family_name !== undefined) {
        expect(customer.family_name).toBe(`${details.first_family_name} ${details.second_family_name}`);
      }
      if (details.fiscal_code !== undefined)
        expect(details.fiscal_code).toBe(dni(Number(details.fiscal_code.slice(0, 8))));
      if (customer.email !== undefined) expect(customer.email).toMatch(/^[a-z]+\.[a-z]+\d*@example\.(com|org|net)$/);
      // Edges (generators/edges.ts): the 00 international prefix, or the nine digits alone.
      if (customer.mobile !== undefined)
        expect(customer.mobile).toMatch(/^((\+|00)34 [67]\d{2} \d{3} \d{3}|[67]\d{8})$/);
      if (customer.landline !== undefined) expect(customer.landline).toMatch(/^((\+|00)34 9\d{2} \d{3} \d{3}|9\d{8})$/);
    }
  });

  it('a supply charge adds up: its lines plus their taxes', () => {
    for (const t of transactions.flatMap((r) => r.transactions).filter((t) => t.type === 'SUPPLY_CHARGE')) {
      const net = (t.line_items ?? []).reduce((sum, l) => sum + (l.net_amount ?? 0), 0);
      const tax = (t.tax_items ?? []).reduce((sum, x) => sum + (x.amount ?? 0), 0);
      expect(Number(t.amount)).toBeCloseTo(net + tax, 2);
      for (const line of t.line_items ?? []) expect(line.units?.reduce((a, b) => a + b, 0)).toBe(line.number_of_units);
    }
  });

  it('open strings take only the values the spec and its examples show', () => {
    for (const { schema, value } of accounts.flatMap((a) => walk(model.AccountPayload, a))) {
      const seen = schema.meta()?.seen;
      if (seen && typeof value === 'string' && schema instanceof z.ZodString) expect(seen).toContain(value);
    }
    const shown = {
      account_type: ['DOMESTIC'],
      communication_preference: ['ONLINE'],
      sales_channel: ['DIRECT'],
      sales_subchannel: ['WEB', 'PHONE'],
    };
    for (const account of accounts) {
      for (const [field, values] of Object.entries(shown)) {
        const value = account[field as keyof typeof shown];
        if (value !== undefined) expect(values).toContain(value);
      }
    }
  });

  it('identifiers do not repeat within a payload', () => {
    for (const account of accounts) {
      const ids = [
        ...points(account).map((p) => p.identifier),
        ...(account.ledgers ?? []).flatMap((l) => [
          l.ledger_code,
          ...[...(l.current_statement_transactions ?? []), ...(l.historical_statement_transactions ?? [])].map(
            (t) => t.transaction_id,
          ),
        ]),
        ...(account.statements ?? []).map((s) => s.statement_id),
        ...(account.notes ?? []).map((n) => n.body),
      ].filter((id) => id !== undefined);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });
});
