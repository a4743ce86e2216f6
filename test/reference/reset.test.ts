import { describe, expect, it } from 'vitest';
import { PATHS, SUPPLIER, importAccount, useReferenceServer } from '../helpers/reference.js';

describe('operator reset', () => {
  const h = useReferenceServer();

  it('forgets everything, then applies the seed document in the body', async () => {
    await importAccount(h.call);
    const res = await h.operator('POST', '/_operator/reset', {
      suppliers: [{ code: SUPPLIER, status: 'Ongoing' }],
      tokens: ['t2'],
    });
    expect(res.status).toBe(200);
    expect((await h.call('GET', PATHS.all(SUPPLIER))).status).toBe(401); // the default token is gone
    const list = await h.call('GET', PATHS.all(SUPPLIER), { token: 't2' });
    expect([list.status, list.body]).toEqual([200, []]);
    expect((await h.operator('GET', '/_operator/state')).body.counts).toMatchObject({
      import_processes: 0,
      accounts: 0,
      businesses: 0,
    });
  });
});
