import { describe, expect, it } from 'vitest';
import { model } from '../../core/spec/index.js';
import { unique } from '../helpers/http.js';
import { PATHS, SUPPLIER, account, importAccount, stage, useReferenceServer } from '../helpers/reference.js';

const h = useReferenceServer();
const key = (ext: string) => ({ import_supplier: SUPPLIER, external_account_number: ext });
const statuses = (res: { body: { status: string }[] }) => res.body.map((n) => n.status);

describe('§4.2 notes', () => {
  it('answers 201 with {created_at, body, status} per note, in order', async () => {
    const { ext } = await importAccount(h.call);
    const res = await h.call('POST', PATHS.notes, {
      body: { ...key(ext), notes: [{ body: 'b', created_at: '2024-01-02T03:04:05Z' }, { body: 'a' }] },
    });
    expect(res.status).toBe(201);
    const notes = model.NotesResponse.parse(res.body);
    expect(notes.map((n) => [n.body, n.status])).toEqual([
      ['b', 'NOTE_CREATION_SUCCESS'],
      ['a', 'NOTE_CREATION_SUCCESS'],
    ]);
    expect(notes[0].created_at).toBe('2024-01-02T03:04:05Z');
  });

  it('dedups on body and created_at (rule 2)', async () => {
    const { ext } = await importAccount(h.call);
    const note = { body: unique('note'), created_at: '2024-01-02T03:04:05Z' };
    const post = (notes: unknown[]) => h.call('POST', PATHS.notes, { body: { ...key(ext), notes } });
    expect(statuses(await post([note]))).toEqual(['NOTE_CREATION_SUCCESS']);
    expect(statuses(await post([note]))).toEqual(['NOTE_ALREADY_EXISTS']);
    expect(statuses(await post([{ ...note, created_at: '2024-01-02T03:04:06Z' }]))).toEqual(['NOTE_CREATION_SUCCESS']);
    expect(statuses(await post([{ body: note.body }]))).toEqual(['NOTE_ALREADY_EXISTS']);
    expect(statuses(await post([{ body: `${note.body} ` }]))).toEqual(['NOTE_CREATION_SUCCESS']);
  });

  it('dedups inside one request as well', async () => {
    const { ext } = await importAccount(h.call);
    const res = await h.call('POST', PATHS.notes, {
      body: { ...key(ext), notes: [{ body: 'same' }, { body: 'same' }] },
    });
    expect(statuses(res)).toEqual(['NOTE_CREATION_SUCCESS', 'NOTE_ALREADY_EXISTS']);
  });

  it('defaults created_at to the current time (rule 3)', async () => {
    const { ext } = await importAccount(h.call);
    const before = Date.now();
    const res = await h.call('POST', PATHS.notes, { body: { ...key(ext), notes: [{ body: unique('now') }] } });
    const created = Date.parse(res.body[0].created_at);
    expect(created).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(created).toBeLessThanOrEqual(Date.now());
  });

  it('notes imported with the account count as existing notes', async () => {
    const { ext } = await importAccount(
      h.call,
      account(unique('N'), { notes: [{ body: 'from migration', created_at: '2023-01-01T00:00:00Z' }] }),
    );
    const res = await h.call('POST', PATHS.notes, { body: { ...key(ext), notes: [{ body: 'from migration' }] } });
    expect(statuses(res)).toEqual(['NOTE_ALREADY_EXISTS']);
  });

  it('refuses a note with neither body nor document_paths (rule 4) and accepts document-only notes', async () => {
    const { ext } = await importAccount(h.call);
    const bad = await h.call('POST', PATHS.notes, {
      body: { ...key(ext), notes: [{ body: 'x' }, { created_at: '2024-01-01T00:00:00Z' }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ attr: 'notes.1' })]);
    const docs = await h.call('POST', PATHS.notes, {
      body: {
        ...key(ext),
        notes: [{ document_paths: [{ document_path: '/a.pdf' }] }, { document_paths: [{ document_path: '/b.pdf' }] }],
      },
    });
    expect(statuses(docs)).toEqual(['NOTE_CREATION_SUCCESS', 'NOTE_CREATION_SUCCESS']);
  });

  it('answers 404 for a staged-only account and for a wrong supplier or number (rules 1 and 5)', async () => {
    const staged = account();
    await stage(h.call, staged);
    const { ext } = await importAccount(h.call);
    for (const body of [
      { ...key(staged.external_account_number), notes: [{ body: 'x' }] },
      { ...key(ext), import_supplier: 'SUPPLIER_OTHER', notes: [{ body: 'x' }] },
      { ...key(`${ext}-nope`), notes: [{ body: 'x' }] },
    ]) {
      expect((await h.call('POST', PATHS.notes, { body })).status).toBe(404);
    }
  });
});

