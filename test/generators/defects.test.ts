/** Single-defect payloads: refused, reported at the returned attr, and nowhere else. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { model, strictModel } from '../../core/spec/index.js';
import { fixtureCatalogue, loadFixture } from '../../core/spec/fixtures.js';
import { checkAccountPayload } from '../../reference/handlers/migration.js';
import { type ErrorItem, validate } from '../../reference/validation.js';
import * as gen from '../../generators/index.js';
import { KEY, SUPPLIER, referenceEnv } from './helpers.js';

const NUM_RUNS = 300;

/** Refused, with an error at the defect and none elsewhere: exactly one defect. */
function reportedOnce(invalid: gen.Invalid, result: { ok: true } | { ok: false; errors: ErrorItem[] }): void {
  expect(result.ok, `${invalid.defect.description} was accepted`).toBe(false);
  const errors = result.ok ? [] : result.errors;
  expect(
    errors.some((e) => gen.matchesDefect(e.attr, invalid)),
    `${invalid.defect.description}: ${JSON.stringify(errors)}`,
  ).toBe(true);
  expect(
    errors.filter((e) => !gen.matchesDefect(e.attr, invalid)),
    invalid.defect.description,
  ).toEqual([]);
}

/** The spec model refuses every defect except the one that is only a reading: an expected field left out. */
function levelAgreesWithSpecModel(invalid: gen.Invalid, spec: z.ZodType): void {
  expect(spec.safeParse(invalid.payload).success, invalid.defect.description).toBe(
    invalid.defect.kind === 'required-missing',
  );
}

const RANGES = [
  ['effective_from', 'effective_to'],
  ['interval_start', 'interval_end'],
  ['bill_period_from_date', 'bill_period_to_date'],
];

/**
 * A broken end of a range stays in order with the other end, so a server that compares the two as
 * text finds nothing more to report. True when the defect was at the end of a range.
 */
function keepsRangeOrder(invalid: gen.Invalid): boolean {
  const path = invalid.attr.split('.');
  const field = path.pop()!;
  const range = RANGES.find((r) => r.includes(field));
  const item = path.reduce<any>((node, part) => node?.[part], invalid.payload);
  const [from, to] = range ? [item?.[range[0]], item?.[range[1]]] : [];
  if (typeof from !== 'string' || typeof to !== 'string') return false;
  expect(from <= to, `${invalid.attr}: ${from} .. ${to}`).toBe(true);
  return true;
}

const indexes = (attr: string) =>
  attr
    .split('.')
    .filter((part) => /^\d+$/.test(part))
    .map(Number);

describe('single-defect account payloads', () => {
  const env = referenceEnv();

  it('are refused by the reference server, at the defect only', () => {
    const seen = { total: 0, deep: 0, laterItem: 0, ranges: 0, kinds: new Set<string>() };
    fc.assert(
      fc.property(gen.invalidAccountPayload({ import_supplier: SUPPLIER }), (invalid) => {
        reportedOnce(invalid, checkAccountPayload(invalid.payload, env));
        levelAgreesWithSpecModel(invalid, model.AccountPayload);
        if (keepsRangeOrder(invalid)) seen.ranges++;
        seen.total++;
        if (invalid.attr.split('.').length >= 4) seen.deep++;
        if (indexes(invalid.attr).some((i) => i > 0)) seen.laterItem++;
        seen.kinds.add(invalid.defect.kind);
      }),
      { numRuns: NUM_RUNS },
    );
    // Defects land deep and on later items, not only on the first of each list.
    expect(seen.deep / seen.total).toBeGreaterThan(0.3);
    expect(seen.laterItem / seen.total).toBeGreaterThan(0.3);
    expect([...seen.kinds].sort()).toEqual(gen.defectKinds().sort());
    expect(seen.ranges).toBeGreaterThan(20);
  });

  it('carry the level of the table and may be restricted to some kinds', () => {
    for (const invalid of fc.sample(
      gen.invalidAccountPayload({ import_supplier: SUPPLIER, kinds: gen.defectKinds('MUST') }),
      { seed: 9, numRuns: 50 },
    )) {
      expect(invalid.defect.level).toBe('MUST');
      expect(invalid.defect.level).toBe(gen.DEFECTS[invalid.defect.kind].level);
    }
    const phones = fc.sample(
      gen.invalidAccountPayload({ import_supplier: SUPPLIER, complete: false, kinds: ['malformed-phone'] }),
      { seed: 9, numRuns: 20 },
    );
    expect(phones.every((i) => /^customers\.\d+\.(mobile|landline)$/.test(i.attr))).toBe(true);
  });
});

