import { describe, expect, it } from 'vitest';
import { model } from '../../core/spec/index.js';
import { startReferenceServer } from '../../reference/index.js';
import { client, unique } from '../helpers/http.js';
import { until } from '../helpers/until.js';
import {
  OTHER_SUPPLIER,
  PATHS,
  SUPPLIER,
  account,
  importAccount,
  processAccount,
  stage,
  useReferenceServer,
} from '../helpers/reference.js';

const h = useReferenceServer();

const listed = async (path: string, ext: string) => {
  const res = await h.call('GET', path);
  expect(res.status).toBe(200);
  return (res.body as { external_account_number: string; service_account_number: string | null }[]).find(
    (r) => r.external_account_number === ext,
  );
};

describe('§3 / §4.1 staging', () => {
  it('answers 201 on first staging and 200 on update, with {import_supplier, external_account_number}', async () => {
    const payload = account();
    const first = await h.call('POST', PATHS.stage, { body: payload });
    const second = await h.call('POST', PATHS.stage, { body: payload });
    expect([first.status, second.status]).toEqual([201, 200]);
    for (const res of [first, second]) {
      expect(model.StageAccountResponse.parse(res.body)).toEqual({
        import_supplier: SUPPLIER,
        external_account_number: payload.external_account_number,
      });
    }
  });

  it('replaces the staged data on update: the created account carries the second payload', async () => {
    const ext = unique('REPLACE');
    await stage(h.call, account(ext, { notes: [{ body: 'first version' }] }));
    await stage(h.call, account(ext, { notes: [{ body: 'second version' }] }));
    expect((await processAccount(h.call, ext)).status).toBe(201);
    const res = await h.call('POST', PATHS.notes, {
      body: {
        import_supplier: SUPPLIER,
        external_account_number: ext,
        notes: [{ body: 'second version' }, { body: 'first version' }],
      },
    });
    expect(res.body.map((n: { status: string }) => n.status)).toEqual(['NOTE_ALREADY_EXISTS', 'NOTE_CREATION_SUCCESS']);
  });

  it('refuses staging for a Paused and for a Complete supplier (§2.2)', async () => {
    for (const supplier of ['SUPPLIER_PAUSED', 'SUPPLIER_COMPLETE']) {
      const res = await h.call('POST', PATHS.stage, { body: { ...account(), import_supplier: supplier } });
      expect(res.status, supplier).toBe(400);
    }
  });

  it('refuses an update once a supplier is paused, and a process too', async () => {
    const server = await startReferenceServer();
    try {
      const call = client(server.url);
      const payload = account();
      await stage(call, payload);
      server.store.suppliers.get(SUPPLIER)!.status = 'Paused';
      expect((await call('POST', PATHS.stage, { body: payload })).status).toBe(400);
      expect((await processAccount(call, payload.external_account_number)).status).toBe(400);
    } finally {
      await server.close();
    }
  });

  it('refuses an account the operator marked to be skipped', async () => {
    const res = await h.call('POST', PATHS.stage, { body: account('EXT-SKIPPED-1') });
    expect(res.status).toBe(400);
    expect((await h.call('GET', PATHS.status(SUPPLIER, 'EXT-SKIPPED-1'))).status).toBe(404);
  });

  it('refuses staging after import (§3 imported row)', async () => {
    const { payload } = await importAccount(h.call);
    expect((await h.call('POST', PATHS.stage, { body: payload })).status).toBe(400);
  });
});

