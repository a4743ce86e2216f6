import { describe, expect, it } from 'vitest';
import { endpointPath, model } from '../../core/spec/index.js';
import { startReferenceServer } from '../../reference/index.js';
import { client } from '../helpers/http.js';
import { PATHS, SUPPLIER, account, importAccount, useReferenceServer } from '../helpers/reference.js';

const endpoints = Object.values(model.endpoints);
const pathOf = (e: (typeof endpoints)[number]) =>
  endpointPath(e, { import_supplier_code: SUPPLIER, external_account_number: 'EXT-X' });

const MUTATION =
  'mutation ObtainServiceToken($key: String!) { obtainServiceToken(input: {APIKey: $key}) { token payload { exp } } }';

describe('§5 authentication on every data-import endpoint', () => {
  const h = useReferenceServer();

  it.each(endpoints.map((e) => [e.id, e] as const))(
    '%s answers 401 without a token, with an invalid one and with a malformed header',
    async (_id, e) => {
      const path = pathOf(e);
      const body = e.method === 'POST' ? {} : undefined;
      for (const token of [null, 'not-a-valid-token']) {
        const res = await h.call(e.method, path, { body, token });
        expect(res.status, `${e.method} ${path} token=${token}`).toBe(401);
      }
      for (const authorization of [
        'Token',
        'reference-token',
        'Bearer reference-token',
        'Token  ',
        'Token reference-token extra',
      ]) {
        const res = await h.call(e.method, path, { body, token: null, headers: { authorization } });
        expect(res.status, `Authorization: ${authorization}`).toBe(401);
      }
    },
  );

  it('a 401 carries no data of the interface', async () => {
    await importAccount(h.call, account('AUTH-EXT-1'));
    const res = await h.call('GET', PATHS.all(SUPPLIER), { token: null });
    expect(res.status).toBe(401);
    expect(res.text).not.toContain('AUTH-EXT-1');
  });

  it('accepts the documented "Token <ACCESS_TOKEN>" form, the scheme word in any case', async () => {
    for (const scheme of ['Token', 'token', 'TOKEN']) {
      const res = await h.call('GET', PATHS.all(SUPPLIER), {
        token: null,
        headers: { authorization: `${scheme} reference-token` },
      });
      expect(res.status).toBe(200);
    }
  });

  it('issues a working token through the ObtainServiceToken mutation for a valid API key', async () => {
    const res = await h.call('POST', '/v1/graphql/', {
      token: null,
      body: { query: MUTATION, variables: { key: 'reference-api-key' }, operationName: 'ObtainServiceToken' },
    });
    expect(res.status).toBe(200);
    const token = res.body.data.obtainServiceToken.token as string;
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    expect(res.body.data.obtainServiceToken.payload.exp).toBeNull();
    expect((await h.call('GET', PATHS.all(SUPPLIER), { token })).status).toBe(200);
  });

  it('refuses an invalid API key with a GraphQL error and no token', async () => {
    const res = await h.call('POST', '/v1/graphql/', {
      token: null,
      body: { query: MUTATION, variables: { key: 'wrong' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].message).toMatch(/API key/);
  });

  it('answers malformed GraphQL requests with errors, never a token', async () => {
    for (const body of [
      {},
      { query: 42 },
      { query: 'mutation {', variables: {} },
      { query: MUTATION, variables: 'x' },
      { query: MUTATION },
    ]) {
      const res = await h.call('POST', '/v1/graphql/', { token: null, body });
      expect([200, 400]).toContain(res.status);
      expect(res.body.errors?.length).toBeGreaterThan(0);
      expect(res.text).not.toMatch(/"token":"[0-9a-f]{40}"/);
    }
  });

  it('the operator API needs the operator key, and a data-import token does not open it', async () => {
    expect((await h.call('GET', '/_operator/state')).status).toBe(401);
    expect((await h.call('GET', '/_operator/state', { headers: { 'x-operator-key': 'wrong' } })).status).toBe(401);
    expect((await h.operator('GET', '/_operator/state')).status).toBe(200);
  });

  it('the operator key does not open the data-import endpoints', async () => {
    const res = await h.call('GET', PATHS.all(SUPPLIER), {
      token: null,
      headers: { 'x-operator-key': h.server.operatorKey },
    });
    expect(res.status).toBe(401);
  });
});

describe('§5 token lifetime (configurable; not shown by the spec)', () => {
  it('a token issued with a lifetime stops working when it expires', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const server = await startReferenceServer({
      now: () => new Date(now),
      seed: {
        api_keys: ['k'],
        suppliers: [{ code: SUPPLIER, status: 'Ongoing' }],
        settings: { token_ttl_seconds: 60 },
      },
    });
    try {
      const call = client(server.url, null);
      const res = await call('POST', '/v1/graphql/', { body: { query: MUTATION, variables: { key: 'k' } } });
      const { token, payload } = res.body.data.obtainServiceToken;
      expect(payload.exp).toBe(Math.floor(now / 1000) + 60);
      expect((await call('GET', PATHS.all(SUPPLIER), { token })).status).toBe(200);
      now += 61_000;
      expect((await call('GET', PATHS.all(SUPPLIER), { token })).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
