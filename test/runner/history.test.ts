/**
 * The run's history judged on a recorded history: exchanges as the client records them, fed in the
 * order they completed, with the times they were sent and answered.
 */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../core/http/exchange.js';
import { NotImplemented, RuleFailure } from '../../core/engine/failures.js';
import { historyTells } from '../../core/engine/drivers.js';
import { RunHistory } from '../../core/engine/history.js';
import type { RuleContext } from '../../core/engine/rule.js';
import { Transcript } from '../../core/http/client.js';
import historyRules from '../../suites/history.js';

const SUPPLIER = 'ONGOING';
const json = (x: unknown) => JSON.stringify(x);

let seq = 0;
/** One completed exchange, sent at `start` and answered at `end` (ms of the test's own clock). */
function exchange(method: 'GET' | 'POST', url: string, status: number, response: unknown, request?: unknown): Exchange {
  return {
    seq: ++seq,
    request: {
      method,
      url,
      headers: { authorization: 'Token ***' },
      ...(request === undefined ? {} : { body: json(request) }),
    },
    response: { status, headers: {}, body: json(response), bytes: json(response).length },
    duration_ms: 1,
  };
}

const processed = (ext: string, number: string) =>
  exchange(
    'POST',
    '/v1/data-import/account-import-process/process/',
    201,
    { service_account_number: number },
    { external_account_number: ext, import_supplier_code: SUPPLIER, operations_team_name: 'ops' },
  );
const listed = (records: { ext: string; number: string | null; at: string | null }[]) =>
  exchange(
    'GET',
    `/v1/data-import/all-account-import-processes/${SUPPLIER}/`,
    200,
    records.map((r) => ({
      external_account_number: r.ext,
      service_account_number: r.number,
      account_created_at: r.at,
    })),
  );
const status = (ext: string, state: string, number: string) =>
  exchange('GET', `/v1/data-import/account-transfer-status/${SUPPLIER}/${ext}/`, 200, {
    status: state,
    service_account_number: number,
  });

function feed(history: RunHistory, exchanges: Exchange[]) {
  // Each exchange sent at 10·i and answered at 10·i + 5: one after the other, none overlapping.
  exchanges.forEach((x, i) => history.observe(x, new Date(10 * i), 10 * i + 5));
}

/** Runs one history rule's check over `history`: its failure and the transcript it cited into. */
async function judged(history: RunHistory, ruleId: string, notImplemented: Record<string, number> = {}) {
  const rule = historyRules.find((r) => r.id === ruleId)!;
  const transcript = new Transcript();
  const ctx = {
    rule,
    history: {
      contradictions: (i: Parameters<RunHistory['contradictions']>[0]) => history.contradictions(i),
      stats: history.stats,
      baseUrl: 'http://127.0.0.1:9999',
      cite: ({ seq: _, ...x }: Exchange, step: string) => transcript.record({ ...x, step }).seq,
      notImplemented: (endpoint: string) => notImplemented[endpoint],
    },
    observe: () => undefined,
  } as unknown as RuleContext;
  let skipped: NotImplemented | undefined;
  const failure = await rule.check(ctx).then(
    () => undefined,
    (error: unknown) => {
      if (error instanceof NotImplemented) skipped = error;
      return error instanceof RuleFailure ? error.detail : undefined;
    },
  );
  return { failure, skipped, transcript: transcript.exchanges };
}

