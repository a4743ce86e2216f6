import { describe, expect, it } from 'vitest';
import { declarationOf, floorAt, judgeRefusal, shrunkInside, withinDeclared } from '../../core/engine/limits.js';

const long = 'x'.repeat(300);
const account = {
  external_account_number: 'EXT-1',
  ledgers: [{ current_statement_transactions: [{ amount: 0, display_note: long }] }],
  supply_addresses: [{ supply_points: [{ agreements: [{ estimated_monthly_fee_in_cents: 2 ** 31 }] }] }],
  notes: Array.from({ length: 120 }, (_, i) => ({ body: `note ${i}` })),
};
const refusal = (...errors: { attr: string; code: string }[]) => ({
  status: 400,
  body: { detail: 'Invalid.', code: 'account_failed_validation', errors: errors.map((e) => ({ ...e, detail: 'd' })) },
});
const NOTE = 'ledgers.0.current_statement_transactions.0.display_note';
const FEE = 'supply_addresses.0.supply_points.0.agreements.0.estimated_monthly_fee_in_cents';

describe('judgeRefusal: a discovered limit', () => {
  it('a 400 naming a long text, a large integer or a long list of the request, each with a size code', () => {
    expect(judgeRefusal(refusal({ attr: NOTE, code: 'max_length' }), account)).toEqual({
      kind: 'limit',
      limits: [{ attr: NOTE, kind: 'length', refused: 300, code: 'max_length' }],
    });
    expect(judgeRefusal(refusal({ attr: FEE, code: 'max_value' }), account)).toMatchObject({
      kind: 'limit',
      limits: [{ kind: 'integer', refused: 2 ** 31 }],
    });
    expect(judgeRefusal(refusal({ attr: 'notes', code: 'max_items' }), account)).toMatchObject({
      kind: 'limit',
      limits: [{ kind: 'items', refused: 120 }],
    });
  });

  it('several limits in one answer are all discovered', () => {
    const judged = judgeRefusal(
      refusal({ attr: NOTE, code: 'max_length' }, { attr: 'notes', code: 'max_items' }),
      account,
    );
    expect(judged.kind).toBe('limit');
  });
});

describe('judgeRefusal: a failure, with the reason', () => {
  it('a 5xx, or a 400 without §7.1 errors', () => {
    expect(judgeRefusal({ status: 500, body: {} }, account)).toMatchObject({ kind: 'failure', reason: /500/ });
    expect(judgeRefusal({ status: 400, body: { detail: 'no' } }, account)).toMatchObject({ kind: 'failure' });
  });

  it('a 400 naming a field the request does not carry', () => {
    expect(judgeRefusal(refusal({ attr: 'billing_name', code: 'max_length' }), account)).toMatchObject({
      kind: 'failure',
      reason: /does not carry/,
    });
  });

  it('a present field called missing (amount 0 as required)', () => {
    const attr = 'ledgers.0.current_statement_transactions.0.amount';
    expect(judgeRefusal(refusal({ attr, code: 'required' }), account)).toMatchObject({
      kind: 'failure',
      reason: /missing/,
    });
    expect(judgeRefusal(refusal({ attr: NOTE, code: 'missing_field' }), account)).toMatchObject({ kind: 'failure' });
  });

  it('a value with no size to limit, or no larger than the spec examples carry', () => {
    const attr = 'ledgers.0.current_statement_transactions.0.amount';
    expect(judgeRefusal(refusal({ attr, code: 'max_value' }), account)).toMatchObject({ kind: 'failure' });
    expect(judgeRefusal(refusal({ attr: 'external_account_number', code: 'max_length' }), account)).toMatchObject({
      kind: 'failure',
      reason: /examples/,
    });
  });

  it('a value inside the declared limits', () => {
    expect(
      judgeRefusal(refusal({ attr: NOTE, code: 'max_length' }), account, {
        fields: { display_note: { max_length: 500 } },
      }),
    ).toMatchObject({ kind: 'failure', reason: /declared/ });
    // Outside what is declared: still a limit (the generators would not have sent it).
    expect(judgeRefusal(refusal({ attr: NOTE, code: 'max_length' }), account, { max_string_length: 255 }).kind).toBe(
      'limit',
    );
  });
});