const tx = (id: string, date = '2024-06-10', extra: Record<string, unknown> = {}) => ({
  transaction_id: id,
  transaction_date: date,
  amount: '10.00',
  type: 'CHARGE',
  ...extra,
});

describe('§4.2 transactions', () => {
  it('adds every transaction type: 201 {results: [{status, transaction_data}]}', async () => {
    const { ext } = await importAccount(h.call);
    const types = ['CHARGE', 'CREDIT', 'PAYMENT', 'REPAYMENT', 'SUPPLY_CHARGE'];
    const res = await h.call('POST', PATHS.transactions, {
      body: { ...key(ext), transactions: types.map((type, i) => tx(`T${i}`, '2024-06-10', { type })) },
    });
    expect(res.status).toBe(201);
    const parsed = model.TransactionsResponse.parse(res.body);
    expect(parsed.results.map((r) => r.status)).toEqual(types.map(() => 'TRANSACTION_ADDED_TO_ACCOUNT'));
    expect(parsed.results.map((r) => r.transaction_data.status)).toEqual(types.map(() => 'TRANSACTION_IMPORT_SUCCESS'));
  });

  it('skips transactions added earlier, unless check_previously_added=false', async () => {
    const { ext } = await importAccount(h.call);
    const body = { ...key(ext), transactions: [tx('A'), tx('B')] };
    await h.call('POST', PATHS.transactions, { body: { ...key(ext), transactions: [tx('A')] } });
    const again = await h.call('POST', PATHS.transactions, { body });
    expect(again.body.results.map((r: { status: string }) => r.status)).toEqual([
      'TRANSACTION_ALREADY_EXISTS',
      'TRANSACTION_ADDED_TO_ACCOUNT',
    ]);
    const forced = await h.call('POST', PATHS.transactions, { body, query: { check_previously_added: 'false' } });
    expect(forced.body.results.map((r: { status: string }) => r.status)).toEqual([
      'TRANSACTION_ADDED_TO_ACCOUNT',
      'TRANSACTION_ADDED_TO_ACCOUNT',
    ]);
    const checked = await h.call('POST', PATHS.transactions, { body, query: { check_previously_added: 'true' } });
    expect(checked.body.results.map((r: { status: string }) => r.status)).toEqual([
      'TRANSACTION_ALREADY_EXISTS',
      'TRANSACTION_ALREADY_EXISTS',
    ]);
  });

  it('transactions imported with the account count as added', async () => {
    const { ext } = await importAccount(
      h.call,
      account(unique('TX'), { ledgers: [{ ledger_code: 'L', current_statement_transactions: [tx('MIGRATED')] }] }),
    );
    const res = await h.call('POST', PATHS.transactions, { body: { ...key(ext), transactions: [tx('MIGRATED')] } });
    expect(res.body.results[0].status).toBe('TRANSACTION_ALREADY_EXISTS');
  });

  it('without forcing, refuses with TRANSACTION_IMPORT_ERROR for the first failing transaction only, adding nothing', async () => {
    const { ext } = await importAccount(h.call);
    const body = { ...key(ext), transactions: [tx('IN'), tx('OUT-1', '2020-01-01'), tx('OUT-2', '2019-01-01')] };
    const res = await h.call('POST', PATHS.transactions, { body, query: { force_add_to_current_statement: 'false' } });
    expect(res.status).toBe(400);
    const parsed = model.TransactionImportErrorBody.parse(res.body);
    expect(parsed.transaction_data).toMatchObject({ transaction_id: 'OUT-1' });
    expect(res.text).not.toContain('OUT-2');
    const after = await h.call('POST', PATHS.transactions, { body: { ...key(ext), transactions: [tx('IN')] } });
    expect(after.body.results[0].status).toBe('TRANSACTION_ADDED_TO_ACCOUNT');
  });

  it('by default moves an out-of-period transaction into the open period, describes it and pins a note', async () => {
    const { ext } = await importAccount(h.call);
    const res = await h.call('POST', PATHS.transactions, {
      body: { ...key(ext), transactions: [tx('OLD', '2020-01-01')] },
    });
    expect(res.status).toBe(201);
    const data = res.body.results[0].transaction_data;
    expect(data.transaction_date).toBe('2024-06-01');
    expect(data.description).toMatch(/2020-01-01/);
    const account = h.server.store.importedAccount(SUPPLIER, ext)!;
    expect(account.notes.filter((n) => n.isPinned).map((n) => n.body)).toEqual([expect.stringContaining('OLD')]);
  });

  it('refuses invalid flags and invalid transactions with 400', async () => {
    const { ext } = await importAccount(h.call);
    const flag = await h.call('POST', PATHS.transactions, {
      body: { ...key(ext), transactions: [tx('X')] },
      query: { check_previously_added: 'maybe' },
    });
    expect(flag.status).toBe(400);
    expect(flag.body.errors[0].attr).toBe('check_previously_added');
    for (const bad of [{ type: 'GIFT' }, { amount: 'lots' }, { transaction_date: '2024-13-01' }]) {
      const res = await h.call('POST', PATHS.transactions, {
        body: { ...key(ext), transactions: [tx('Y'), tx('Z', '2024-06-10', bad)] },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].attr).toMatch(/^transactions\.1\./);
    }
    expect(
      (await h.call('POST', PATHS.transactions, { body: { ...key(`${ext}-x`), transactions: [tx('Q')] } })).status,
    ).toBe(404);
  });
});