describe('the run history', () => {
  it('names both exchanges of a duplicate account number and of a changed creation time', () => {
    const history = new RunHistory(historyTells());
    const first = processed('cf-a-1', 'A-00000001');
    const duplicate = processed('cf-a-2', 'A-00000001');
    const listing = listed([{ ext: 'cf-a-1', number: 'A-00000001', at: '2024-05-01T10:00:00Z' }]);
    const relisted = listed([{ ext: 'cf-a-1', number: 'A-00000001', at: '2024-05-01T10:00:07Z' }]);
    feed(history, [first, duplicate, listing, relisted]);

    const [ids] = history.contradictions('ids-unique');
    expect(ids.message).toContain('"A-00000001"');
    expect(ids.message).toContain('cf-a-1');
    expect(ids.message).toContain('cf-a-2');
    expect([ids.first?.seq, ids.contradicting?.seq]).toEqual([first.seq, duplicate.seq]);
    expect(ids.first?.request.body).toContain('cf-a-1');

    const [createdAt] = history.contradictions('created-at-stable');
    expect(createdAt.message).toContain('2024-05-01T10:00:00Z');
    expect(createdAt.message).toContain('2024-05-01T10:00:07Z');
    expect([createdAt.first?.seq, createdAt.contradicting?.seq]).toEqual([listing.seq, relisted.seq]);
    expect(history.contradictions('number-stable')).toEqual([]);
  });

  it('fails history.ids.unique and history.account.created-at-stable, each with both exchanges and their curl', async () => {
    const history = new RunHistory(historyTells());
    feed(history, [
      processed('cf-a-1', 'A-00000001'),
      processed('cf-a-2', 'A-00000001'),
      listed([{ ext: 'cf-a-1', number: 'A-00000001', at: '2024-05-01T10:00:00Z' }]),
      listed([{ ext: 'cf-a-1', number: 'A-00000001', at: '2024-05-01T10:00:07Z' }]),
    ]);
    const ids = await judged(history, 'history.ids.unique');
    expect(ids.transcript.map((x) => [x.step, x.request.body])).toEqual([
      ['the first exchange to show it', expect.stringContaining('cf-a-1')],
      ['the exchange that contradicts it', expect.stringContaining('cf-a-2')],
    ]);
    expect(ids.failure?.exchange_seq).toBe(2);
    expect(ids.failure?.message).toContain(
      'curl (#1 of this transcript): curl -i -X POST http://127.0.0.1:9999/v1/data-import/account-import-process/process/',
    );
    const createdAt = await judged(history, 'history.account.created-at-stable');
    expect(createdAt.transcript.map((x) => x.response?.body)).toEqual([
      expect.stringContaining('10:00:00Z'),
      expect.stringContaining('10:00:07Z'),
    ]);
    expect(createdAt.failure?.exchange_seq).toBe(2);
    expect(createdAt.failure?.message).toContain(
      'curl -i http://127.0.0.1:9999/v1/data-import/all-account-import-processes/',
    );
    expect((await judged(history, 'history.account.number-stable')).failure).toBeUndefined();
  });

  it('compares shown values only: a read made before the account was created shows none', () => {
    const history = new RunHistory(historyTells());
    feed(history, [
      listed([{ ext: 'cf-b-1', number: null, at: null }]),
      processed('cf-b-1', 'A-0000000B'),
      listed([{ ext: 'cf-b-1', number: 'A-0000000B', at: '2024-05-01T10:00:00.123456+00:00' }]),
      listed([{ ext: 'cf-b-1', number: 'A-0000000B', at: '2024-05-01T10:00:00Z' }]),
    ]);
    for (const invariant of ['ids-unique', 'number-stable', 'created-at-stable', 'state-agrees'] as const)
      expect(history.contradictions(invariant)).toEqual([]);
  });

  it('holds a read against an earlier answer only when it was sent after that answer arrived', () => {
    const history = new RunHistory(historyTells());
    const created = processed('cf-c-1', 'A-0000000C');
    const overlapping = status('cf-c-1', 'UNKNOWN', '');
    // Sent before the process answer arrived: it may show the account as it was.
    history.observe(created, new Date(0), 20);
    history.observe(overlapping, new Date(10), 30);
    expect(history.contradictions('state-agrees')).toEqual([]);
    const later = status('cf-c-1', 'UNKNOWN', '');
    history.observe(later, new Date(40), 45);
    const [c] = history.contradictions('state-agrees');
    expect([c.first?.seq, c.contradicting?.seq]).toEqual([created.seq, later.seq]);
  });

  it('finds an account of the run shown after every staging of it was refused', () => {
    const history = new RunHistory(historyTells(), { ours: (ext) => ext.startsWith('cf-') });
    const refused = exchange(
      'POST',
      '/v1/data-import/account-import-process/create-or-update/',
      400,
      { detail: 'invalid', code: 'account_failed_validation', errors: [] },
      { import_supplier: SUPPLIER, external_account_number: 'cf-d-1' },
    );
    const shown = status('cf-d-1', 'UNKNOWN', '');
    feed(history, [refused, shown, status('other-1', 'UNKNOWN', '')]);
    const found = history.contradictions('refused-leaves-nothing');
    expect(found).toHaveLength(1);
    expect([found[0].first?.seq, found[0].contradicting?.seq]).toEqual([refused.seq, shown.seq]);
  });

  it('a service_business_id given to two businesses fails history.business.ids-unique, not the accounts rule', async () => {
    const history = new RunHistory(historyTells());
    const created = (external: string) =>
      exchange(
        'POST',
        '/v1/data-import/business/',
        201,
        { service_business_id: 7, external_business_identifier: external },
        { external_business_identifier: external },
      );
    feed(history, [created('B-1'), created('B-2')]);
    const business = await judged(history, 'history.business.ids-unique');
    expect(business.failure?.message).toContain(
      'service_business_id 7 was given to business "B-1" and to business "B-2"',
    );
    expect((await judged(history, 'history.ids.unique')).failure).toBeUndefined();
  });

  it('judges nothing of what an endpoint found not implemented showed none of: not judged with its cause', async () => {
    // A partial mock: accounts staged and processed, businesses and listings answered 501.
    const history = new RunHistory(historyTells());
    feed(history, [processed('cf-f-1', 'A-0000000F')]);
    const missing = { createBusiness: 501, allAccountImportProcesses: 501, importedAccountImportProcesses: 501 };
    const business = await judged(history, 'history.business.ids-unique', missing);
    expect(business.skipped?.causeId).toBe('not-implemented.createBusiness');
    expect(business.failure).toBeUndefined();
    const createdAt = await judged(history, 'history.account.created-at-stable', missing);
    expect(createdAt.skipped?.causeId).toBe('not-implemented.allAccountImportProcesses');
    // What the history does hold is judged: an account number was shown.
    expect((await judged(history, 'history.ids.unique', missing)).skipped).toBeUndefined();
    // Implemented but unused (no business in this run): nothing contradicts, it passes as before.
    const quiet = await judged(history, 'history.business.ids-unique');
    expect([quiet.skipped, quiet.failure]).toEqual([undefined, undefined]);
  });

  it('keeps no more exchanges than its cap, and counts the ones it dropped', () => {
    const history = new RunHistory(historyTells(), { maxWitnesses: 2 });
    feed(history, [processed('cf-e-1', 'A-1'), processed('cf-e-2', 'A-2'), processed('cf-e-3', 'A-3')]);
    expect(history.stats).toMatchObject({ exchanges: 3, accounts: 3, kept: 2, droppedExchanges: 1 });
  });
});
