import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { PATHS, SUPPLIER, useReferenceServer } from '../helpers/reference.js';

const h = useReferenceServer({ maxBodyBytes: 64 * 1024 });

describe('bad input never crashes the reference server', () => {
  it('answers a non-JSON body, an empty body and a wrong media type with clear 4xx bodies', async () => {
    const broken = await h.call('POST', PATHS.validate, { raw: '{"import_supplier": ' });
    expect([broken.status, broken.body.code]).toEqual([400, 'parse_error']);
    const empty = await h.call('POST', PATHS.validate, { raw: '' });
    expect([empty.status, empty.body.code]).toEqual([400, 'parse_error']);
    const text = await h.call('POST', PATHS.validate, {
      raw: 'a=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([text.status, text.body.code]).toEqual([415, 'unsupported_media_type']);
    const vendorJson = await h.call('POST', PATHS.validate, {
      raw: '{}',
      headers: { 'content-type': 'application/vnd.api+json; charset=utf-8' },
    });
    expect(vendorJson.status).toBe(400); // parsed as JSON, then refused by validation
    expect(vendorJson.body.code).toBe('account_failed_validation');
  });

  it('refuses a body over the size limit with 413', async () => {
    const huge = JSON.stringify({ import_supplier: SUPPLIER, external_account_number: 'x'.repeat(100 * 1024) });
    const res = await h.call('POST', PATHS.validate, { raw: huge });
    expect(res.status).toBe(413);
    expect((await h.call('GET', PATHS.all(SUPPLIER))).status).toBe(200);
  });

  it('refuses a body streamed past the limit without a content-length', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(PATHS.validate, h.server.url);
      const req = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            authorization: 'Token reference-token',
            'content-type': 'application/json',
            'transfer-encoding': 'chunked',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write('{"a": "');
      const chunk = 'y'.repeat(16 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 10 && req.write(chunk)) sent++;
        if (sent < 10) req.once('drain', pump);
        else req.end('"}');
      };
      pump();
    });
    expect(status).toBe(413);
  });

  it('refuses deeply nested JSON', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const res = await h.call('POST', PATHS.validate, { raw: deep });
    expect([res.status, res.body.code]).toEqual([400, 'parse_error']);
    const metadata = {
      import_supplier: SUPPLIER,
      external_account_number: 'D',
      metadata: [{ key: 'k', value: JSON.parse(`${'{"a":'.repeat(70)}1${'}'.repeat(70)}`) }],
    };
    expect((await h.call('POST', PATHS.validate, { body: metadata })).status).toBe(400);
  });

  it('answers unknown paths with 404, wrong methods with 405 and an Allow header, bad encodings with 400', async () => {
    const unknown = await h.call('GET', '/v1/data-import/no-such-thing/');
    expect(unknown.status).toBe(404);
    const noSlash = await h.call('POST', '/v1/data-import/validate-account', { body: {} });
    expect(noSlash.status).toBe(404);
    expect(noSlash.body.detail).toMatch(/slash/);
    expect((await h.call('GET', '/')).status).toBe(404);
    const wrongMethod = await h.call('GET', PATHS.validate);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect((await h.call('GET', '/v1/data-import/all-account-import-processes/%E0%A4%A/')).status).toBe(400);
  });

  it('answers 404 for an unknown supplier in a listing', async () => {
    expect((await h.call('GET', PATHS.all('NO_SUCH_SUPPLIER'))).status).toBe(404);
  });

  it('answers many concurrent requests', async () => {
    const results = await Promise.all(Array.from({ length: 200 }, () => h.call('GET', PATHS.all(SUPPLIER))));
    expect(new Set(results.map((r) => r.status))).toEqual(new Set([200]));
  });
});

describe('the operator API', () => {
  it('describes itself', async () => {
    const res = await h.operator('GET', '/_operator/');
    expect(res.status).toBe(200);
    expect(res.body.routes.map((r: { path: string }) => r.path)).toContain('/_operator/setup');
  });

  it('sets up suppliers, teams, skipped accounts, vendor instructions and settings', async () => {
    expect(
      (await h.operator('PUT', '/_operator/suppliers/NEW_SUPPLIER', { status: 'Ongoing', document_root: 'x/' })).status,
    ).toBe(201);
    expect((await h.operator('PUT', '/_operator/suppliers/NEW_SUPPLIER', { status: 'Paused' })).body).toEqual({
      code: 'NEW_SUPPLIER',
      status: 'Paused',
      document_root: 'x/',
    });
    expect((await h.operator('PUT', '/_operator/suppliers/OTHER_NEW', {})).status).toBe(400);
    expect(
      (await h.operator('PUT', '/_operator/suppliers/OTHER_NEW', { status: 'Sleeping' })).body.errors[0].attr,
    ).toBe('status');
    expect((await h.operator('POST', '/_operator/operations-teams', { name: 'Night shift' })).status).toBe(201);
    expect(
      (
        await h.operator('POST', '/_operator/skipped-accounts', {
          import_supplier: SUPPLIER,
          external_account_number: 'SKIP-ME',
        })
      ).status,
    ).toBe(201);
    expect(
      (await h.operator('PUT', '/_operator/vendor-instructions/ADYEN/R-1', { behaviour: 'intermittent_failure' }))
        .status,
    ).toBe(200);
    expect(
      (await h.operator('PATCH', '/_operator/settings', { concurrency_limit: 3, processing_delay_ms: 5 })).body,
    ).toMatchObject({ concurrency_limit: 3, processing_delay_ms: 5 });
    expect((await h.operator('PATCH', '/_operator/settings', { concurrency_limit: 0 })).status).toBe(400);
    expect(
      (await h.operator('PATCH', '/_operator/settings', { concurrency_limit: null })).body.concurrency_limit,
    ).toBeNull();
    const state = await h.operator('GET', '/_operator/state');
    expect(state.body.operations_teams).toContain('Night shift');
    expect(state.body.suppliers).toContainEqual({ code: 'NEW_SUPPLIER', status: 'Paused', document_root: 'x/' });
    expect(
      (await h.call('POST', PATHS.stage, { body: { import_supplier: SUPPLIER, external_account_number: 'SKIP-ME' } }))
        .status,
    ).toBe(400);
  });

  it('adds tokens and API keys, and setup validates its document', async () => {
    expect((await h.operator('POST', '/_operator/tokens', { token: 'extra-token' })).status).toBe(201);
    expect((await h.call('GET', PATHS.all(SUPPLIER), { token: 'extra-token' })).status).toBe(200);
    const bad = await h.operator('POST', '/_operator/setup', { suppliers: [{ code: 'X' }], unknown: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { attr: string }) => e.attr)).toEqual(['suppliers.0.status', 'unknown']);
  });
});