describe('§3 / §4.1 processing', () => {
  it('creates the account: 201 {service_account_number}, then COMPLETED with that number and listed as created', async () => {
    const payload = account();
    const ext = payload.external_account_number;
    await stage(h.call, payload);
    expect(await h.call('GET', PATHS.status(SUPPLIER, ext)).then((r) => r.body)).toEqual({
      status: 'UNKNOWN',
      service_account_number: '',
    });
    expect(await listed(PATHS.pending(SUPPLIER), ext)).toEqual({
      external_account_number: ext,
      service_account_number: null,
      account_created_at: null,
    });
    expect(await listed(PATHS.all(SUPPLIER), ext)).toEqual({
      external_account_number: ext,
      service_account_number: null,
      account_created_at: null,
    });

    const res = await processAccount(h.call, ext);
    expect(res.status).toBe(201);
    const { service_account_number: number } = model.ProcessAccountResponse.parse(res.body);
    expect(await h.call('GET', PATHS.status(SUPPLIER, ext)).then((r) => r.body)).toEqual({
      status: 'COMPLETED',
      service_account_number: number,
    });
    expect(await listed(PATHS.pending(SUPPLIER), ext)).toBeUndefined();
    const record = await listed(PATHS.all(SUPPLIER), ext);
    expect(record?.service_account_number).toBe(number);
    expect(model.AccountImportProcess.parse(record).account_created_at).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/,
    );
    expect(await listed(PATHS.imported(SUPPLIER), ext)).toEqual(record);
  });

  it('refuses a second process with both numbers in the 400 body (rule 3)', async () => {
    const { ext, number } = await importAccount(h.call);
    const res = await processAccount(h.call, ext);
    expect(res.status).toBe(400);
    expect(model.AlreadyImportedBody.parse(res.body)).toMatchObject({
      external_account_number: ext,
      service_account_number: number,
    });
  });

  it('refuses when the team does not exist or nothing is staged, creating nothing (rule 1)', async () => {
    const payload = account();
    const ext = payload.external_account_number;
    expect((await processAccount(h.call, ext)).status).toBe(400);
    expect((await h.call('GET', PATHS.status(SUPPLIER, ext))).status).toBe(404);
    await stage(h.call, payload);
    expect((await processAccount(h.call, ext, { operations_team_name: 'No Such Team' })).status).toBe(400);
    expect((await h.call('GET', PATHS.status(SUPPLIER, ext))).body.status).toBe('UNKNOWN');
    expect(await listed(PATHS.pending(SUPPLIER), ext)).toBeDefined();
  });

  it('a dry run answers 400 and leaves nothing behind; a real process then succeeds (rule 2)', async () => {
    const payload = account();
    const ext = payload.external_account_number;
    await stage(h.call, payload);
    const dry = await processAccount(h.call, ext, { dry_run: true });
    expect(dry.status).toBe(400);
    expect(dry.body.detail).toMatch(/rolled back/);
    expect((await h.call('GET', PATHS.status(SUPPLIER, ext))).body).toEqual({
      status: 'UNKNOWN',
      service_account_number: '',
    });
    expect(await listed(PATHS.pending(SUPPLIER), ext)).toBeDefined();
    expect((await listed(PATHS.all(SUPPLIER), ext))?.service_account_number).toBeNull();
    expect((await processAccount(h.call, ext, { dry_run: false })).status).toBe(201);
  });

  it('a dry run with an unknown team still fails as that, not as the dry-run message', async () => {
    const payload = account();
    await stage(h.call, payload);
    const res = await processAccount(h.call, payload.external_account_number, {
      dry_run: true,
      operations_team_name: 'Nobody',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('operations_team_not_found');
  });

  it('validates the process request itself', async () => {
    const res = await h.call('POST', PATHS.process, { body: { external_account_number: 'X', dry_run: 'yes' } });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { attr: string }) => e.attr)).toEqual([
      'import_supplier_code',
      'operations_team_name',
      'dry_run',
    ]);
  });
});

describe('§3 IN_PROGRESS and the §8 concurrency limit', () => {
  it('reports IN_PROGRESS while processing runs, answers 429 above the limit, and a retry succeeds', async () => {
    const server = await startReferenceServer({ seed: 'default' });
    try {
      // Long enough for the three requests below to be answered while it runs, on a busy machine too.
      server.store.settings.processingDelayMs = 2_000;
      server.store.settings.concurrencyLimit = 1;
      const call = client(server.url);
      const a = account();
      const b = account();
      await stage(call, a);
      await stage(call, b);
      const slow = processAccount(call, a.external_account_number);
      await until(() => server.store.processing === 1); // the server has begun processing it
      expect((await call('GET', PATHS.status(SUPPLIER, a.external_account_number))).body.status).toBe('IN_PROGRESS');
      expect(
        await call('GET', PATHS.pending(SUPPLIER)).then((r) =>
          r.body.map((p: { external_account_number: string }) => p.external_account_number),
        ),
      ).toContain(a.external_account_number);
      const limited = await processAccount(call, b.external_account_number);
      expect(limited.status).toBe(429);
      expect((await slow).status).toBe(201);
      expect((await processAccount(call, b.external_account_number)).status).toBe(201);
    } finally {
      await server.close();
    }
  });
});

describe('§4.3 listings per supplier', () => {
  it("never shows one supplier's accounts in another supplier's listings", async () => {
    const { ext } = await importAccount(h.call);
    const pending = account(unique('OTHER'));
    await stage(h.call, pending);
    for (const path of [PATHS.all(OTHER_SUPPLIER), PATHS.pending(OTHER_SUPPLIER), PATHS.imported(OTHER_SUPPLIER)]) {
      const text = (await h.call('GET', path)).text;
      expect(text).not.toContain(ext);
      expect(text).not.toContain(pending.external_account_number);
    }
    expect((await h.call('GET', PATHS.status(OTHER_SUPPLIER, ext))).status).toBe(404);
  });

  it('pending records always have null number and creation time', async () => {
    await stage(h.call, account());
    const res = await h.call('GET', PATHS.pending(SUPPLIER));
    expect(model.PendingAccountImportProcesses.parse(res.body).length).toBeGreaterThan(0);
  });
});

describe('§2.3 / §4.4 link to a business contract', () => {
  it('accepts an account naming an existing contract and refuses an unknown one', async () => {
    const contract = unique('CONTRACT');
    const business = await h.call('POST', PATHS.business, {
      body: {
        import_supplier_code: SUPPLIER,
        external_business_identifier: unique('BUS'),
        business: {
          business_type: 'LIMITED_COMPANY',
          company_number: 'B1',
          company_name: 'Acme SL',
          business_contracts: [{ identifier: contract }],
        },
      },
    });
    expect(business.status).toBe(201);
    await importAccount(h.call, account(unique('LINKED'), { business: { business_contract_identifier: contract } }));
    const res = await h.call('POST', PATHS.validate, {
      body: account(unique('LINKED'), { business: { business_contract_identifier: 'NO-SUCH-CONTRACT' } }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ attr: 'business.business_contract_identifier' })]);
    const other = await h.call('POST', PATHS.validate, {
      body: { ...account(), import_supplier: OTHER_SUPPLIER, business: { business_contract_identifier: contract } },
    });
    expect(other.status).toBe(400);
  });
});