describe('§4.2 / §8 historical billing documents', () => {
  const doc = (type: string, extra: Record<string, unknown> = {}) => ({
    billing_document_identifier: unique('DOC'),
    billing_document_type: type,
    issued_date: '2024-02-05',
    ...(type === 'PERIOD_BASED' ? { bill_period_from_date: '2024-01-01', bill_period_to_date: '2024-01-31' } : {}),
    ...extra,
  });
  const request = (ext: string, ledger: string, type: string, docs: Record<string, unknown>[] = [doc(type)]) => ({
    ...key(ext),
    ledger_code: ledger,
    ledger_number: '1',
    billing_document_type: type,
    historical_billing_documents: docs,
    additional_historical_transactions: [],
  });

  it.each(['PERIOD_BASED', 'ITEM_BASED'])(
    'accepts %s documents once per ledger (201, empty body), then refuses either type',
    async (type) => {
      const { ext } = await importAccount(h.call);
      const first = await h.call('POST', PATHS.billingDocuments, { body: request(ext, `${ext}-L1`, type) });
      expect(first.status, first.text).toBe(201);
      expect(first.text).toBe('');
      for (const again of ['PERIOD_BASED', 'ITEM_BASED']) {
        expect((await h.call('POST', PATHS.billingDocuments, { body: request(ext, `${ext}-L1`, again) })).status).toBe(
          400,
        );
      }
    },
  );

  it('refuses an unknown ledger, an invalid type and a period-based document without its period', async () => {
    const { ext } = await importAccount(h.call);
    expect(
      (await h.call('POST', PATHS.billingDocuments, { body: request(ext, 'NO-LEDGER', 'ITEM_BASED') })).status,
    ).toBe(400);
    const badType = await h.call('POST', PATHS.billingDocuments, { body: request(ext, `${ext}-L1`, 'MONTHLY') });
    expect(badType.status).toBe(400);
    expect(badType.body.errors[0].attr).toBe('billing_document_type');
    const noPeriod = await h.call('POST', PATHS.billingDocuments, {
      body: request(ext, `${ext}-L1`, 'PERIOD_BASED', [
        { billing_document_identifier: 'D', billing_document_type: 'PERIOD_BASED' },
      ]),
    });
    expect(noPeriod.body.errors.map((e: { attr: string }) => e.attr)).toEqual([
      'historical_billing_documents.0.bill_period_from_date',
      'historical_billing_documents.0.bill_period_to_date',
    ]);
    // none of the refusals used up the ledger
    expect(
      (await h.call('POST', PATHS.billingDocuments, { body: request(ext, `${ext}-L1`, 'ITEM_BASED') })).status,
    ).toBe(201);
  });
});

