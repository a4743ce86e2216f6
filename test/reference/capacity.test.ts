/**
 * What the reference server keeps is capped (reference/limits.ts): accounts per supplier, bytes of
 * stored JSON per supplier and in all. Past a cap a write is refused with a §7.1 400
 * `storage_limit_exceeded` and nothing of it is kept; below it everything works as before.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_STORAGE_LIMITS, STORAGE_LIMIT_EXCEEDED } from '../../reference/limits.js';
import { startReferenceServer } from '../../reference/index.js';
import { client, type Exchange } from '../helpers/http.js';
import { OTHER_SUPPLIER, PATHS, SUPPLIER, account, importAccount, useReferenceServer } from '../helpers/reference.js';

const compact = (body: unknown) => Buffer.byteLength(JSON.stringify(body));

/** An account payload of about `size` bytes of stored JSON (one note carries the bulk). */
function sized(ext: string, size: number, supplier = SUPPLIER) {
  return account(ext, { import_supplier: supplier, notes: [{ body: 'n'.repeat(size) }] });
}

function expectStorageRefusal(res: Exchange) {
  expect(res.status, res.text).toBe(400);
  expect(res.body.code).toBe(STORAGE_LIMIT_EXCEEDED);
  expect(res.body.detail).toMatch(/Storage limit reached/);
  expect(res.body.errors).toEqual([
    { attr: 'non_field_errors', code: STORAGE_LIMIT_EXCEEDED, detail: expect.stringMatching(/Storage limit/) },
  ]);
}

describe('accounts per supplier', () => {
  const h = useReferenceServer({ storageLimits: { maxAccountsPerSupplier: 3 } });

  it('stages up to the cap, refuses a new account past it, still restages one it has, and counts per supplier', async () => {
    for (const ext of ['CAP-A1', 'CAP-A2', 'CAP-A3'])
      expect((await h.call('POST', PATHS.stage, { body: account(ext) })).status).toBe(201);
    const refused = await h.call('POST', PATHS.stage, { body: account('CAP-A4') });
    expectStorageRefusal(refused);
    expect(refused.body.detail).toContain(SUPPLIER);
    // Nothing of the refused request was kept.
    expect((await h.call('GET', PATHS.status(SUPPLIER, 'CAP-A4'))).status).toBe(404);
    // Staging an account the supplier already has replaces its data: not a new account.
    expect((await h.call('POST', PATHS.stage, { body: account('CAP-A2', { billing_name: 'again' }) })).status).toBe(
      200,
    );
    expect(
      (await h.call('POST', PATHS.stage, { body: { ...account('CAP-B1'), import_supplier: OTHER_SUPPLIER } })).status,
    ).toBe(201);
    const state = await h.operator('GET', '/_operator/state');
    expect(state.body.storage.by_supplier[SUPPLIER].accounts).toBe(3);
    expect(state.body.storage.by_supplier[OTHER_SUPPLIER].accounts).toBe(1);
    expect(state.body.storage.limits.max_accounts_per_supplier).toBe(3);
  });

  it('forgets the count on an operator reset, keeping the cap', async () => {
    expect(
      (await h.operator('POST', '/_operator/reset', { suppliers: [{ code: SUPPLIER, status: 'Ongoing' }] })).status,
    ).toBe(200);
    await h.operator('POST', '/_operator/tokens', { token: 'reference-token' });
    for (const ext of ['CAP-C1', 'CAP-C2', 'CAP-C3'])
      expect((await h.call('POST', PATHS.stage, { body: account(ext) })).status).toBe(201);
    expectStorageRefusal(await h.call('POST', PATHS.stage, { body: account('CAP-C4') }));
  });
});

