/**
 * The assertions rules are written with: each broken expectation is a RuleFailure that names what
 * was expected, what came back, the JSON path and the exchange, and a kept one is silent.
 */
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { expect as ruleExpect } from '../../core/engine/expect.js';
import { RuleFailure } from '../../core/engine/failures.js';
import { HttpResponse } from '../../core/http/client.js';
import { model } from '../../core/spec/index.js';

function response(status: number, text: string, seq = 3): HttpResponse {
  return new HttpResponse(status, { 'content-type': 'application/json' }, text, {
    seq,
    request: { method: 'POST', url: '/v1/account-import/process/', headers: {} },
    response: { status, headers: {}, body: text, bytes: text.length },
  } as never);
}

function failure(fn: () => void): RuleFailure {
  try {
    fn();
  } catch (error) {
    if (error instanceof RuleFailure) return error;
    throw error;
  }
  throw new Error('expected a RuleFailure, none was thrown');
}

describe('rule assertions', () => {
  it('status: accepts the documented status(es), fails on any other with the request and the body', () => {
    ruleExpect.status(response(201, '{}'), 201);
    ruleExpect.status(response(200, '{}'), [200, 201]);
    const f = failure(() => ruleExpect.status(response(500, '{"detail":"boom"}'), 201, 'process'));
    expect(f.detail).toMatchObject({ expected: 201, actual: 500, path: 'status', exchange_seq: 3 });
    expect(f.message).toBe('process: expected 201 from POST /v1/account-import/process/, got 500: {"detail":"boom"}');
  });

  it('validationError: a 400 with a §7.1 body passes (any code, attr or wording); the other 400s of §7.2 fail', () => {
    const item = (attr: string) => ({ detail: 'Wrong.', code: 'anything', attr });
    for (const attr of ['dry_run', 'non_field_errors'])
      ruleExpect.validationError(response(400, JSON.stringify({ detail: 'd', code: 'c', errors: [item(attr)] })), 'x');
    const others = [
      { detail: 'Would import; rolled back.', code: 'dry_run' },
      { message: 'Dry run: rolled back.', rolled_back: true },
      { detail: 'Imported.', code: 'x', external_account_number: 'E', service_account_number: 'A-1' },
      { detail: 'd', code: 'c', errors: [] },
    ];
    for (const body of others) {
      const f = failure(() => ruleExpect.validationError(response(400, JSON.stringify(body)), 'dry_run "false"'));
      expect(f.message).toMatch(/^dry_run "false": a validation error must carry the §7.1 body/);
      expect(f.detail).toMatchObject({ path: 'body', exchange_seq: 3 });
    }
    expect(failure(() => ruleExpect.validationError(response(200, '{}'), 'x')).detail).toMatchObject({ actual: 200 });
    expect(failure(() => ruleExpect.validationError(response(400, 'not json'), 'x')).detail.path).toBe('body');
    const importError = { status: 'TRANSACTION_IMPORT_ERROR', error_detail: 'bad', transaction_data: {} };
    const or = { schema: z.object({ status: z.literal('TRANSACTION_IMPORT_ERROR') }), name: 'the §4.2 body' };
    ruleExpect.validationError(response(400, JSON.stringify(importError)), 'x', or);
    expect(
      failure(() => ruleExpect.validationError(response(400, JSON.stringify(importError)), 'x')).message,
    ).not.toMatch(/§4\.2 body/);
  });

  it('validationError: judges the documented fields alone, so a body of many undocumented keys is not copied', () => {
    // Zod rebuilds a loose object key by key: a 400 carrying 15 MiB of undocumented keys cost 1.4 s and
    // a second copy of ~125 MB per check when the whole body was handed to it.
    const body: Record<string, unknown> = { detail: 'd', code: 'c', errors: [{ detail: 'd', code: 'c', attr: 'a' }] };
    for (let i = 0; i < 5000; i++) body[`k${i}`] = i;
    const handed: unknown[] = [];
    const original = model.ValidationErrorBody.safeParse;
    const spy = vi.spyOn(model.ValidationErrorBody, 'safeParse').mockImplementation((value, params) => {
      handed.push(value);
      return original(value, params);
    });
    try {
      ruleExpect.validationError(response(400, JSON.stringify(body)), 'x');
      const withoutErrors = { ...body, errors: [] };
      expect(() => ruleExpect.validationError(response(400, JSON.stringify(withoutErrors)), 'x')).toThrow(RuleFailure);
    } finally {
      spy.mockRestore();
    }
    expect(handed.map((value) => Object.keys(value as object).sort())).toEqual([
      ['code', 'detail', 'errors'],
      ['code', 'detail', 'errors'],
    ]);
  });

  it('refused: any 4xx passes; a success or a server error fails naming what had to be refused', () => {
    for (const status of [400, 403, 404, 409, 422, 499]) ruleExpect.refused(response(status, '{}'), 'x');
    for (const status of [200, 201, 302, 500, 503]) {
      const f = failure(() => ruleExpect.refused(response(status, ''), 'processing unstaged data'));
      expect(f.detail).toMatchObject({ expected: '4xx', actual: status, path: 'status', exchange_seq: 3 });
      expect(f.message).toBe(
        `processing unstaged data must be refused with a 4xx, got ${status} from POST /v1/account-import/process/: (empty body)`,
      );
    }
  });

  it('body: returns the parsed value, or fails at the JSON path of the first problem', () => {
    const schema = z.object({ results: z.array(z.object({ status: z.enum(['ADDED', 'EXISTS']) })) });
    expect(ruleExpect.body(response(201, '{"results":[{"status":"ADDED"}]}'), schema, 'transactions')).toEqual({
      results: [{ status: 'ADDED' }],
    });
    const f = failure(() =>
      ruleExpect.body(response(201, '{"results":[{"status":"ADDED"},{"status":"GONE"}]}'), schema, 'transactions'),
    );
    expect(f.detail.path).toBe('body.results[1].status');
    expect(f.message).toMatch(
      /^transactions: the body of POST \S+ \(201\) does not match: body\.results\[1\]\.status: expected "ADDED" or "EXISTS", got "GONE"/,
    );
  });

  it('equal: deep equality, failing at the first differing path', () => {
    ruleExpect.equal({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }, 'same');
    const f = failure(() => ruleExpect.equal({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] }, 'statuses'));
    expect(f.detail.path).toBe('.a[1].b');
    expect(f.message).toMatch(/^statuses: expected .* \(first difference at \.a\[1\]\.b\)$/);
  });

  it('that: silent when the condition holds, the given message otherwise', () => {
    ruleExpect.that(true, 'never shown');
    expect(
      failure(() => ruleExpect.that(false, 'the note must be pinned', { expected: true, actual: false })).detail,
    ).toMatchObject({ message: 'the note must be pinned', expected: true, actual: false });
  });
});
