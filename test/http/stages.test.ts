/**
 * The client's stages, each alone (core/http/stages/): what each returns and what it writes, for
 * the inputs each failure kind brings. The whole pipeline against real sockets is in
 * test/http/stages-wire.test.ts; against the reference server, every run.
 */
import { errors as undiciErrors } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { AnswerLog, SILENCE_AFTER } from '../../core/http/answers.js';
import { type Exchange, TRANSCRIPT_BODY_LIMIT } from '../../core/http/exchange.js';
import { LatencyGauge } from '../../core/http/latency.js';
import { RateLimiter } from '../../core/http/rate-limit.js';
import { REDACTED, Redactor } from '../../core/http/redact.js';
import { SharedBody } from '../../core/http/shared-body.js';
import { type Answer, DeadlineExceeded } from '../../core/http/stages/bound.js';
import { classify, failureOf } from '../../core/http/stages/failure.js';
import {
  type ExchangeObserver,
  type Sender,
  type Watch,
  observeAnswer,
  observeFailure,
  wholeRequest,
} from '../../core/http/stages/observe.js';
import { depart, paced } from '../../core/http/stages/pace.js';
import { type Ledger, type Sent, recordAnswer, recordFailure } from '../../core/http/stages/record.js';
import { redactAnswer, redactRequest } from '../../core/http/stages/redact.js';
import { wireRequest } from '../../core/http/stages/send.js';
import { Transcript } from '../../core/http/transcript.js';

const SECRET = 'sekret-token-0042';
const redactor = () => new Redactor([SECRET]);

describe('send: the request as it goes on the wire', () => {
  it('asks for JSON, declares a JSON body, and lets the request replace the configured headers', () => {
    const wire = wireRequest(
      { method: 'POST', path: '/x', body: { a: 1 }, headers: { authorization: 'Token mine' } },
      '/base/x?q=1',
      { authorization: 'Token configured', 'x-gateway': 'g' },
    );
    expect(wire).toEqual({
      method: 'POST',
      path: '/base/x?q=1',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: 'Token mine',
        'x-gateway': 'g',
      },
      payload: '{"a":1}',
      // The top-level text fields as serialised (none here): what an observer reads without parsing.
      fields: {},
    });
    expect(wireRequest({ method: 'POST', path: '/x', body: { a: 'A', b: 2, c: { d: 'D' } } }, '/x').fields).toEqual({
      a: 'A',
    });
  });

  it('sends a raw body as is, over a JSON one; without a body there is no content type', () => {
    expect(wireRequest({ method: 'POST', path: '/x', body: { a: 1 }, rawBody: 'not json' }, '/x').payload).toBe(
      'not json',
    );
    const bare = wireRequest({ method: 'GET', path: '/x' }, '/x');
    expect(bare.payload).toBeUndefined();
    expect(bare.headers).toEqual({ accept: 'application/json' });
    // A rule may take the content type away or change it on purpose.
    expect(
      wireRequest({ method: 'POST', path: '/x', rawBody: 'a=1', headers: { 'content-type': 'text/plain' } }, '/x')
        .headers['content-type'],
    ).toBe('text/plain');
  });
});

describe('redact: what is recorded of a request and an answer', () => {
  const wire = {
    method: 'POST',
    path: `/x?token=${SECRET}`,
    headers: { authorization: `Token ${SECRET}`, 'x-echo': `seen ${SECRET}` },
    payload: JSON.stringify({ secret: SECRET, pad: 'p'.repeat(TRANSCRIPT_BODY_LIMIT) }),
  };

  it('replaces the secret in the URL, the headers and the body, clipped for a transcript and whole for an observer', () => {
    const { recorded, body } = redactRequest(redactor(), wire);
    expect(JSON.stringify(recorded)).not.toContain(SECRET);
    expect(recorded.url).toBe(`/x?token=${REDACTED}`);
    expect(recorded.headers).toEqual({ authorization: `Token ${REDACTED}`, 'x-echo': `seen ${REDACTED}` });
    expect(recorded.body_truncated).toBe(true);
    expect(recorded.body?.length).toBe(TRANSCRIPT_BODY_LIMIT + 1); // the clip and its ellipsis
    expect(body).toBe(wire.payload.replace(SECRET, REDACTED));
    expect(recorded.body?.slice(0, 100)).toBe(body?.slice(0, 100));
  });

  it('records no body for a request without one', () => {
    const { recorded, body } = redactRequest(redactor(), { ...wire, payload: undefined });
    expect(body).toBeUndefined();
    expect('body' in recorded).toBe(false);
  });

  it('redacts an answer whole: its text and its headers', () => {
    const seen = redactAnswer(redactor(), {
      headers: { 'set-cookie': `s=${SECRET}`, 'x-a': SECRET },
      text: `{"t":"${SECRET}"}`,
    });
    expect(seen).toEqual({ headers: { 'set-cookie': REDACTED, 'x-a': REDACTED }, text: `{"t":"${REDACTED}"}` });
  });
});

