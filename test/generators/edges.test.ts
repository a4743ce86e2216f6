/**
 * Edges in the default run: a property drawing the default number of cases meets every edge class
 * of generators/edges.ts, and the edges stay valid (valid.test.ts holds every payload to both models
 * and the reference server's checks).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunConfig } from '../../core/config/schema.js';
import { model, type AccountPayload } from '../../core/spec/index.js';
import * as gen from '../../generators/index.js';
import { endOfMonth } from '../../generators/calendar.js';
import {
  EDGE_ODDS,
  EDGES,
  type EdgeClass,
  LARGE_BATCH,
  LONG_TEXT,
  edgeText,
  longText,
} from '../../generators/edges.js';
import { formatOf } from '../../generators/model-shape.js';
import { mobile } from '../../generators/spanish.js';
import { SUPPLIER, lastField, walk } from './helpers.js';

const DEFAULT_NUM_RUNS = RunConfig.parse({}).num_runs;

/** The accounts `properties.account.valid-accepted` draws: complete, of any supply. */
const accounts = fc
  .constantFrom<gen.Supply>('electricity', 'gas', 'dual')
  .chain((supply) => gen.accountPayload({ import_supplier: SUPPLIER, supply }));

const hasMoreThanTwoDecimals = (amount: number | string): boolean =>
  typeof amount === 'string' ? /\.\d{3,}$/.test(amount) : Math.round(amount * 100) / 100 !== amount;

/** The edge classes a payload carries, read from its values alone. */
function edgesIn(payload: AccountPayload): Set<EdgeClass> {
  const found = new Set<EdgeClass>();
  for (const { path, schema, value } of walk(model.AccountPayload, payload)) {
    const field = lastField(path);
    if (Array.isArray(value) && value.length >= LARGE_BATCH) found.add('array-large');
    if (typeof value === 'number' && Number.isInteger(value) && value > 2 ** 31 - 1) found.add('integer-large');
    if (typeof value === 'number' || typeof value === 'string') {
      const inTransaction = typeof path.at(-2) === 'number' && String(path.at(-3)).endsWith('transactions');
      if (field === 'amount' && inTransaction) {
        if (Number(value) === 0) found.add('amount-zero');
        if (Number(value) < 0) found.add('amount-negative');
        if (hasMoreThanTwoDecimals(value)) found.add('amount-many-decimals');
      }
    }
    if (typeof value !== 'string') continue;
    if ((field === 'postal_code' || field === 'billing_postcode') && value.startsWith('0'))
      found.add('postcode-leading-zero');
    if ((field === 'mobile' || field === 'landline') && !value.startsWith('+')) found.add('phone-prefix');
    if (/[\u{10000}-\u{10FFFF}]/u.test(value)) found.add('text-astral');
    if (/\p{M}/u.test(value)) found.add('text-combining');
    if (/[\u0590-\u08FF]/.test(value)) found.add('text-rtl');
    if (value.length >= LONG_TEXT.min) found.add('text-long');
    const format = formatOf(schema);
    if (format === 'date' || format === 'datetime') {
      const day = value.slice(0, 10);
      if (day.endsWith('-02-29')) found.add('date-leap-day');
      if (day === endOfMonth(day)) found.add('date-month-end');
      if (day.endsWith('-12-31') || day.endsWith('-01-01')) found.add('date-year-boundary');
    }
  }
  return found;
}

const classesIn = (seed: number): Set<EdgeClass> =>
  new Set(fc.sample(accounts, { seed, numRuns: DEFAULT_NUM_RUNS }).flatMap((a) => [...edgesIn(a)]));

describe('edges in the default run', () => {
  it('the default run draws 25 cases a property', () => {
    expect(DEFAULT_NUM_RUNS).toBe(25);
  });

  // The seed is random unless configured: every edge class is met on any of these seeds (the large
  // batch, one list a payload at 1 in 5, is missed by 0.8^25, about 0.4% of seeds).
  it.each([0, 1, 2, 7, 42, 2024, 123_456, 987_654_321])(
    'the default number of accounts meets every edge class (seed %i)',
    (seed) => {
      const missing = (Object.keys(EDGES) as EdgeClass[]).filter((edge) => !classesIn(seed).has(edge));
      expect(missing).toEqual([]);
    },
  );

  it('an edge is one draw in five, the rest typical', () => {
    const draws = fc.sample(mobile, { seed: 5, numRuns: 2000 });
    const edges = draws.filter((number) => !number.startsWith('+')).length / draws.length;
    const odds = EDGE_ODDS.edge / (EDGE_ODDS.edge + EDGE_ODDS.typical);
    expect(odds).toBe(1 / 5);
    expect(Math.abs(edges - odds)).toBeLessThan(0.03);
  });
});

describe('edge values', () => {
  it('text edges keep the typical text they were built from, so distinct texts stay distinct', () => {
    const base = 'La titular llama para confirmar la lectura del contador de junio.';
    const other = 'El cliente solicita recibir una copia en papel de la próxima factura.';
    const edges = fc.sample(edgeText(base), { seed: 1, numRuns: 100 });
    for (const text of new Set(edges)) {
      expect(text.normalize('NFC').startsWith(base.slice(0, 20))).toBe(true);
      expect(fc.sample(edgeText(other), { seed: 1, numRuns: 100 })).not.toContain(text);
    }
  });

  it('a long text has exactly its length, the typical text repeated', () => {
    for (const length of [LONG_TEXT.min, 300, LONG_TEXT.max]) {
      const text = longText('Acceso por la calle trasera', length);
      expect(text).toHaveLength(length);
      expect(text.startsWith('Acceso por la calle trasera Acceso')).toBe(true);
    }
  });

  it('a large list of notes keeps every body distinct', () => {
    const large = fc
      .sample(gen.accountPayload({ import_supplier: SUPPLIER }), { seed: 11, numRuns: 100 })
      .filter((a) => (a.notes?.length ?? 0) >= LARGE_BATCH);
    expect(large.length).toBeGreaterThan(0);
    for (const a of large) expect(new Set(a.notes?.map((n) => n.body)).size).toBe(a.notes?.length);
  });
});
