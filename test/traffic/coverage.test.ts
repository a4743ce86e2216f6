/**
 * Status and field coverage (core/report/coverage.ts): one function for a run, a proxy session and a
 * HAR file, counted exchange by exchange.
 */
import { describe, expect, it } from 'vitest';
import { fromHar } from '../../app/traffic/har-read.js';
import { toHar } from '../../app/traffic/har.js';
import { CoverageCounter, coverageOf, documentedFields } from '../../core/report/coverage.js';
import type { Exchange } from '../../core/http/exchange.js';
import { model } from '../../core/spec/index.js';
import { PATHS, SUPPLIER } from '../helpers/reference.js';

let seq = 0;
const exchange = (method: string, url: string, body: unknown, status?: number): Exchange => ({
  seq: ++seq,
  request: { method, url, headers: {}, ...(body === undefined ? {} : { body: JSON.stringify(body) }) },
  ...(status === undefined
    ? { error: { kind: 'timeout' as const, message: 'no answer' } }
    : { response: { status, headers: {}, bytes: 0 } }),
  duration_ms: 1,
});

const notes = (list: unknown[]) => ({ import_supplier: SUPPLIER, external_account_number: 'EXT-1', notes: list });
const endpoint = (c: ReturnType<typeof coverageOf>, id: string) => c.endpoints.find((e) => e.endpoint === id)!;

describe('coverage', () => {
  it('documented request fields are the dot paths of the zod request schema, * for array elements', () => {
    expect(documentedFields(model.endpoints.createNotes.body!)).toEqual([
      'import_supplier',
      'external_account_number',
      'notes',
      'notes.*.body',
      'notes.*.created_at',
      'notes.*.is_pinned',
      'notes.*.unpin_at',
      'notes.*.document_paths',
      'notes.*.document_paths.*.document_path',
    ]);
    expect(documentedFields(model.endpoints.processAccount.body!)).toEqual([
      'external_account_number',
      'import_supplier_code',
      'operations_team_name',
      'dry_run',
    ]);
  });

  it('counts documented statuses seen and never seen, undocumented statuses, unanswered and unrouted requests', () => {
    const c = coverageOf([
      exchange('POST', PATHS.notes, notes([{ body: 'a' }]), 201),
      exchange('POST', PATHS.notes, notes([{ body: 'a' }]), 201),
      exchange('POST', PATHS.notes, notes([]), 418),
      exchange('POST', PATHS.notes, notes([]), undefined),
      exchange('GET', '/v1/graphql/', undefined, 200),
      exchange('GET', '/nowhere', undefined, 404),
    ]);
    expect(c.exchanges).toBe(6);
    expect(c.unrouted).toBe(2);
    const n = endpoint(c, 'createNotes');
    expect(n.requests).toBe(4);
    expect(n.no_response).toBe(1);
    expect(n.statuses.map((s) => [s.status, s.observed])).toEqual([
      [201, 2],
      [400, 0],
      [401, 0],
      [404, 0],
    ]);
    expect(n.statuses[3].situation).toMatch(/not imported/);
    expect(n.undocumented).toEqual([{ status: 418, observed: 1 }]);
    expect(endpoint(c, 'stageAccount').statuses.every((s) => s.observed === 0)).toBe(true);
    expect(c.statuses.observed).toBe(1);
    expect(c.statuses.documented).toBe(Object.values(model.endpoints).reduce((k, e) => k + e.responses.length, 0));
  });

  it('marks the documented fields sent, nested ones in any element, never undocumented ones, and reads a base path', () => {
    const counter = new CoverageCounter();
    counter.observe(
      exchange('POST', `/api${PATHS.notes}`, notes([{ body: 'a' }, { document_paths: [{ document_path: 'x' }] }]), 201),
    );
    counter.observe(exchange('POST', PATHS.notes, { ...notes([{ body: 'b', colour: 'teal' }]), extra: 1 }, 400));
    counter.observe(exchange('POST', PATHS.notes, '{not json', 400));
    const n = endpoint(counter.result(), 'createNotes');
    expect(n.requests).toBe(3);
    expect(n.fields.sent).toEqual([
      'import_supplier',
      'external_account_number',
      'notes',
      'notes.*.body',
      'notes.*.document_paths',
      'notes.*.document_paths.*.document_path',
    ]);
    expect(n.fields.never_sent).toEqual(['notes.*.created_at', 'notes.*.is_pinned', 'notes.*.unpin_at']);
    expect(n.fields.share).toBe(6 / 9);
    // A key spelled with a JSON escape is the same field (the text is only skimmed for keys not sent yet).
    counter.observe({
      ...exchange('POST', PATHS.notes, undefined, 201),
      request: { method: 'POST', url: PATHS.notes, headers: {}, body: '{"notes":[{"\\u0069s_pinned":true}]}' },
    });
    expect(endpoint(counter.result(), 'createNotes').fields.sent).toContain('notes.*.is_pinned');
    // An endpoint with no request body documents no field; its share is not a number.
    expect(endpoint(counter.result(), 'accountTransferStatus').fields).toEqual({
      sent: [],
      never_sent: [],
      share: null,
    });
  });

  it('gives the same coverage for the exchanges and for their HAR file', () => {
    const exchanges = [
      exchange('POST', PATHS.notes, notes([{ body: 'a', created_at: '2024-01-01T00:00:00Z' }]), 201),
      exchange('GET', PATHS.status(SUPPLIER, 'EXT-1'), undefined, 404),
      exchange('POST', PATHS.process, { external_account_number: 'EXT-1' }, 500),
    ];
    expect(coverageOf(fromHar(toHar(exchanges, 'http://127.0.0.1:9')).exchanges)).toEqual(coverageOf(exchanges));
  });
});