describe('§4.2 historical statements', () => {
  it('answers 201 with the validated data and refuses invalid statements', async () => {
    const { ext } = await importAccount(h.call);
    const body = {
      ...key(ext),
      statements: [
        {
          statement_id: 'S1',
          bill_period_from_date: '2023-01-01',
          bill_period_to_date: '2023-01-31',
          issued_date: '2023-02-02',
          number: '0001',
          gross_amount: 45.1,
        },
      ],
    };
    const res = await h.call('POST', PATHS.statements, { body });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(body);
    const bad = await h.call('POST', PATHS.statements, {
      body: { ...key(ext), statements: [{ ...body.statements[0], gross_amount: '45' }] },
    });
    expect(bad.body.errors[0].attr).toBe('statements.0.gross_amount');
  });
});

describe('§2.7 / §4.2 account payment instructions', () => {
  const pi = (ext: string, reference: string, type = 'CARD') => ({ ...key(ext), vendor: 'STRIPE', reference, type });

  it('201 {service_account_number, reference} when the vendor knows the instruction', async () => {
    const { ext, number } = await importAccount(h.call);
    const res = await h.call('POST', PATHS.paymentInstruction, { body: pi(ext, 'REF-OK-1') });
    expect(res.status).toBe(201);
    expect(model.PaymentInstructionResponse.parse(res.body)).toMatchObject({
      service_account_number: number,
      reference: 'REF-OK-1',
    });
  });

  it('400 on persistent vendor trouble, 500 on intermittent trouble, 400 for unknown references and types', async () => {
    const { ext } = await importAccount(h.call);
    expect((await h.call('POST', PATHS.paymentInstruction, { body: pi(ext, 'REF-FAIL') })).status).toBe(400);
    expect((await h.call('POST', PATHS.paymentInstruction, { body: pi(ext, 'REF-FLAKY') })).status).toBe(500);
    expect((await h.call('POST', PATHS.paymentInstruction, { body: pi(ext, 'REF-NOPE') })).body.errors[0].attr).toBe(
      'reference',
    );
    expect(
      (await h.call('POST', PATHS.paymentInstruction, { body: pi(ext, 'REF-OK-1', 'DIRECT_DEBIT') })).body.errors[0]
        .attr,
    ).toBe('type');
    expect((await h.call('POST', PATHS.paymentInstruction, { body: pi(`${ext}-x`, 'REF-OK-1') })).status).toBe(404);
  });
});

describe('§4.2 agreements and supply points (reference payload shape)', () => {
  it('adds agreements to an existing supply point and supply points to the account', async () => {
    const cups = unique('ES0021');
    const { ext } = await importAccount(
      h.call,
      account(unique('ADD'), {
        supply_addresses: [{ supply_address: {}, supply_points: [{ identifier: cups, supply_type: 'ELECTRICITY' }] }],
      }),
    );
    const agreement = { tariff_code: '2.0TD', effective_from: '2024-01-01' };
    const ok = await h.call('POST', PATHS.agreements, {
      body: { ...key(ext), supply_point_identifier: cups, agreements: [agreement] },
    });
    expect([ok.status, ok.text]).toEqual([201, '']);
    const unknown = await h.call('POST', PATHS.agreements, {
      body: { ...key(ext), supply_point_identifier: 'NOPE', agreements: [agreement] },
    });
    expect(unknown.body.errors[0].attr).toBe('non_field_errors');
    const newPoint = { identifier: unique('ES0031'), supply_type: 'GAS' };
    expect(
      (await h.call('POST', PATHS.supplyPoints, { body: { ...key(ext), supply_points: [newPoint] } })).status,
    ).toBe(201);
    expect(
      (await h.call('POST', PATHS.supplyPoints, { body: { ...key(ext), supply_points: [newPoint] } })).status,
    ).toBe(400);
    expect(
      (
        await h.call('POST', PATHS.agreements, {
          body: { ...key(ext), supply_point_identifier: newPoint.identifier, agreements: [agreement] },
        })
      ).status,
    ).toBe(201);
  });
});

