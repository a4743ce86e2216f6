import { describe, expect, it } from 'vitest';
import { model } from '../../core/spec/index.js';
import { unique } from '../helpers/http.js';
import { PATHS, SUPPLIER, account, importAccount, useReferenceServer } from '../helpers/reference.js';

const h = useReferenceServer();

/** Sends a payload to validate and to stage; both must refuse it with the same attrs. */
async function refusedAttrs(payload: Record<string, unknown>) {
  const validate = await h.call('POST', PATHS.validate, { body: payload });
  const stage = await h.call('POST', PATHS.stage, { body: payload });
  expect(validate.status, validate.text).toBe(400);
  expect(stage.status, stage.text).toBe(400);
  const body = model.ValidationErrorBody.parse(validate.body);
  expect(body.code).toBe('account_failed_validation');
  const attrs = body.errors.map((e) => e.attr);
  expect(stage.body.errors.map((e: { attr: string }) => e.attr)).toEqual(attrs);
  return { attrs, errors: body.errors };
}

const point = (extra: Record<string, unknown> = {}) => ({
  identifier: unique('ES00210000'),
  supply_type: 'ELECTRICITY',
  ...extra,
});

describe('§7.1 validation error body and attr paths', () => {
  it('reports zero-based, dot-delimited paths at any depth and index', async () => {
    const payload = account(unique('V'), {
      customers: [{ email: 'ok@example.es' }, { email: 'not-an-email', landline: 'call me' }],
      supply_addresses: [
        { supply_address: { postal_code: '28013' }, supply_points: [point(), point({ supply_type: 'WATER' })] },
      ],
    });
    const { attrs, errors } = await refusedAttrs(payload);
    expect(attrs).toEqual([
      'customers.1.email',
      'customers.1.landline',
      'supply_addresses.0.supply_points.1.supply_type',
    ]);
    expect(errors.map((e) => e.code)).toEqual(['invalid_email', 'invalid_phone_number', 'invalid_choice']);
    for (const e of errors) expect(e.detail.length).toBeGreaterThan(0);
  });

  it.each([
    ['impossible day', '2023-02-30'],
    ['no zero padding', '2023-2-3'],
    ['datetime instead of date', '2023-02-03T00:00:00Z'],
    ['not a date', 'yesterday'],
  ])('refuses a malformed date (%s) with invalid_date at its path', async (_what, value) => {
    const payload = account(unique('V'), {
      supply_addresses: [{ supply_address: {}, customer_at_supply_address_from_date: value }],
    });
    const { errors } = await refusedAttrs(payload);
    expect(errors).toEqual([
      expect.objectContaining({
        attr: 'supply_addresses.0.customer_at_supply_address_from_date',
        code: 'invalid_date',
      }),
    ]);
  });

  it.each([
    ['missing Z', '2024-01-01T10:00:00'],
    ['impossible day', '2023-02-30T10:00:00Z'],
    ['fractional seconds', '2024-01-01T10:00:00.5Z'],
    ['offset', '2024-01-01T10:00:00+01:00'],
    ['date only', '2024-01-01'],
  ])('refuses a malformed datetime (%s) with invalid_datetime', async (_what, value) => {
    const payload = account(unique('V'), { notes: [{ body: 'x' }, { body: 'y', created_at: value }] });
    const { errors } = await refusedAttrs(payload);
    expect(errors).toEqual([expect.objectContaining({ attr: 'notes.1.created_at', code: 'invalid_datetime' })]);
  });

  it('refuses the wrong JSON type for an array and for an object', async () => {
    const { errors } = await refusedAttrs(
      account(unique('V'), {
        customers: { given_name: 'Ana' },
        supply_addresses: [{ supply_address: 'Calle Mayor 1' }],
      }),
    );
    expect(errors).toEqual([
      expect.objectContaining({ attr: 'customers', code: 'not_a_list' }),
      expect.objectContaining({ attr: 'supply_addresses.0.supply_address', code: 'invalid_type' }),
    ]);
  });

  it('refuses a provided optional object that lacks its required fields', async () => {
    const payload = account(unique('V'), {
      supply_addresses: [{ supply_address: {}, supply_points: [point(), { supply_type: 'GAS' }] }],
    });
    const { errors } = await refusedAttrs(payload);
    expect(errors).toEqual([
      expect.objectContaining({ attr: 'supply_addresses.0.supply_points.1.identifier', code: 'required' }),
    ]);
  });

  it("refuses a note with neither body nor document_paths, at the note's path", async () => {
    const { errors } = await refusedAttrs(account(unique('V'), { notes: [{ body: 'fine' }, { is_pinned: true }] }));
    expect(errors).toEqual([expect.objectContaining({ attr: 'notes.1', code: 'note_without_content' })]);
  });

  it('refuses an undocumented field (§2.1 only documented fields may be sent)', async () => {
    const { errors } = await refusedAttrs(
      account(unique('V'), { customers: [{ given_name: 'Ana', nickname: 'Anita' }], colour: 'blue' }),
    );
    expect(errors).toEqual([
      expect.objectContaining({ attr: 'customers.0.nickname', code: 'unknown_field' }),
      expect.objectContaining({ attr: 'colour', code: 'unknown_field' }),
    ]);
  });

  it('refuses a missing account key, a non-object body and an unknown supplier', async () => {
    expect((await refusedAttrs({ import_supplier: SUPPLIER })).attrs).toEqual(['external_account_number']);
    expect(
      (await refusedAttrs({ import_supplier: 'NO_SUCH_SUPPLIER', external_account_number: unique('V') })).errors,
    ).toEqual([expect.objectContaining({ attr: 'import_supplier', code: 'does_not_exist' })]);
    for (const body of [[], 'text', 42, null]) {
      const res = await h.call('POST', PATHS.validate, { body });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].attr).toBe('non_field_errors');
    }
  });

  it('refuses a range that ends before it starts (a reading the reference makes)', async () => {
    const payload = account(unique('V'), {
      supply_addresses: [
        {
          supply_address: {},
          supply_points: [
            point({ agreements: [{ tariff_code: '2.0TD', effective_from: '2024-02-01', effective_to: '2024-01-01' }] }),
          ],
        },
      ],
    });
    const { errors } = await refusedAttrs(payload);
    expect(errors).toEqual([
      expect.objectContaining({
        attr: 'supply_addresses.0.supply_points.0.agreements.0.effective_to',
        code: 'invalid_date_range',
      }),
    ]);
  });
});