describe('judgeRefusal: under non_field_errors (§7.1: create endpoints may name no field)', () => {
  const batch = { notes: Array.from({ length: 120 }, (_, i) => ({ body: `note ${i}` })) };

  it('is the one value past the examples the request carries, where the endpoint may use it', () => {
    expect(judgeRefusal(refusal({ attr: 'non_field_errors', code: 'too_many' }), batch, undefined, true)).toMatchObject(
      {
        kind: 'limit',
        limits: [{ attr: 'notes', kind: 'items', refused: 120, code: 'too_many' }],
      },
    );
  });

  it('is a failure on validate, or when several values could be meant, or when it calls something missing', () => {
    expect(judgeRefusal(refusal({ attr: 'non_field_errors', code: 'too_many' }), batch).kind).toBe('failure');
    expect(
      judgeRefusal(refusal({ attr: 'non_field_errors', code: 'max_length' }), account, undefined, true),
    ).toMatchObject({
      kind: 'failure',
      reason: /3 values/,
    });
    expect(judgeRefusal(refusal({ attr: 'non_field_errors', code: 'required' }), batch, undefined, true).kind).toBe(
      'failure',
    );
  });
});

describe('judgeRefusal: a body too large (413)', () => {
  const big = { notes: Array.from({ length: 400 }, (_, i) => ({ body: `note ${i} `.repeat(10) })) };

  it('is a body limit past the spec examples and the declared max_body_bytes, halving the longest list', () => {
    const judged = judgeRefusal({ status: 413, body: undefined }, big);
    expect(judged).toMatchObject({ kind: 'limit', limits: [{ attr: '', kind: 'bytes', code: '413' }] });
    if (judged.kind !== 'limit') return;
    expect((shrunkInside(big, judged.limits[0]) as typeof big).notes).toHaveLength(200);
    expect(declarationOf(judged.limits[0], 1000)).toBe('limits: { max_body_bytes: 1000 }');
  });

  it('is a failure for a body the spec examples exceed, or inside the declared max_body_bytes', () => {
    expect(judgeRefusal({ status: 413, body: undefined }, { notes: [] })).toMatchObject({ kind: 'failure' });
    expect(judgeRefusal({ status: 413, body: undefined }, big, { max_body_bytes: 10_000_000 })).toMatchObject({
      kind: 'failure',
      reason: /declared/,
    });
  });
});

describe('inside the limits', () => {
  it('a refused value shrinks towards a typical one, never below the spec examples', () => {
    const once = shrunkInside(account, {
      attr: NOTE,
      kind: 'length',
      refused: 300,
      code: 'max_length',
    }) as typeof account;
    expect(once.ledgers[0].current_statement_transactions[0].display_note).toBe('x'.repeat(150));
    const fee = shrunkInside(account, {
      attr: FEE,
      kind: 'integer',
      refused: 2 ** 31,
      code: 'max_value',
    }) as typeof account;
    // Half the bits: 2^31 becomes 2^15, above what the examples carry for the field.
    expect(floorAt(FEE, 'integer')).toBeLessThan(2 ** 15);
    expect(fee.supply_addresses[0].supply_points[0].agreements[0].estimated_monthly_fee_in_cents).toBe(2 ** 15);
    const huge = shrunkInside({ n: 2 ** 53 }, { attr: 'n', kind: 'integer', refused: 2 ** 53, code: 'max_value' });
    expect((huge as { n: number }).n).toBeLessThan(2 ** 31);
    const notes = shrunkInside(account, {
      attr: 'notes',
      kind: 'items',
      refused: 120,
      code: 'max_items',
    }) as typeof account;
    expect(notes.notes).toHaveLength(60);
    const floor = floorAt('external_account_number', 'length');
    expect(floor).toBeGreaterThan(5);
    const short = shrunkInside(
      { external_account_number: 'y'.repeat(floor + 2) },
      { attr: 'external_account_number', kind: 'length', refused: floor + 2, code: 'c' },
    );
    expect((short as { external_account_number: string }).external_account_number).toHaveLength(floor);
  });

  it('declared limits cut generated values: global and per field', () => {
    const within = withinDeclared(account, {
      max_string_length: 255,
      integer_max: 2 ** 31 - 1,
      fields: { notes: { max_items: 100 } },
    });
    expect(within.ledgers[0].current_statement_transactions[0].display_note).toHaveLength(255);
    expect(withinDeclared(`${'a'.repeat(300)} [cf-x-N1]`, { max_string_length: 255 })).toMatch(
      /^a{215,}.* \[cf-x-N1\]$/,
    );
    expect(within.supply_addresses[0].supply_points[0].agreements[0].estimated_monthly_fee_in_cents).toBe(2 ** 31 - 1);
    expect(within.notes).toHaveLength(100);
    expect(withinDeclared(account, undefined)).toBe(account);
  });

  it('the config line that declares a discovered limit', () => {
    expect(declarationOf({ attr: NOTE, kind: 'length', refused: 300, code: 'max_length' }, 255)).toBe(
      'limits: { fields: { "ledgers.*.current_statement_transactions.*.display_note": { max_length: 255 } } }',
    );
    expect(declarationOf({ attr: 'notes', kind: 'items', refused: 120, code: 'max_items' })).toBe(
      'limits: { fields: { "notes": { max_items: 119 } } }',
    );
  });
});
