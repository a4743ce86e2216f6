/**
 * The stages that touch a socket (send, bound), alone against a loopback target, and the pipeline
 * they make in HttpClient against targets that break each way an exchange can break: a reset, a
 * hang, a body past the cap, a refused connection. Each failure is recorded, observed and thrown as
 * its kind, redacted, with the large-body budget given back; a GET is sent again once after a reset.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExchangeObserver, HttpClient, Transcript } from '../../core/http/client.js';
import { ExchangeError } from '../../core/http/exchange.js';
import { LARGE_BODY_BYTES, LargeBodyBudget } from '../../core/http/large-bodies.js';
import { REDACTED, Redactor } from '../../core/http/redact.js';
import { DeadlineExceeded, bound } from '../../core/http/stages/bound.js';
import { classify } from '../../core/http/stages/failure.js';
import { sendWire, wireRequest } from '../../core/http/stages/send.js';
import { type Listening, listen } from '../helpers/listen.js';

const SECRET = 'sekret-token-0042';
const MiB = 1024 * 1024;

/** A target whose first path segment says how it answers. */
function hostile(req: IncomingMessage, res: ServerResponse): void {
  const [, kind] = (req.url ?? '').split('/');
  if (kind === 'echo') {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      res.setHeader('x-multi', ['a', 'b']);
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, url: req.url, auth: req.headers.authorization, body }));
    });
  } else if (kind === 'reset') req.socket.destroy();
  else if (kind === 'hang') {
    // Headers at once, then a byte now and then, forever: only the whole-body deadline ends it.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
    const drip = setInterval(() => res.write(' '), 20);
    res.on('close', () => clearInterval(drip));
  } else if (kind === 'large') {
    const body = `"${'x'.repeat(LARGE_BODY_BYTES + 10)}"`;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  } else if (kind === 'large-chunked') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`"${'y'.repeat(LARGE_BODY_BYTES + 10)}"`);
  } else if (kind === 'large-then-reset') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 * MiB });
    res.write('x'.repeat(1024), () => setTimeout(() => req.socket.destroy(), 20));
  } else if (kind === 'big') res.writeHead(200, { 'content-type': 'application/json' }).end(`"${'z'.repeat(5000)}"`);
  else res.writeHead(404).end();
}

let target: Listening;
let pool: Pool;
/** The pool with a response cap, as the client sets it (maxResponseBytes). */
let capped: Pool;
beforeAll(async () => {
  target = await listen(hostile);
  pool = new Pool(target.url, { connections: 4 });
  capped = new Pool(target.url, { connections: 1, maxResponseSize: 4096 });
});
afterAll(async () => {
  await pool?.destroy();
  await capped?.destroy();
  await target?.close();
});

const bounds = (budget = new LargeBodyBudget(), timeoutMs = 30_000) => ({
  timeoutMs,
  started: performance.now(),
  budget,
  cap: 16 * MiB,
});