describe('§2.8 / §4.4 business', () => {
  const business = (ext = unique('BUS'), name = 'Acme SL', contracts: string[] = []) => ({
    import_supplier_code: SUPPLIER,
    external_business_identifier: ext,
    business: {
      business_type: 'LIMITED_COMPANY',
      company_number: 'B12345678',
      company_name: name,
      details: [{ key: 'sector', value: 'retail' }],
      business_contracts: contracts.map((identifier) => ({
        identifier,
        valid_from_date: '2024-01-01',
        signed_at_date: '2023-12-01',
        versions: [{ applicable_at_date: '2024-01-01', terms: [] }],
      })),
    },
  });

  it('creates a business with all its contracts: 201 {integer service_business_id, external_business_identifier}', async () => {
    const body = business(undefined, 'Acme SL', [unique('C'), unique('C')]);
    const res = await h.call('POST', PATHS.business, { body });
    expect(res.status).toBe(201);
    expect(model.BusinessResponse.parse(res.body).external_business_identifier).toBe(body.external_business_identifier);
  });

  it('does not create a second business with the same external identifier and key attributes', async () => {
    const body = business();
    const first = await h.call('POST', PATHS.business, { body });
    const again = await h.call('POST', PATHS.business, { body });
    expect(again.status).toBe(400);
    expect(again.body.service_business_id).toBe(first.body.service_business_id);
    const renamed = await h.call('POST', PATHS.business, {
      body: { ...body, business: { ...body.business, company_name: 'Acme Dos SL' } },
    });
    expect(renamed.status).toBe(201);
    expect(renamed.body.service_business_id).not.toBe(first.body.service_business_id);
  });

  it('refuses a contract identifier that is already taken and invalid payloads', async () => {
    const contract = unique('C');
    expect((await h.call('POST', PATHS.business, { body: business(undefined, 'A', [contract]) })).status).toBe(201);
    const clash = await h.call('POST', PATHS.business, { body: business(undefined, 'B', [contract]) });
    expect(clash.body.errors[0].attr).toBe('business.business_contracts.0.identifier');
    const invalid = await h.call('POST', PATHS.business, {
      body: {
        ...business(),
        business: { ...business().business, business_contracts: [{ identifier: 'X', valid_from_date: '01/01/2024' }] },
      },
    });
    expect(invalid.body.errors[0].attr).toBe('business.business_contracts.0.valid_from_date');
  });

  it("adds a business payment instruction with the vendor's 400/500 meanings", async () => {
    const body = business();
    await h.call('POST', PATHS.business, { body });
    const { ext } = await importAccount(h.call);
    const bpi = (reference: string, accounts = [{ external_account_number: ext }]) => ({
      import_supplier_code: SUPPLIER,
      external_business_identifier: body.external_business_identifier,
      vendor: 'STRIPE',
      reference,
      type: 'CARD',
      accounts,
    });
    const ok = await h.call('POST', PATHS.businessPaymentInstruction, { body: bpi('REF-OK-2') });
    expect(ok.status).toBe(201);
    expect(model.BusinessPaymentInstructionResponse.parse(ok.body)).toMatchObject({
      reference: 'REF-OK-2',
      external_business_identifier: body.external_business_identifier,
    });
    expect((await h.call('POST', PATHS.businessPaymentInstruction, { body: bpi('REF-FAIL') })).status).toBe(400);
    expect((await h.call('POST', PATHS.businessPaymentInstruction, { body: bpi('REF-FLAKY') })).status).toBe(500);
    expect(
      (
        await h.call('POST', PATHS.businessPaymentInstruction, {
          body: bpi('REF-OK-2', [{ external_account_number: 'NOPE' }]),
        })
      ).body.errors[0].attr,
    ).toBe('accounts.0.external_account_number');
    expect(
      (
        await h.call('POST', PATHS.businessPaymentInstruction, {
          body: { ...bpi('REF-OK-2'), external_business_identifier: 'NOPE' },
        })
      ).status,
    ).toBe(404);
  });
});
