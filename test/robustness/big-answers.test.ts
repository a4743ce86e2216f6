/**
 * The runner's client and big answers: large bodies are read within the run's budget
 * (core/http/large-bodies.ts), never more at once than it allows, a body larger than the whole
 * budget still goes alone, and what a rule reads of a body — its text and its parsed value — is what
 * it would have been without the budget (undici's own decoding: UTF-8, a leading BOM skipped).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, Transcript } from '../../core/http/client.js';
import { LARGE_BODY_BUDGET, LargeBodyBudget } from '../../core/http/large-bodies.js';
import { Redactor } from '../../core/http/redact.js';
import { type Listening, listen } from '../helpers/listen.js';

const MiB = 1024 * 1024;

/** `bytes` of JSON: an object of small keys, with a multi-byte character every so often. */
function bigJson(bytes: number, tag: string): string {
  const parts: string[] = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const entry = `"${tag}${i}":"é€${i % 10}"`;
    parts.push(entry);
    size += Buffer.byteLength(entry) + 1;
  }
  return `{${parts.join(',')}}`;
}

describe('the large-body budget', () => {
  it('grants in order within the budget, lets a body larger than the budget go alone, and hands on as shares come back', async () => {
    const budget = new LargeBodyBudget(10);
    const order: string[] = [];
    const a = await budget.take(6);
    const granted = (name: string) => (release: () => void) => {
      order.push(name);
      return release;
    };
    const b = budget.take(6).then(granted('b'));
    const c = budget.take(30).then(granted('c'));
    const d = budget.take(1).then(granted('d'));
    await Promise.resolve();
    expect([budget.inUse, budget.queued, order]).toEqual([6, 3, []]);
    a();
    a(); // a second release gives nothing back twice
    const releaseB = await b;
    expect([budget.inUse, order]).toEqual([6, ['b']]); // d would fit, but does not pass c
    releaseB();
    const releaseC = await c;
    expect([budget.inUse, order]).toEqual([30, ['b', 'c']]);
    releaseC();
    (await d)();
    expect([budget.inUse, budget.queued, order]).toEqual([0, 0, ['b', 'c', 'd']]);
  });
});

describe('the client against a target answering big bodies to many requests at once', () => {
  const BOM = '\ufeff';
  const bodies = {
    declared: bigJson(6 * MiB, 'd'),
    chunked: bigJson(3 * MiB, 'c'),
    bom: `${BOM}${bigJson(2 * MiB, 'b')}`,
    huge: bigJson(15 * MiB, 'h'),
  };
  let target: Listening;
  beforeAll(async () => {
    target = await listen((req: IncomingMessage, res: ServerResponse) => {
      const kind = (req.url ?? '').split('/')[1] as keyof typeof bodies;
      const text = bodies[kind];
      if (kind === 'chunked') {
        // No content-length: the size is known only as the body streams in.
        res.writeHead(200, { 'content-type': 'application/json' });
        const bytes = Buffer.from(text);
        for (let at = 0; at < bytes.length; at += 100_001) res.write(bytes.subarray(at, at + 100_001));
        res.end();
      } else
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
    });
  });
  afterAll(() => target?.close());

  it('never holds more than the budget at once, and every body reads as undici would read it', async () => {
    const client = new HttpClient({
      baseUrl: target.url,
      timeoutMs: 60_000,
      connections: 32,
      redactor: new Redactor([]),
    });
    let most = 0;
    let waited = 0;
    const sample = setInterval(() => {
      most = Math.max(most, client.largeBodies.inUse);
      waited = Math.max(waited, client.largeBodies.queued);
    }, 1);
    try {
      const kinds = Object.keys(bodies) as (keyof typeof bodies)[];
      const asked = Array.from({ length: 16 }, (_, i) => kinds[i % kinds.length]);
      const answers = await Promise.all(
        asked.map((kind) => client.send({ method: 'GET', path: `/${kind}/` }, new Transcript())),
      );
      answers.forEach((res, i) => {
        const sent = bodies[asked[i]];
        // undici's text() skips a leading BOM; multi-byte characters split across chunks stay whole.
        const expected = sent.startsWith(BOM) ? sent.slice(1) : sent;
        expect(res.text === expected, `${asked[i]} body`).toBe(true);
        expect(res.isJson).toBe(true);
        expect(Object.keys(res.json() as object).length).toBe(Object.keys(JSON.parse(expected)).length);
        expect(res.exchange.response!.bytes).toBe(Buffer.byteLength(expected));
        expect(res.exchange.response!.body_truncated).toBe(true);
      });
    } finally {
      clearInterval(sample);
      await client.close();
    }
    // A 15 MiB body and a 6 MiB one never together; some waited their turn.
    expect(most).toBeLessThanOrEqual(LARGE_BODY_BUDGET);
    expect(waited).toBeGreaterThan(0);
    expect(client.largeBodies.inUse).toBe(0);
  }, 120_000);
});