describe('send and bound, alone', () => {
  it('send puts the wire request on the socket as built; bound reads it whole with its headers flattened', async () => {
    const wire = wireRequest(
      { method: 'POST', path: '/echo', body: { a: 1 }, headers: { Authorization: 'Token t' } },
      '/echo/x?q=1',
    );
    const res = await sendWire(pool, target.url, wire, 30_000);
    const holder = { largeBodies: 0 };
    const answer = await bound(res, bounds(), holder);
    expect(answer.status).toBe(201);
    expect(answer.headers['x-multi']).toBe('a, b');
    expect(answer.headers['content-type']).toBe('application/json');
    expect(JSON.parse(answer.text)).toEqual({ method: 'POST', url: '/echo/x?q=1', auth: 'Token t', body: '{"a":1}' });
    expect([holder.largeBodies, answer.release, answer.waitedMs]).toEqual([0, undefined, 0]);
  });

  it('a large body takes its declared length of the budget and is charged to its holder until released', async () => {
    const budget = new LargeBodyBudget();
    const holder = { largeBodies: 0 };
    const answer = await bound(
      await sendWire(pool, target.url, wireRequest({ method: 'GET', path: '/' }, '/large'), 30_000),
      bounds(budget),
      holder,
    );
    expect(answer.text.length).toBe(LARGE_BODY_BYTES + 12);
    expect([holder.largeBodies, budget.inUse]).toEqual([1, LARGE_BODY_BYTES + 12]);
    answer.release?.();
    expect(budget.inUse).toBe(0);
  });

  it('a large body that declared no length takes the response cap once it grows past the threshold', async () => {
    const budget = new LargeBodyBudget();
    const answer = await bound(
      await sendWire(pool, target.url, wireRequest({ method: 'GET', path: '/' }, '/large-chunked'), 30_000),
      { ...bounds(budget), cap: 3 * MiB },
      { largeBodies: 0 },
    );
    expect(budget.inUse).toBe(3 * MiB);
    answer.release?.();
    expect(budget.inUse).toBe(0);
  });

  it('a body that drips past the deadline is cut: a timeout', async () => {
    const res = await sendWire(pool, target.url, wireRequest({ method: 'GET', path: '/' }, '/hang'), 30_000);
    const error = await bound(res, bounds(undefined, 200), { largeBodies: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineExceeded);
    expect(classify(error)).toBe('timeout');
  });

  it('a large body cut by a reset gives its share of the budget back', async () => {
    const budget = new LargeBodyBudget();
    const holder = { largeBodies: 0 };
    const res = await sendWire(
      pool,
      target.url,
      wireRequest({ method: 'GET', path: '/' }, '/large-then-reset'),
      30_000,
    );
    const error = await bound(res, bounds(budget), holder).catch((e: unknown) => e);
    expect(classify(error)).toBe('reset');
    expect([budget.inUse, holder.largeBodies]).toEqual([0, 0]);
  });

  it('a body past the pool cap is too large', async () => {
    const error = await sendWire(capped, target.url, wireRequest({ method: 'GET', path: '/' }, '/big'), 30_000)
      .then((res) => bound(res, bounds(), { largeBodies: 0 }))
      .catch((e: unknown) => e);
    expect(classify(error)).toBe('too_large');
  });

  it('a connection nobody accepts is refused', async () => {
    const closed = await listen(hostile);
    await closed.close();
    const nowhere = new Pool(closed.url, { connections: 1 });
    try {
      const error = await sendWire(nowhere, closed.url, wireRequest({ method: 'GET', path: '/' }, '/'), 30_000).catch(
        (e: unknown) => e,
      );
      expect(classify(error)).toBe('refused');
    } finally {
      await nowhere.destroy();
    }
  });
});

describe('the pipeline against a target that breaks', () => {
  function client(options: { timeoutMs?: number; maxResponseBytes?: number; onExchange?: ExchangeObserver } = {}) {
    return new HttpClient({
      baseUrl: target.url,
      timeoutMs: options.timeoutMs ?? 30_000,
      connections: 4,
      redactor: new Redactor([SECRET]),
      ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
      ...(options.onExchange ? { onExchange: options.onExchange } : {}),
    });
  }

  async function failing(c: HttpClient, method: string, path: string): Promise<ExchangeError> {
    const error = await c
      .send({ method, path, headers: { authorization: `Token ${SECRET}` } }, new Transcript(undefined, 'r'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeError);
    return error as ExchangeError;
  }

  it('a reset POST is recorded, observed and thrown as a reset, redacted, and not sent again', async () => {
    const told: Parameters<ExchangeObserver>[0][] = [];
    const c = client({ onExchange: (x) => void told.push(x) });
    try {
      const transcript = new Transcript(undefined, 'r');
      const error = await c
        .send({ method: 'POST', path: `/reset/${SECRET}`, body: { token: SECRET } }, transcript)
        .catch((e: ExchangeError) => e);
      expect(error).toBeInstanceOf(ExchangeError);
      expect((error as ExchangeError).kind).toBe('reset');
      expect((error as ExchangeError).message.startsWith(`POST /reset/${REDACTED}: `)).toBe(true);
      expect(c.stats).toMatchObject({ requests: 1, failures: 1, resent_after_reset: 0 });
      expect(transcript.exchanges.map((x) => x.error?.kind)).toEqual(['reset']);
      expect(told.map((x) => [x.seq, x.error?.kind, x.request.body])).toEqual([
        [1, 'reset', `{"token":"${REDACTED}"}`],
      ]);
      expect(JSON.stringify([transcript.exchanges, told, String(error)])).not.toContain(SECRET);
    } finally {
      await c.close();
    }
  });

  it('a reset GET is sent once more, and both exchanges are recorded', async () => {
    const c = client();
    try {
      const transcript = new Transcript();
      await expect(c.send({ method: 'GET', path: '/reset/' }, transcript)).rejects.toMatchObject({ kind: 'reset' });
      expect(c.stats).toMatchObject({ requests: 2, failures: 2, resent_after_reset: 1 });
      expect(transcript.exchanges.map((x) => x.step)).toEqual([undefined, 'request (sent again after a reset)']);
    } finally {
      await c.close();
    }
  });

  it('a hang is a timeout in words; a body past the cap is too large but still an answer', async () => {
    const c = client({ timeoutMs: 300, maxResponseBytes: 4096 });
    try {
      const hang = await failing(c, 'GET', '/hang/');
      expect([hang.kind, hang.message]).toEqual(['timeout', 'GET /hang/: no complete response within 300 ms']);
      const big = await failing(c, 'GET', '/big/');
      expect([big.kind, big.message]).toEqual(['too_large', 'GET /big/: the response body is larger than the limit']);
      // Two failures, and the last was an answer all the same: no silence.
      expect(c.stats.failures).toBe(2);
      expect(c.answers.silence()).toBeUndefined();
    } finally {
      await c.close();
    }
  });

  it('a refused connection is refused, and an observer that throws breaks nothing', async () => {
    const closed = await listen(hostile);
    const url = closed.url;
    await closed.close();
    const c = new HttpClient({
      baseUrl: url,
      timeoutMs: 30_000,
      connections: 1,
      redactor: new Redactor(),
      onExchange: () => {
        throw new Error('disk full');
      },
    });
    try {
      const error = await c.send({ method: 'POST', path: '/x' }, new Transcript()).catch((e: unknown) => e);
      expect((error as ExchangeError).kind).toBe('refused');
    } finally {
      await c.close();
    }
  });

  it("an observer is told the request's top-level text fields as sent, and none when redaction changed the body", async () => {
    const told: [Parameters<ExchangeObserver>[0], Parameters<ExchangeObserver>[5]][] = [];
    const c = client({ onExchange: (x, _at, _origin, _sender, _res, fields) => void told.push([x, fields]) });
    try {
      const body: Record<string, unknown> = { supplier: 'S1', account: 'A1', count: 2, nested: { supplier: 'inner' } };
      const sending = c.send({ method: 'POST', path: '/echo/', body }, new Transcript());
      // A change after the request went out is not what was sent.
      body.supplier = 'changed';
      await sending;
      await c.send({ method: 'POST', path: '/echo/', body: { supplier: 'S1', secret: SECRET } }, new Transcript());
      await c.send({ method: 'POST', path: '/echo/', rawBody: '{"supplier":"S1"}' }, new Transcript());
      expect(told.map(([, fields]) => fields)).toEqual([{ supplier: 'S1', account: 'A1' }, undefined, undefined]);
      expect(JSON.parse(told[0][0].request.body!).supplier).toBe('S1');
    } finally {
      await c.close();
    }
  });

  it('an answer is recorded redacted, read unredacted by the rule, and its large-body share given back', async () => {
    const told: Parameters<ExchangeObserver>[0][] = [];
    const c = client({ onExchange: (x) => void told.push(x) });
    try {
      const transcript = new Transcript();
      const res = await c.send(
        { method: 'POST', path: '/echo/', headers: { authorization: `Token ${SECRET}` }, body: { s: SECRET } },
        transcript,
      );
      expect((res.json() as { auth: string }).auth).toBe(`Token ${SECRET}`);
      expect(JSON.stringify([transcript.exchanges, told])).not.toContain(SECRET);
      expect(told[0].response?.status).toBe(201);
      const large = await c.send({ method: 'GET', path: '/large/' }, transcript);
      expect(large.text.length).toBe(LARGE_BODY_BYTES + 12);
      expect([transcript.largeBodies, c.largeBodies.inUse, c.stats.failures]).toEqual([1, 0, 0]);
    } finally {
      await c.close();
    }
  });
});