describe('single-defect request bodies', () => {
  it('notes requests are refused at the defect only, under notes.N', () => {
    fc.assert(
      fc.property(gen.invalidNotesRequest(KEY), (invalid) => {
        expect(invalid.attr).toMatch(/^notes(\.|$)/);
        reportedOnce(invalid, validate(strictModel.NotesRequest, invalid.payload));
        levelAgreesWithSpecModel(invalid, model.NotesRequest);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('transactions requests are refused at the defect only, under transactions.N', () => {
    fc.assert(
      fc.property(gen.invalidTransactionsRequest(KEY), (invalid) => {
        expect(invalid.attr).toMatch(/^transactions(\.|$)/);
        reportedOnce(invalid, validate(strictModel.TransactionsRequest, invalid.payload));
        levelAgreesWithSpecModel(invalid, model.TransactionsRequest);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('matchesDefect', () => {
  const field = {
    attr: 'customers.1.email',
    defect: { kind: 'malformed-email', level: 'MUST', description: '' },
  } as const;
  const note = { attr: 'notes.2', defect: { kind: 'note-without-content', level: 'MUST', description: '' } } as const;

  it('wants the very field for a field defect', () => {
    expect(gen.matchesDefect('customers.1.email', field)).toBe(true);
    expect(gen.matchesDefect('customers.1.email.non_field_errors', field)).toBe(false);
    expect(gen.matchesDefect('customers.0.email', field)).toBe(false);
    expect(gen.matchesDefect('customers.1', field)).toBe(false);
  });

  it('accepts the object or a place inside it for an object-level defect', () => {
    expect(gen.matchesDefect('notes.2', note)).toBe(true);
    expect(gen.matchesDefect('notes.2.non_field_errors', note)).toBe(true);
    expect(gen.matchesDefect('notes.2.body', note)).toBe(true);
    expect(gen.matchesDefect('notes.20', note)).toBe(false);
    expect(gen.matchesDefect('notes', note)).toBe(false);
  });
});

describe('everyDefect: the type defects at every documented field of every request, not only of the account payload', () => {
  const typed = gen.TYPE_DEFECTS.filter((k) => k !== 'boolean-as-string');
  const requests = fixtureCatalogue.filter(
    (f) => f.schema !== 'AgreementsRequest' && f.schema !== 'SupplyPointsRequest',
  );

  it.each(requests.map((f) => [f.name, f.schema] as const))(
    '%s: each defect is refused by the strict model at its attr only, one per place and kind',
    (name, schema) => {
      const body = loadFixture<object>(name);
      const cases = gen.everyDefect(model[schema], body, typed, new Set(['ledger_number']));
      expect(cases.length).toBeGreaterThanOrEqual(2);
      for (const invalid of cases) {
        reportedOnce(invalid, validate(strictModel[schema], invalid.payload));
        levelAgreesWithSpecModel(invalid, model[schema]);
        expect(invalid.defect.level).toBe('MUST');
      }
      const places = cases.map((c) => `${c.attr} ${c.defect.kind}`);
      expect(new Set(places).size, 'one case per place and kind').toBe(places.length);
      expect(cases.some((c) => c.attr.split('.').includes('ledger_number'))).toBe(false);
    },
  );

  it('reaches every documented field: dry_run, the account key, and fields deep in lists', () => {
    const process = {
      external_account_number: 'E',
      import_supplier_code: 'S',
      operations_team_name: 'T',
      dry_run: false,
    };
    const attrs = (schema: 'ProcessAccountRequest', body: object) =>
      gen.everyDefect(model[schema], body, typed).map((c) => `${c.attr} ${c.defect.kind}`);
    expect(attrs('ProcessAccountRequest', process).sort()).toEqual([
      'dry_run not-a-boolean',
      'external_account_number wrong-type-string',
      'import_supplier_code wrong-type-string',
      'operations_team_name wrong-type-string',
    ]);
    const business = loadFixture<object>(requests.find((f) => f.schema === 'BusinessRequest')!.name);
    const deep = gen.everyDefect(model.BusinessRequest, business, typed).map((c) => c.attr);
    expect(deep).toContain('business.business_contracts.1.versions.0.applicable_at_date');
    expect(deep).toContain('business.business_contracts');
    const booleans = gen.everyDefect(model.ProcessAccountRequest, process, ['boolean-as-string']);
    expect(booleans.map((c) => [c.attr, c.payload.dry_run, c.defect.level])).toEqual([['dry_run', 'false', 'SHOULD']]);
  });
});
