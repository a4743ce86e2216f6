/**
 * The runner's client and big answers: large bodies are read within the run's budget
 * (core/http/large-bodies.ts), never more at once than it allows, a body larger than the whole
 * budget still goes alone, and what a rule reads of a body — its text and its parsed value — is what
 * it would have been without the budget (undici's own decoding: UTF-8, a leading BOM skipped). A big
 * body is parsed once for the run's history and the rule, checked without a copy, and no rule starts
 * while a running rule holds one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runConformance } from '../../app/conformance.js';
import { fullCollection } from '../../app/full-collection.js';
import { embeddedFixtures, embeddedSeed } from '../../app/embedded.js';
import { documentedShape } from '../../core/engine/judgements.js';
import { defineRules } from '../../core/engine/rule.js';
import { HttpClient, HttpResponse, type SharedBody, Transcript } from '../../core/http/client.js';
import { LARGE_BODY_BUDGET, LargeBodyBudget } from '../../core/http/large-bodies.js';
import { Redactor } from '../../core/http/redact.js';
import { model } from '../../core/spec/index.js';
import { DEFAULT_TOKEN, startReferenceServer, type ReferenceServer } from '../../reference/index.js';
import { type Listening, listen } from '../helpers/listen.js';
import { startProxy } from '../helpers/proxy.js';

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
      // undici's text() skips a leading BOM; multi-byte characters split across chunks stay whole.
      const expected = (kind: keyof typeof bodies) =>
        bodies[kind].startsWith(BOM) ? bodies[kind].slice(1) : bodies[kind];
      // The keys of each kind's body, counted once: parsing 26 MiB again for each of 16 answers is the test's work, not the client's.
      const keys = new Map(kinds.map((kind) => [kind, Object.keys(JSON.parse(expected(kind))).length]));
      answers.forEach((res, i) => {
        expect(res.text === expected(asked[i]), `${asked[i]} body`).toBe(true);
        expect(res.isJson).toBe(true);
        expect(Object.keys(res.json() as object).length).toBe(keys.get(asked[i]));
        expect(res.exchange.response!.bytes).toBe(Buffer.byteLength(expected(asked[i])));
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

describe('one parse of a big body, checked without a copy', () => {
  const body = bigJson(3 * MiB, 'p').replace('{', '{"status":"COMPLETED","service_account_number":"A-1",');
  let target: Listening;
  beforeAll(async () => {
    target = await listen((req: IncomingMessage, res: ServerResponse) => {
      // The second path echoes a secret the redactor knows: the recorded body is not the text read.
      const text = req.url?.startsWith('/secret') ? body.replace('"A-1"', '"sekret-1"') : body;
      res.writeHead(200, { 'content-type': 'application/json' }).end(text);
    });
  });
  afterAll(() => target?.close());

  it('the observer and the rule read one parsed value, unless redaction changed what the observer saw', async () => {
    const seen: (SharedBody | undefined)[] = [];
    const values: unknown[] = [];
    const client = new HttpClient({
      baseUrl: target.url,
      timeoutMs: 60_000,
      connections: 2,
      redactor: new Redactor(['sekret-1']),
      onExchange: (_x, _at, _origin, _sender, response) => {
        seen.push(response);
        const parsed = response?.peek();
        values.push(parsed && 'value' in parsed ? parsed.value : undefined);
      },
    });
    try {
      const plain = await client.send({ method: 'GET', path: '/plain/' }, new Transcript());
      expect(plain.json()).toBe(values[0]);
      const secret = await client.send({ method: 'GET', path: '/secret/' }, new Transcript());
      expect(seen[1]).toBeUndefined();
      expect((secret.json() as { service_account_number: string }).service_account_number).toBe('sekret-1');
    } finally {
      await client.close();
    }
  });

  it('a rule that read a large body and moved on does not keep its value alive; a small one is kept', async () => {
    const gc = fullCollection()!;
    const client = new HttpClient({ baseUrl: target.url, timeoutMs: 60_000, connections: 2, redactor: new Redactor() });
    try {
      const large = await client.send({ method: 'GET', path: '/plain/' }, new Transcript());
      const small = new HttpResponse(200, {}, '{"status":"COMPLETED"}', large.exchange);
      const read = (res: HttpResponse) => new WeakRef(res.json() as object);
      const [largeValue, smallValue] = [read(large), read(small)];
      // A WeakRef keeps its value alive until the current job ends.
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      expect(largeValue.deref()).toBeUndefined();
      expect(smallValue.deref()).toBe(small.json());
      // Read again, the large body says the same.
      expect((large.json() as { status: string }).status).toBe('COMPLETED');
      expect(Object.keys(large.json() as object).length).toBe(Object.keys(JSON.parse(body)).length);
    } finally {
      await client.close();
    }
  });

  it('a response checked on its documented fields says what checking it whole says, and returns the body itself', () => {
    const value = JSON.parse(body) as Record<string, unknown>;
    const schema = model.AccountTransferStatus;
    const whole = schema.safeParse(value, { reportInput: true });
    const shape = documentedShape(schema, value);
    expect(whole.success).toBe(true);
    expect(shape.ok && shape.data).toBe(value);
    for (const broken of [{ ...value, status: 'NOPE' }, { ...value, service_account_number: 7 }, { p1: 1 }]) {
      const wholeIssues = schema.safeParse(broken, { reportInput: true }).error?.issues;
      const said = documentedShape(schema, broken);
      expect(said.ok).toBe(false);
      expect(!said.ok && said.issues).toEqual(wholeIssues);
    }
    // A request schema refuses undocumented fields: it is checked whole.
    const strict = z.strictObject({ a: z.string() });
    expect(documentedShape(strict, { a: 'x', b: 1 }).ok).toBe(false);
  });
});

describe('a run while a rule holds a large answer', () => {
  let reference: ReferenceServer;
  beforeAll(async () => {
    reference = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
  });
  afterAll(() => reference?.close());

  it('starts no other rule until the holder ends; the rules running then finish', async () => {
    const big = bigJson(2 * MiB, 'g');
    const proxy = await startProxy(reference.url, async (req, forward) => {
      if (!req.path.includes('/account-transfer-status/') || !req.path.includes('BIG')) return undefined;
      const up = await forward();
      return { ...up, headers: { ...up.headers, 'content-type': 'application/json' }, body: big };
    });
    const events: string[] = [];
    let heldRead!: () => void;
    const read = new Promise<void>((resolve) => {
      heldRead = resolve;
    });
    const status = (external_account_number: string) => ({
      params: { import_supplier_code: 'SUPPLIER_ONGOING', external_account_number },
    });
    const rule = (id: string, check: Parameters<typeof defineRules>[1][number]['check']) => ({
      id: `gate.${id}`,
      spec: '§9.1',
      level: 'INFO' as const,
      why: 'a test of the scheduler',
      title: id,
      endpoints: ['accountTransferStatus' as const],
      check,
    });
    const holder = rule('holder', async (ctx) => {
      events.push('holder starts');
      await ctx.api.call('accountTransferStatus', status('BIG-1'));
      heldRead();
      // Later requests of the holder: a rule started meanwhile would start before these end.
      for (let i = 0; i < 3; i++) await ctx.api.call('accountTransferStatus', status(`small-${i}`));
      events.push('holder ends');
    });
    const running = (n: number) =>
      rule(`running-${n}`, async () => {
        events.push(`running-${n} starts`);
        await read;
      });
    const later = (n: number) =>
      rule(`later-${n}`, async () => {
        events.push(`later-${n} starts`);
      });
    try {
      const report = await runConformance({
        baseUrl: proxy.url,
        auth: { token: DEFAULT_TOKEN },
        fixtures: await embeddedFixtures(),
        rules: defineRules('gate', [holder, running(1), running(2), later(1), later(2)]),
        concurrency: 3,
      });
      expect(report.rules.map((r) => r.verdict)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass']);
      const ends = events.indexOf('holder ends');
      expect(ends, events.join(', ')).toBeGreaterThan(0);
      expect(events.slice(0, 3).sort(), events.join(', ')).toEqual([
        'holder starts',
        'running-1 starts',
        'running-2 starts',
      ]);
      expect(events.slice(ends + 1).sort(), events.join(', ')).toEqual(['later-1 starts', 'later-2 starts']);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});