describe('pace: the rate limit, then departure', () => {
  it('does not wait without a limit, and waits with one', async () => {
    expect(paced(undefined)).toBeUndefined();
    const limiter = new RateLimiter(1);
    await paced(limiter); // the first goes at once
    let second = false;
    const wait = paced(limiter)?.then(() => (second = true));
    expect(wait).toBeInstanceOf(Promise);
    await Promise.resolve();
    expect(second).toBe(false); // spaced a second after the first
  });

  it('counts and numbers each request in the order it departs', () => {
    const stats = { requests: 0 };
    const answers = new AnswerLog();
    const first = depart(stats, answers);
    const second = depart(stats, answers);
    expect([stats.requests, first.n, second.n]).toEqual([2, 1, 2]);
    expect(second.started).toBeGreaterThanOrEqual(first.started);
    expect(first.startedAt).toBeInstanceOf(Date);
  });
});

describe('failure: the kind and words of a broken exchange', () => {
  it('names each kind undici and the deadline throw', () => {
    const coded = (code: string) => Object.assign(new Error('x'), { code });
    expect(classify(new undiciErrors.ResponseExceededMaxSizeError())).toBe('too_large');
    expect(classify(new DeadlineExceeded())).toBe('timeout');
    expect(classify(new undiciErrors.HeadersTimeoutError())).toBe('timeout');
    expect(classify(new undiciErrors.BodyTimeoutError())).toBe('timeout');
    expect(classify(new undiciErrors.ConnectTimeoutError())).toBe('timeout');
    expect(classify(coded('ECONNREFUSED'))).toBe('refused');
    expect(classify(new Error('fetch failed', { cause: coded('ECONNRESET') }))).toBe('reset');
    expect(classify(new undiciErrors.SocketError('other side closed'))).toBe('reset');
    expect(classify(coded('EPIPE'))).toBe('reset');
    expect(classify(new TypeError('boom'))).toBe('other');
  });

  it('says the deadline for a timeout, and otherwise undici words with their code, redacted', () => {
    expect(failureOf(new DeadlineExceeded(), 250, redactor())).toEqual({
      kind: 'timeout',
      message: 'no complete response within 250 ms',
    });
    expect(failureOf(new undiciErrors.ResponseExceededMaxSizeError(), 250, redactor())).toEqual({
      kind: 'too_large',
      message: 'the response body is larger than the limit',
    });
    const leaky = Object.assign(new Error(`connect to https://${SECRET}@host failed`), { code: 'ECONNREFUSED' });
    const { kind, message } = failureOf(leaky, 250, redactor());
    expect(kind).toBe('refused');
    expect(message).not.toContain(SECRET);
    expect(message).toMatch(/failed \(ECONNREFUSED\)$/);
  });
});

function ledger(): Ledger {
  return { answers: new AnswerLog(), latency: new LatencyGauge(), stats: { failures: 0 } };
}

function sentFrom(l: Ledger, step?: string): Sent {
  const { recorded } = redactRequest(redactor(), {
    method: 'GET',
    path: `/s/${SECRET}`,
    headers: {},
    payload: undefined,
  });
  return { step, request: recorded, departure: depart({ requests: 0 }, l.answers) };
}

const answer = (status: number, text: string, waitedMs = 0): Answer => ({
  status,
  headers: { 'content-type': 'application/json' },
  text,
  waitedMs,
});