describe('bytes per supplier', () => {
  const h = useReferenceServer({ storageLimits: { maxBytesPerSupplier: 10_000 } });

  it('counts the stored JSON size, a restaged payload once, and refuses what would pass the cap', async () => {
    const first = sized('BYTES-1', 4_000);
    expect((await h.call('POST', PATHS.stage, { body: first })).status).toBe(201);
    const bytes = async (supplier = SUPPLIER) =>
      (await h.operator('GET', '/_operator/state')).body.storage.by_supplier[supplier].bytes as number;
    expect(await bytes()).toBe(compact(first));
    // Pretty-printed JSON is counted as stored: compact.
    const again = sized('BYTES-1', 4_100);
    const raw = JSON.stringify(again, null, 8);
    expect((await h.call('POST', PATHS.stage, { raw })).status).toBe(200);
    expect(await bytes()).toBe(compact(again));
    const second = sized('BYTES-2', 4_000);
    expect((await h.call('POST', PATHS.stage, { body: second })).status).toBe(201);
    expect(await bytes()).toBe(compact(again) + compact(second));

    const third = sized('BYTES-3', 4_000);
    const refused = await h.call('POST', PATHS.stage, { body: third });
    expectStorageRefusal(refused);
    expect(refused.body.detail).toContain('10000');
    expect((await h.call('GET', PATHS.status(SUPPLIER, 'BYTES-3'))).status).toBe(404);
    expect(await bytes()).toBe(compact(again) + compact(second));
    // Another supplier has its own allowance.
    expect((await h.call('POST', PATHS.stage, { body: sized('BYTES-O1', 4_000, OTHER_SUPPLIER) })).status).toBe(201);
  });

  it('counts what the other create endpoints keep, and only when they keep it', async () => {
    await h.operator('POST', '/_operator/reset', {
      suppliers: [{ code: SUPPLIER, status: 'Ongoing' }],
      operations_teams: ['Migrations'],
      tokens: ['reference-token'],
    });
    const { ext } = await importAccount(h.call, account('BYTES-N'));
    const state = async () => (await h.operator('GET', '/_operator/state')).body.storage.by_supplier[SUPPLIER].bytes;
    const before = await state();
    const notes = {
      import_supplier: SUPPLIER,
      external_account_number: ext,
      notes: [{ body: 'x'.repeat(3_000), created_at: '2024-01-02T03:04:05Z' }],
    };
    expect((await h.call('POST', PATHS.notes, { body: notes })).status).toBe(201);
    expect(await state()).toBe(before + compact(notes));
    // A refused request (validation) keeps nothing and counts nothing.
    const invalid = { ...notes, notes: [{ body: 'y'.repeat(3_000), created_at: 'not a date' }] };
    expect((await h.call('POST', PATHS.notes, { body: invalid })).status).toBe(400);
    expect(await state()).toBe(before + compact(notes));
    const big = { ...notes, notes: [{ body: 'z'.repeat(9_000), created_at: '2024-01-03T03:04:05Z' }] };
    expectStorageRefusal(await h.call('POST', PATHS.notes, { body: big }));
    expect(await state()).toBe(before + compact(notes));
  });
});

describe('bytes in all', () => {
  const h = useReferenceServer({ storageLimits: { maxBytesTotal: 8_000 } });

  it('refuses any supplier once the server as a whole would keep more', async () => {
    expect((await h.call('POST', PATHS.stage, { body: sized('ALL-1', 5_000) })).status).toBe(201);
    const refused = await h.call('POST', PATHS.stage, { body: sized('ALL-2', 5_000, OTHER_SUPPLIER) });
    expectStorageRefusal(refused);
    expect(refused.body.detail).toMatch(/in all/);
    const state = (await h.operator('GET', '/_operator/state')).body.storage;
    expect(state.bytes_total).toBe(compact(sized('ALL-1', 5_000)));
    expect(state.limits.max_bytes_total).toBe(8_000);
  });
});

describe('defaults', () => {
  it('caps every server by default, and simultaneous requests cannot pass a cap together', async () => {
    const server = await startReferenceServer({ storageLimits: { maxBytesPerSupplier: 50_000 } });
    try {
      const operator = client(server.url, null);
      const state = await operator('GET', '/_operator/state', { headers: { 'x-operator-key': server.operatorKey } });
      expect(state.body.storage.limits).toEqual({
        max_accounts_per_supplier: DEFAULT_STORAGE_LIMITS.maxAccountsPerSupplier,
        max_bytes_per_supplier: 50_000,
        max_bytes_total: DEFAULT_STORAGE_LIMITS.maxBytesTotal,
      });
      // 20 accounts of ~10 kB at once: at most 4 fit under 50 kB, whatever the interleaving.
      const call = client(server.url);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call('POST', PATHS.stage, { body: sized(`SIM-${String(i).padStart(2, '0')}`, 10_000) }),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(4);
      expect(statuses.filter((s) => s === 400)).toHaveLength(16);
      const after = await operator('GET', '/_operator/state', { headers: { 'x-operator-key': server.operatorKey } });
      expect(after.body.storage.by_supplier[SUPPLIER]).toEqual({
        accounts: 4,
        bytes: 4 * compact(sized('SIM-00', 10_000)),
      });
    } finally {
      await server.close();
    }
  });
});
