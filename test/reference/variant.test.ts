import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_API_KEY,
  defaultSeed,
  faithfulChoices,
  variantChoices,
  variantRunConfig,
} from '../../reference/index.js';
import { FREEDOMS, renderFreedoms } from '../../reference/freedoms.js';
import {
  DEMANDING_ACCOUNT_TYPES,
  DEMANDING_BUSINESS_TYPES,
  VARIANT_PROFILES,
  demandingChoices,
} from '../../reference/profiles.js';
import { embeddedFixtures, embeddedPayloads } from '../../app/embedded.js';
import { runConformance } from '../../app/conformance.js';
import { allRules } from '../../suites/index.js';
import { unique } from '../helpers/http.js';
import {
  PATHS,
  SUPPLIER,
  account,
  importAccount,
  processAccount,
  stage,
  useReferenceServer,
} from '../helpers/reference.js';

describe('the variant reference server makes the other legal choices', () => {
  const h = useReferenceServer({ choices: variantChoices });

  it('answers historical statements with 200, 401 without a body, 404 and 429 with other bodies', async () => {
    const { ext } = await importAccount(
      h.call,
      account(unique('V'), { account_type: 'DOMESTIC', customers: [{ given_name: 'Ana' }] }),
    );
    const statement = { statement_id: 'S', bill_period_from_date: '2024-01-01', bill_period_to_date: '2024-01-31' };
    const res = await h.call('POST', PATHS.statements, {
      body: { import_supplier: SUPPLIER, external_account_number: ext, statements: [statement] },
    });
    expect(res.status).toBe(200);
    const unauthorized = await h.call('GET', PATHS.all(SUPPLIER), { token: null });
    expect([unauthorized.status, unauthorized.text, unauthorized.headers.get('www-authenticate')]).toEqual([
      401,
      '',
      'Token realm="data-import"',
    ]);
    expect((await h.call('GET', PATHS.status(SUPPLIER, 'nope'))).body).toMatchObject({ error: 'Not Found' });
  });

  it('uses other error codes and wording, adds fields, and requires account_type and customers', async () => {
    const res = await h.call('POST', PATHS.validate, {
      body: { import_supplier: SUPPLIER, external_account_number: unique('V'), customers: [{ email: 'x' }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_account');
    expect(res.body.errors.map((e: { attr: string; code: string }) => [e.attr, e.code])).toEqual([
      ['customers.0.email', 'bad_email'],
    ]);
    expect(res.body.request_id).toMatch(/^req-\d+$/);
    const minimal = await h.call('POST', PATHS.validate, {
      body: { import_supplier: SUPPLIER, external_account_number: unique('V') },
    });
    // Validation stops at the first error (§7.1 never says every error is reported).
    expect(minimal.body.errors.map((e: { attr: string; code: string }) => [e.attr, e.code])).toEqual([
      ['account_type', 'missing_field'],
    ]);
  });

  it('ignores undocumented fields, accepts offset datetimes, reads the contract link elsewhere', async () => {
    const payload = account(unique('V'), {
      account_type: 'DOMESTIC',
      customers: [{}],
      colour: 'blue',
      notes: [{ body: 'n', created_at: '2024-01-01T10:00:00.5+01:00' }],
    });
    expect((await h.call('POST', PATHS.validate, { body: payload })).status).toBe(200);
    const linked = { ...payload, contract: { business_contract_identifier: 'NO-SUCH-CONTRACT' } };
    const refused = await h.call('POST', PATHS.validate, { body: linked });
    expect(refused.body.errors[0].attr).toBe('contract.business_contract_identifier');
  });

  it('lists newest first, pages the imported listing, and answers 200 [] for an unknown supplier', async () => {
    const a = account(unique('V'), { account_type: 'DOMESTIC', customers: [{}] });
    const b = account(unique('V'), { account_type: 'DOMESTIC', customers: [{}] });
    await stage(h.call, a);
    await stage(h.call, b);
    const pending = (await h.call('GET', PATHS.pending(SUPPLIER))).body.map(
      (r: { external_account_number: string }) => r.external_account_number,
    );
    expect(pending.indexOf(b.external_account_number)).toBeLessThan(pending.indexOf(a.external_account_number));
    expect(Object.keys((await h.call('GET', PATHS.imported(SUPPLIER))).body)).toEqual(['count', 'next', 'results']);
    expect((await h.call('GET', PATHS.all('NO_SUCH_SUPPLIER'))).body).toEqual([]);
  });

  it('serves the token mutation elsewhere; the runner reaches it when configured so', async () => {
    const report = await runConformance({
      baseUrl: h.server.url,
      auth: { apiKey: DEFAULT_API_KEY, ...variantRunConfig.auth },
      fixtures: await embeddedFixtures(),
      payloads: { ...embeddedPayloads(), agreements: variantRunConfig.agreementsPayload },
      contractPath: variantRunConfig.contractPath,
      selection: { rules: ['auth.token-scheme.accepted', 'business.link.*', 'additions.agreements.created'] },
    });
    expect(report.target.auth).toBe('api_key');
    expect(report.rules.map((r) => [r.id, r.verdict])).toEqual(report.rules.map((r) => [r.id, 'pass']));
    await expect(
      runConformance({
        baseUrl: h.server.url,
        auth: { apiKey: DEFAULT_API_KEY },
        fixtures: await embeddedFixtures(),
        selection: { rules: ['auth.token-scheme.accepted'] },
      }),
    ).rejects.toThrow(/ObtainServiceToken mutation .* answered 404/);
  });
});

describe('docs/freedoms.md', () => {
  it('is generated from reference/freedoms.ts and names only rules that exist', () => {
    expect(
      readFileSync(new URL('../../docs/freedoms.md', import.meta.url), 'utf8'),
      'docs/freedoms.md is stale: run npm run schemas',
    ).toBe(renderFreedoms());
    const ids = new Set(allRules.map((r) => r.id));
    for (const f of FREEDOMS)
      for (const id of [...f.toleratedBy, ...(f.observedBy ?? [])]) expect(ids, `${f.freedom}: ${id}`).toContain(id);
    expect(FREEDOMS.length).toBeGreaterThanOrEqual(35);
  });

  it('names every decision of reference/choices.ts under the freedom it takes', () => {
    const named = new Set(FREEDOMS.flatMap((f) => f.choices ?? []));
    const decisions = new Set([
      ...VARIANT_PROFILES.flatMap((p) => Object.keys(p.choices)),
      ...Object.keys(faithfulChoices),
    ]);
    expect([...decisions].filter((d) => !named.has(d as keyof typeof faithfulChoices))).toEqual([]);
  });
});

describe('the variant takes the freedoms that used to fail rules', () => {
  const h = useReferenceServer({ choices: variantChoices });
  const imported = () => importAccount(h.call, account(unique('V'), { account_type: 'DOMESTIC', customers: [{}] }));

  it('reports errors of every create endpoint under non_field_errors, validate at the field', async () => {
    const { ext } = await imported();
    const notes = await h.call('POST', PATHS.notes, {
      body: { import_supplier: SUPPLIER, external_account_number: ext, notes: [{ is_pinned: true }] },
    });
    expect([notes.status, notes.body.errors.map((e: { attr: string }) => e.attr)]).toEqual([400, ['non_field_errors']]);
    const bad = account(unique('V'), { account_type: 'DOMESTIC', customers: [{ email: 'x' }] });
    expect((await h.call('POST', PATHS.validate, { body: bad })).body.errors[0].attr).toBe('customers.0.email');
    expect((await h.call('POST', PATHS.stage, { body: bad })).body.errors[0].attr).toBe('non_field_errors');
  });

  it("reverses results, puts a skipped transaction's status in transaction_data, refuses an unchecked duplicate, and treats body-less notes alike", async () => {
    const { ext } = await imported();
    const key = { import_supplier: SUPPLIER, external_account_number: ext };
    const tx = (id: string) => ({
      transaction_id: id,
      transaction_date: new Date().toISOString().slice(0, 10),
      amount: '1.00',
      type: 'CHARGE',
      reason: 'IMPORTED_CHARGE',
    });
    const [a, b] = [unique('T'), unique('T')];
    await h.call('POST', PATHS.transactions, { body: { ...key, transactions: [tx(a)] } });
    const res = await h.call('POST', PATHS.transactions, { body: { ...key, transactions: [tx(a), tx(b)] } });
    expect(
      res.body.results.map((r: { status: string; transaction_data: { transaction_id: string; status: string } }) => [
        r.transaction_data.transaction_id,
        r.status,
        r.transaction_data.status,
      ]),
    ).toEqual([
      [b, 'TRANSACTION_ADDED_TO_ACCOUNT', 'TRANSACTION_IMPORT_SUCCESS'],
      [a, 'TRANSACTION_ALREADY_EXISTS', 'TRANSACTION_ALREADY_EXISTS'],
    ]);
    const unchecked = await h.call('POST', `${PATHS.transactions}?check_previously_added=false`, {
      body: { ...key, transactions: [tx(a)] },
    });
    expect([unchecked.status, unchecked.body.status]).toEqual([400, 'TRANSACTION_IMPORT_ERROR']);
    const docs = (p: string) => ({ document_paths: [{ document_path: p }] });
    await h.call('POST', PATHS.notes, { body: { ...key, notes: [docs('a.pdf')] } });
    const again = await h.call('POST', PATHS.notes, { body: { ...key, notes: [docs('b.pdf'), { body: 'text' }] } });
    expect(again.body.map((n: { body: string | null; status: string }) => [n.body, n.status])).toEqual([
      ['text', 'NOTE_CREATION_SUCCESS'],
      [null, 'NOTE_ALREADY_EXISTS'],
    ]);
  });

  it('keeps the transactions before the first invalid one of a refused request (§4.2: the first failing one only)', async () => {
    const { ext } = await imported();
    const key = { import_supplier: SUPPLIER, external_account_number: ext };
    const tx = (id: string, type = 'CHARGE') => ({
      transaction_id: id,
      transaction_date: new Date().toISOString().slice(0, 10),
      amount: '1.00',
      type,
      reason: 'IMPORTED_CHARGE',
    });
    const [a, b, c] = [unique('T'), unique('T'), unique('T')];
    const refused = await h.call('POST', PATHS.transactions, {
      body: { ...key, transactions: [tx(a), tx(b, 'charge'), tx(c)] },
    });
    expect([refused.status, refused.body.status]).toEqual([400, 'TRANSACTION_IMPORT_ERROR']);
    const again = await h.call('POST', PATHS.transactions, { body: { ...key, transactions: [tx(a), tx(c)] } });
    expect(
      again.body.results.map((r: { status: string; transaction_data: { transaction_id: string } }) => [
        r.transaction_data.transaction_id,
        r.status,
      ]),
    ).toEqual([
      [c, 'TRANSACTION_ADDED_TO_ACCOUNT'],
      [a, 'TRANSACTION_ALREADY_EXISTS'],
    ]);
  });
});

describe('the demanding profile', () => {
  const demandingProfile = VARIANT_PROFILES.find((p) => p.id === 'demanding')!;
  const seed = { ...defaultSeed({}), settings: { ...demandingProfile.settings, processing_delay_ms: 200 } };
  const h = useReferenceServer({ choices: demandingChoices, seed });
  const demanding = (extra: Record<string, unknown> = {}) =>
    account(unique('D'), {
      account_type: DEMANDING_ACCOUNT_TYPES[0],
      billing_postcode: '28013',
      customers: [{ account_roles: ['ACCOUNT_HOLDER'] }, { account_roles: ['ACCOUNT_HOLDER'] }],
      ...extra,
    });

  it('requires fields beyond those shown and accepts only its own account_type values', async () => {
    expect((await h.call('POST', PATHS.validate, { body: demanding() })).status).toBe(200);
    const sparse = demanding({ customers: [{ account_roles: ['ACCOUNT_HOLDER'] }, { given_name: 'Ana' }] });
    delete (sparse as Record<string, unknown>).billing_postcode;
    const refused = await h.call('POST', PATHS.validate, { body: sparse });
    expect(refused.body.errors.map((e: { attr: string }) => e.attr)).toEqual([
      'billing_postcode',
      'customers.1.account_roles',
    ]);
    const domestic = await h.call('POST', PATHS.validate, { body: demanding({ account_type: 'DOMESTIC' }) });
    expect(domestic.body.errors.map((e: { attr: string; code: string }) => [e.attr, e.code])).toEqual([
      ['account_type', 'invalid_choice'],
    ]);
  });

  it('accepts only its own business_type values', async () => {
    const business = (type: string) => ({
      import_supplier_code: SUPPLIER,
      external_business_identifier: unique('B'),
      business: { business_type: type, company_name: 'X', company_number: '1' },
    });
    expect((await h.call('POST', PATHS.business, { body: business('LIMITED_COMPANY') })).body.errors[0].attr).toBe(
      'business.business_type',
    );
    expect((await h.call('POST', PATHS.business, { body: business(DEMANDING_BUSINESS_TYPES[0]) })).status).toBe(201);
  });

  it('looks the account up before validating a data request: 404 for an invalid body naming no imported account', async () => {
    const res = await h.call('POST', PATHS.transactions, {
      body: { import_supplier: SUPPLIER, external_account_number: unique('NOPE'), transactions: [{ type: 'GIFT' }] },
    });
    expect(res.status).toBe(404);
    const noKey = await h.call('POST', PATHS.notes, { body: [] });
    expect(noKey.status).toBe(400);
  });

  it('answers 429 with Retry-After: 1 above its limit of 1', async () => {
    const [a, b] = [demanding(), demanding()];
    await stage(h.call, a);
    await stage(h.call, b);
    const [first, second] = await Promise.all([a, b].map((x) => processAccount(h.call, x.external_account_number)));
    expect([first.status, second.status].sort()).toEqual([201, 429]);
    expect([first, second].find((r) => r.status === 429)!.headers.get('retry-after')).toBe('1');
  });
});

describe('variant profiles', () => {
  it('have distinct ids, and take other readings only of SHOULD rules that exist', () => {
    expect(new Set(VARIANT_PROFILES.map((p) => p.id)).size).toBe(VARIANT_PROFILES.length);
    for (const p of VARIANT_PROFILES) {
      for (const id of Object.keys(p.otherReadings))
        expect(allRules.find((r) => r.id === id)?.level, `${p.id}: ${id}`).toBe('SHOULD');
    }
  });
});