describe('§2.1 conventions that must be accepted', () => {
  it('accepts optional fields omitted and a document path with a leading slash', async () => {
    const payload = account(unique('V'), {
      notes: [
        { body: 'only a body' },
        { document_paths: [{ document_path: '/letters/welcome.pdf' }] },
        { document_paths: [{ document_path: 'letters/x.pdf' }], body: 'both' },
      ],
      statements: [
        {
          statement_id: 'S1',
          bill_period_from_date: '2024-01-01',
          bill_period_to_date: '2024-01-31',
          statement_path: '/statements/s1.pdf',
        },
      ],
    });
    const res = await h.call('POST', PATHS.validate, { body: payload });
    expect(res.status, res.text).toBe(200);
  });

  it('accepts amounts as numbers and as decimal strings (§2.4)', async () => {
    const tx = (id: string, amount: unknown) => ({
      transaction_id: id,
      transaction_date: '2024-06-01',
      amount,
      type: 'CHARGE',
    });
    const payload = account(unique('V'), {
      ledgers: [{ ledger_code: 'L', current_statement_transactions: [tx('a', 12.5), tx('b', '12.50'), tx('c', '-3')] }],
    });
    expect((await h.call('POST', PATHS.validate, { body: payload })).status).toBe(200);
    const bad = account(unique('V'), {
      ledgers: [{ ledger_code: 'L', current_statement_transactions: [tx('a', 'twelve'), tx('b', true)] }],
    });
    const { attrs } = await refusedAttrs(bad);
    expect(attrs).toEqual([
      'ledgers.0.current_statement_transactions.0.amount',
      'ledgers.0.current_statement_transactions.1.amount',
    ]);
  });
});

describe('§4.1 validate', () => {
  it('answers 200 with the validated data and stages nothing', async () => {
    const payload = account(unique('V'), {
      billing_name: 'Ana García',
      customers: [{ given_name: 'Ana', email: 'ana@example.es' }],
    });
    const res = await h.call('POST', PATHS.validate, { body: payload });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(payload);
    const ext = payload.external_account_number;
    expect((await h.call('GET', PATHS.status(SUPPLIER, ext))).status).toBe(404);
    for (const list of [PATHS.all(SUPPLIER), PATHS.pending(SUPPLIER), PATHS.imported(SUPPLIER)]) {
      expect((await h.call('GET', list)).text).not.toContain(ext);
    }
  });
});

describe('§7.1 non_field_errors on agreements and supply points', () => {
  it('reports every validation error of these endpoints under non_field_errors', async () => {
    const { ext } = await importAccount(h.call);
    for (const [path, body] of [
      [
        PATHS.agreements,
        {
          import_supplier: SUPPLIER,
          external_account_number: ext,
          supply_point_identifier: 'X',
          agreements: [{ effective_from: 'soon' }],
        },
      ],
      [
        PATHS.supplyPoints,
        { import_supplier: SUPPLIER, external_account_number: ext, supply_points: [{ supply_type: 'STEAM' }] },
      ],
      [PATHS.agreements, { import_supplier: SUPPLIER, external_account_number: ext }],
      [PATHS.supplyPoints, []],
    ] as const) {
      const res = await h.call('POST', path, { body });
      expect(res.status, res.text).toBe(400);
      const parsed = model.ValidationErrorBody.parse(res.body);
      expect(parsed.errors.length).toBeGreaterThan(0);
      for (const e of parsed.errors) expect(e.attr).toBe('non_field_errors');
    }
  });
});