describe('record: the transcript and the run ledgers', () => {
  it('records an answer clipped, its size in bytes as read, under the step it was sent with', () => {
    const l = ledger();
    const transcript = new Transcript();
    transcript.step = 'now';
    const text = `"${'é'.repeat(TRANSCRIPT_BODY_LIMIT)}"`;
    const exchange = recordAnswer(transcript, l, sentFrom(l, 'then'), answer(503, text), { headers: {}, text });
    expect(transcript.exchanges).toEqual([exchange]);
    expect(exchange.step).toBe('then');
    expect(exchange.request.url).toBe(`/s/${REDACTED}`);
    expect(exchange.response).toMatchObject({ status: 503, body_truncated: true, bytes: Buffer.byteLength(text) });
    expect(exchange.duration_ms).toBeGreaterThanOrEqual(0);
    expect([l.latency.median(), l.latency.unavailable]).toEqual([exchange.duration_ms, 1]);
  });

  it("leaves the large-body wait out of the target's time; a failure's time is all the target's", () => {
    const l = ledger();
    const now = vi.spyOn(performance, 'now');
    try {
      now.mockReturnValue(1_000);
      const sent = sentFrom(l); // departs at 1000
      now.mockReturnValue(1_900);
      const waited = recordAnswer(new Transcript(), l, sent, answer(200, '{}', 300), { headers: {}, text: '{}' });
      const failed = recordFailure(new Transcript(), l, sent, new DeadlineExceeded(), {
        timeoutMs: 1,
        redactor: redactor(),
      });
      expect([waited.duration_ms, failed.duration_ms]).toEqual([600, 900]);
    } finally {
      now.mockRestore();
    }
  });

  it('an exchange without a step of its own takes its transcript step when recorded', () => {
    const l = ledger();
    const transcript = new Transcript();
    transcript.step = 'current';
    expect(recordAnswer(transcript, l, sentFrom(l), answer(200, '{}'), { headers: {}, text: '{}' }).step).toBe(
      'current',
    );
  });

  it('records a reset as a failure with no answer: enough of them after an answer is silence', () => {
    const l = ledger();
    recordAnswer(new Transcript(), l, sentFrom(l), answer(200, '{}'), { headers: {}, text: '{}' });
    const transcript = new Transcript();
    const reset = Object.assign(new Error(`socket hang up ${SECRET}`), { code: 'ECONNRESET' });
    for (let i = 0; i < SILENCE_AFTER; i++) {
      const failed = recordFailure(transcript, l, sentFrom(l, 'probe'), reset, {
        timeoutMs: 100,
        redactor: redactor(),
      });
      expect(failed.error.kind).toBe('reset');
      expect(failed.error.message).not.toContain(SECRET);
      expect(failed.step).toBe('probe');
      expect('response' in failed).toBe(false);
    }
    expect(l.stats.failures).toBe(SILENCE_AFTER);
    expect(transcript.exchanges).toHaveLength(SILENCE_AFTER);
    expect(l.answers.silence()?.unanswered).toBe(SILENCE_AFTER);
    expect(l.latency.median()).not.toBeUndefined(); // failures do not move the latency gauge
  });

  it('records a body too large as a failure that was still an answer; a timeout is neither', () => {
    const l = ledger();
    recordAnswer(new Transcript(), l, sentFrom(l), answer(200, '{}'), { headers: {}, text: '{}' });
    const words = { timeoutMs: 100, redactor: redactor() };
    const reset = Object.assign(new Error('reset'), { code: 'ECONNRESET' });
    recordFailure(new Transcript(), l, sentFrom(l), reset, words);
    // An answer too large since: the target is answering, the silence is over.
    recordFailure(new Transcript(), l, sentFrom(l), new undiciErrors.ResponseExceededMaxSizeError(), words);
    recordFailure(new Transcript(), l, sentFrom(l), reset, words);
    expect(l.answers.silence()).toBeUndefined();
    const timedOut = recordFailure(new Transcript(), l, sentFrom(l), new DeadlineExceeded(), words);
    expect(timedOut.error).toEqual({ kind: 'timeout', message: 'no complete response within 100 ms' });
    expect(l.answers.silence()).toBeUndefined(); // a timeout is not counted as silence
    expect(l.stats.failures).toBe(4);
  });
});

