import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, variantChoices, variantRunConfig } from '../../reference/index.js';
import { FREEDOMS, renderFreedoms } from '../../reference/freedoms.js';
import { embeddedFixtures, embeddedPayloads } from '../../src/engine/embedded.js';
import { runConformance } from '../../src/conformance.js';
import { allRules } from '../../suites/index.js';
import { unique } from '../helpers/http.js';
import { PATHS, SUPPLIER, account, importAccount, stage, useReferenceServer } from '../helpers/reference.js';

describe('the variant reference server makes the other legal choices', () => {
  const h = useReferenceServer({ choices: variantChoices });

  it('answers historical statements with 200, 401 without a body, 404 and 429 with other bodies', async () => {
    const { ext } = await importAccount(h.call, account(unique('V'), { account_type: 'DOMESTIC', customers: [{ given_name: 'Ana' }] }));
    const statement = { statement_id: 'S', bill_period_from_date: '2024-01-01', bill_period_to_date: '2024-01-31' };
    const res = await h.call('POST', PATHS.statements, { body: { import_supplier: SUPPLIER, external_account_number: ext, statements: [statement] } });
    expect(res.status).toBe(200);
    const unauthorized = await h.call('GET', PATHS.all(SUPPLIER), { token: null });
    expect([unauthorized.status, unauthorized.text, unauthorized.headers.get('www-authenticate')]).toEqual([401, '', 'Token realm="data-import"']);
    expect((await h.call('GET', PATHS.status(SUPPLIER, 'nope'))).body).toMatchObject({ error: 'Not Found' });
  });

  it('uses other error codes and wording, adds fields, and requires account_type and customers', async () => {
    const res = await h.call('POST', PATHS.validate, { body: { import_supplier: SUPPLIER, external_account_number: unique('V'), customers: [{ email: 'x' }] } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_account');
    expect(res.body.errors.map((e: { attr: string; code: string }) => [e.attr, e.code])).toEqual([['customers.0.email', 'bad_email']]);
    expect(res.body.request_id).toMatch(/^req-\d+$/);
    const minimal = await h.call('POST', PATHS.validate, { body: { import_supplier: SUPPLIER, external_account_number: unique('V') } });
    expect(minimal.body.errors.map((e: { attr: string; code: string }) => [e.attr, e.code])).toEqual([['account_type', 'missing_field'], ['customers', 'missing_field']]);
  });

  it('ignores undocumented fields, accepts offset datetimes, reads the contract link elsewhere', async () => {
    const payload = account(unique('V'), { account_type: 'DOMESTIC', customers: [{}], colour: 'blue', notes: [{ body: 'n', created_at: '2024-01-01T10:00:00.5+01:00' }] });
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
    const pending = (await h.call('GET', PATHS.pending(SUPPLIER))).body.map((r: { external_account_number: string }) => r.external_account_number);
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
    await expect(runConformance({ baseUrl: h.server.url, auth: { apiKey: DEFAULT_API_KEY }, fixtures: await embeddedFixtures(), selection: { rules: ['auth.token-scheme.accepted'] } })).rejects.toThrow(/ObtainServiceToken mutation .* answered 404/);
  });
});

describe('docs/freedoms.md', () => {
  it('is generated from reference/freedoms.ts and names only rules that exist', () => {
    expect(readFileSync(new URL('../../docs/freedoms.md', import.meta.url), 'utf8'), 'docs/freedoms.md is stale: run npm run schemas').toBe(renderFreedoms());
    const ids = new Set(allRules.map((r) => r.id));
    for (const f of FREEDOMS) for (const id of [...f.toleratedBy, ...(f.observedBy ?? [])]) expect(ids, `${f.freedom}: ${id}`).toContain(id);
    expect(FREEDOMS.length).toBeGreaterThanOrEqual(35);
  });

});
