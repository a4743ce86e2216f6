/**
 * A property rule's transcript stays small while it runs (Transcript compaction): all but the last
 * exchanges become one line each — what the report keeps of them anyway — except those that broke.
 */
import { describe, expect, it } from 'vitest';
import { Transcript } from '../../core/http/client.js';
import { brief, reportTranscript } from '../../core/engine/transcripts.js';

const exchange = (i: number) => ({
  request: {
    method: 'POST',
    url: `/v1/x/${i}`,
    headers: { 'content-type': 'application/json' },
    body: 'b'.repeat(500),
  },
  ...(i % 97 === 5
    ? { error: { kind: 'reset' as const, message: 'socket hang up' } }
    : { response: { status: 201, headers: {}, body: 'r'.repeat(500), bytes: 500 } }),
  duration_ms: 1,
});

describe('transcript compaction', () => {
  it('keeps the last exchanges whole, the older ones brief, and every broken one whole', () => {
    const t = new Transcript({ keep: 10, brief });
    for (let i = 0; i < 300; i++) t.record(exchange(i));
    expect(t.exchanges.map((x) => x.seq)).toEqual([...Array(300).keys()].map((i) => i + 1));
    const whole = t.exchanges.filter((x) => !x.brief);
    expect(whole.length).toBeLessThanOrEqual(2 * 10 + 3);
    expect(t.exchanges.slice(-10).every((x) => !x.brief)).toBe(true);
    for (const x of t.exchanges.filter((e) => e.error)) expect(x.request.body).toBeDefined();
    for (const x of t.exchanges.filter((e) => e.brief)) expect(x.request.body).toBeUndefined();
  });

  it('leaves what the report shows as it was without compaction', () => {
    const compacted = new Transcript({ keep: 16, brief });
    const whole = new Transcript();
    for (let i = 0; i < 200; i++) {
      compacted.record(exchange(i));
      whole.record(exchange(i));
    }
    for (const verdict of ['pass', 'fail', 'error'] as const)
      expect(reportTranscript(compacted.exchanges, verdict, 199, false)).toEqual(
        reportTranscript(whole.exchanges, verdict, 199, false),
      );
  });

  it('without compaction every exchange stays whole', () => {
    const t = new Transcript();
    for (let i = 0; i < 100; i++) t.record(exchange(i));
    expect(t.exchanges.some((x) => x.brief)).toBe(false);
  });
});