describe('observe: every exchange told whole, redacted', () => {
  function watching(deliberate?: Watch['deliberate']) {
    const told: Parameters<ExchangeObserver>[] = [];
    const transcript = new Transcript(undefined, 'some.rule');
    const watch: Watch = {
      observer: (...args) => void told.push(args),
      origin: 'http://target',
      transcript,
      deliberate,
      departure: { n: 7, started: performance.now(), startedAt: new Date(0) },
    };
    return { told, transcript, watch };
  }
  const request = redactRequest(redactor(), {
    method: 'POST',
    path: '/x',
    headers: { authorization: `Token ${SECRET}` },
    payload: `"${'b'.repeat(TRANSCRIPT_BODY_LIMIT)}${SECRET}"`,
  });

  it('tells the whole redacted bodies, numbered as the run numbered the request, with the step current when it completes', () => {
    const { told, transcript, watch } = watching();
    const text = `{"k":"${'r'.repeat(TRANSCRIPT_BODY_LIMIT)}"}`;
    const exchange = recordAnswer(
      transcript,
      ledger(),
      { step: 'sent', request: request.recorded, departure: watch.departure },
      answer(200, text),
      { headers: {}, text },
    );
    transcript.step = 'later';
    const shared = new SharedBody(text);
    observeAnswer(watch, request, exchange, text, shared);
    expect(told).toHaveLength(1);
    const [seen, startedAt, origin, , response] = told[0];
    expect([seen.seq, seen.step, startedAt, origin]).toEqual([7, 'later', new Date(0), 'http://target']);
    expect(seen.request.body).toBe(request.body);
    expect(seen.request.body).not.toContain(SECRET);
    expect(seen.response).toEqual({ status: 200, headers: {}, body: text, bytes: Buffer.byteLength(text) });
    expect(response).toBe(shared);
  });

  it('shares the parsed body only when redaction changed nothing the rule reads', () => {
    const { told, transcript, watch } = watching();
    const read = `{"k":"${SECRET}"}`;
    const seen = redactAnswer(redactor(), { headers: {}, text: read });
    const exchange = recordAnswer(
      transcript,
      ledger(),
      { step: undefined, request: request.recorded, departure: watch.departure },
      answer(200, read),
      seen,
    );
    observeAnswer(watch, request, exchange, seen.text, new SharedBody(read));
    expect(told[0][0].response?.body).toBe(`{"k":"${REDACTED}"}`);
    expect(told[0][4]).toBeUndefined();
  });

  it('names the sender, and works out what it broke on purpose only when read, once', () => {
    let asked = 0;
    const { told, transcript, watch } = watching(() => {
      asked++;
      return 'no Authorization header';
    });
    const failed = recordFailure(
      transcript,
      ledger(),
      { step: undefined, request: request.recorded, departure: watch.departure },
      new DeadlineExceeded(),
      { timeoutMs: 5, redactor: redactor() },
    );
    observeFailure(watch, request, failed);
    expect(asked).toBe(0);
    const sender = told[0][3] as Sender;
    expect([sender.rule, sender.deliberate, sender.deliberate, asked]).toEqual([
      'some.rule',
      'no Authorization header',
      'no Authorization header',
      1,
    ]);
    expect(told[0][0].error).toEqual({ kind: 'timeout', message: 'no complete response within 5 ms' });
    expect('response' in told[0][0]).toBe(false);
  });

  it('tells no sender for a transcript without one, and survives an observer that throws', () => {
    const transcript = new Transcript();
    let calls = 0;
    const watch: Watch = {
      observer: (_x, _at, _origin, sender) => {
        calls++;
        expect(sender).toBeUndefined();
        throw new Error('disk full');
      },
      origin: 'http://target',
      transcript,
      deliberate: undefined,
      departure: { n: 1, started: 0, startedAt: new Date(0) },
    };
    const failed: Exchange = {
      seq: 1,
      request: request.recorded,
      error: { kind: 'reset', message: 'x' },
      duration_ms: 1,
    };
    expect(() => observeFailure(watch, request, failed)).not.toThrow();
    expect(calls).toBe(1);
  });

  it('the whole request is the recorded one with the body whole', () => {
    const whole = wholeRequest(request);
    expect(whole.body).toBe(request.body);
    expect(whole.headers).toBe(request.recorded.headers);
    expect(wholeRequest({ recorded: { method: 'GET', url: '/', headers: {} }, body: undefined })).toEqual({
      method: 'GET',
      url: '/',
      headers: {},
    });
  });
});
