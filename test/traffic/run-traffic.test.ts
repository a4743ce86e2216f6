/**
 * The traffic checks keep the suite's own principle (docs/design.md §2): a full run against the
 * faithful reference server and against the variant (which takes the other legal choice of every
 * freedom) is traffic the checks must find nothing wrong with on the server's side. The run's
 * deliberately defective requests are findings against the client, never against the server.
 */
import { describe, expect, it } from 'vitest';
import { runAgainstReference } from '../../app/against-reference.js';
import { TRAFFIC_CHECKS, TrafficJudge } from '../../app/traffic/checks.js';

describe('traffic checks over the suite’s own runs', () => {
  for (const profile of [undefined, 'variant'] as const) {
    it(`find nothing against the ${profile ?? 'faithful'} reference server`, async () => {
      const judge = new TrafficJudge();
      let exchanges = 0;
      const { report } = await runAgainstReference(
        { profile },
        {
          seed: 11,
          onExchange: (exchange) => {
            exchanges++;
            judge.observe(exchange);
          },
        },
      );
      expect(report.summary.must_failures).toBe(0);
      // Every request of the run, and the §5.1 token requests of its API key (the first and renewals).
      const tokenRequests = report.target.auth === 'api_key' ? 1 + (report.http.token_renewals ?? 0) : 0;
      expect(exchanges).toBe(report.http.requests + tokenRequests);
      const againstServer = judge.findings
        .filter((f) => TRAFFIC_CHECKS[f.check].side === 'server')
        .map((f) => `${TRAFFIC_CHECKS[f.check].id}: ${f.message}`);
      expect(againstServer).toEqual([]);
      // The negative rules' requests are the client's defects, and are found as such.
      expect(judge.findings.some((f) => f.check === 'requestBody')).toBe(true);
    });
  }
});

describe('note dedup over traffic, whatever the order of the results (§4.2: free)', () => {
  const url = '/v1/data-import/notes/create/';
  const key = { import_supplier: 'SUPPLIER_ONGOING', external_account_number: 'EXT-9' };
  let seq = 0;
  const notes = (judge: TrafficJudge, sent: object[], results: object[]) =>
    judge.observe({
      seq: ++seq,
      request: {
        method: 'POST',
        url,
        headers: { authorization: 'Token t0k3n' },
        body: JSON.stringify({ ...key, notes: sent }),
      },
      response: { status: 201, headers: {}, body: JSON.stringify(results), bytes: 0 },
      duration_ms: 1,
    });
  const A = { body: 'a', created_at: '2024-01-01T00:00:00Z' };
  const B = { body: 'b', created_at: '2024-01-01T00:00:00Z' };
  const ok = (n: object) => ({ ...n, status: 'NOTE_CREATION_SUCCESS' });
  const exists = (n: object) => ({ ...n, status: 'NOTE_ALREADY_EXISTS' });

  it('pairs results with notes by body: reversed results of a correct dedup are no finding', () => {
    const judge = new TrafficJudge();
    notes(judge, [A], [ok(A)]);
    expect(notes(judge, [B, A], [exists(A), ok(B)])).toEqual([]);
    expect(judge.exercised.has('notesDedup')).toBe(true);
  });

  it('a note already on the account created again is a finding, in any order', () => {
    const judge = new TrafficJudge();
    notes(judge, [A], [ok(A)]);
    expect(notes(judge, [B, A], [ok(A), ok(B)]).map((f) => f.check)).toEqual(['notesDedup']);
  });

  it('the same note twice in one request: one created is right in either order, both created is a finding', () => {
    expect(notes(new TrafficJudge(), [A, A], [exists(A), ok(A)])).toEqual([]);
    const both = notes(new TrafficJudge(), [A, A], [ok(A), ok(A)]);
    expect(both.map((f) => f.message)).toEqual([
      'notes 0 and 1 of one request have the same body and created_at and were each created',
    ]);
  });
});
