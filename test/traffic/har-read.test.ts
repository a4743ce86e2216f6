/**
 * A HAR file is input like a config file: a field the exchanges are built from that is missing or
 * of the wrong type is named with its path, never a TypeError; a status that is no HTTP status is an
 * exchange without a response, never a response report.json cannot hold.
 */
import { describe, expect, it } from 'vitest';
import { HarError, fromHar } from '../../app/traffic/har-read.js';

const entry = (i = 0): Record<string, any> => ({
  startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  time: 4,
  request: {
    method: 'post',
    url: `https://staging.example/base/v1/data-import/notes/create/?i=${i}`,
    headers: [{ name: 'Authorization', value: 'Token t0k3n-value' }],
    postData: { mimeType: 'application/json', text: '{"notes":[]}' },
  },
  response: {
    status: 201,
    headers: [{ name: 'Content-Type', value: 'application/json' }],
    content: { mimeType: 'application/json', text: '[]' },
  },
});
const har = (entries: unknown[]) => JSON.stringify({ log: { version: '1.2', entries } });
const withField = (i: number, edit: (e: Record<string, any>) => void) => {
  const entries = [entry(0), entry(1), entry(2), entry(3)];
  edit(entries[i]);
  return har(entries);
};
const refusal = (text: string) => {
  try {
    fromHar(text);
  } catch (error) {
    expect(error).toBeInstanceOf(HarError);
    return (error as Error).message;
  }
  throw new Error('the HAR was read');
};

describe('a malformed HAR is refused, naming the field', () => {
  const cases: [string, number, (e: Record<string, any>) => void, string][] = [
    [
      'request.headers not an array',
      3,
      (e) => (e.request.headers = 'Authorization: x'),
      'log.entries[3].request.headers: expected an array',
    ],
    [
      'response.status a string',
      0,
      (e) => (e.response.status = '200'),
      'log.entries[0].response.status: expected a number',
    ],
    [
      'startedDateTime garbage',
      1,
      (e) => (e.startedDateTime = 'yesterday-ish'),
      'log.entries[1].startedDateTime: expected a date-time',
    ],
    [
      'startedDateTime missing',
      2,
      (e) => delete e.startedDateTime,
      'log.entries[2].startedDateTime: expected a string (missing)',
    ],
    [
      'postData.text a number',
      2,
      (e) => (e.request.postData.text = 42),
      'log.entries[2].request.postData.text: expected a string',
    ],
    [
      'a header name a number',
      0,
      (e) => (e.request.headers[0].name = 7),
      'log.entries[0].request.headers[0].name: expected a string',
    ],
    [
      'a URL that is not one',
      1,
      (e) => (e.request.url = '/no/origin'),
      'log.entries[1].request.url: expected an absolute URL',
    ],
    [
      'the method missing',
      0,
      (e) => delete e.request.method,
      'log.entries[0].request.method: expected a string (missing)',
    ],
    [
      'response content text an object',
      3,
      (e) => (e.response.content.text = { a: 1 }),
      'log.entries[3].response.content.text: expected a string',
    ],
    ['time a string', 0, (e) => (e.time = '4ms'), 'log.entries[0].time: expected a number'],
  ];
  for (const [what, i, edit, message] of cases)
    it(what, () => {
      expect(refusal(withField(i, edit))).toBe(message);
    });

  it('an entry that is not an object, and a file with no entries array', () => {
    expect(refusal(har([entry(0), null]))).toBe('log.entries[1]: expected an object');
    expect(refusal('{"log":{"entries":{}}}')).toBe('log.entries: expected an array (not a HAR 1.2 file)');
    expect(refusal('[1]')).toBe('log.entries: expected an array (not a HAR 1.2 file)');
    expect(refusal('{"log":')).toMatch(/^not JSON: /);
  });

  it('the well-formed entries around them are read as before', () => {
    const { exchanges, origins } = fromHar(har([entry(1), entry(0)]));
    expect(origins).toEqual(['https://staging.example']);
    expect(exchanges.map((e) => [e.seq, e.request.method, e.request.url, e.response?.status])).toEqual([
      [1, 'POST', '/v1/data-import/notes/create/?i=0', 201],
      [2, 'POST', '/v1/data-import/notes/create/?i=1', 201],
    ]);
    expect(exchanges[0].request.headers).toEqual({ authorization: 'Token t0k3n-value' });
    expect(exchanges[0].request.body).toBe('{"notes":[]}');
  });
});

describe('a status that is not an HTTP status is an exchange with an error, not a response', () => {
  for (const status of [1.5, 1e308, 99, 600, -200, Number.MAX_SAFE_INTEGER])
    it(`status ${status}`, () => {
      const [exchange] = fromHar(withField(0, (e) => (e.response.status = status))).exchanges.filter((e) =>
        e.request.url.endsWith('i=0'),
      );
      expect(exchange.response).toBeUndefined();
      expect(exchange.error).toEqual({
        kind: 'other',
        message: `malformed response: status ${status} is not an HTTP status (an integer of 100-599)`,
      });
    });

  it('status 0 is a request that got no response (as browsers write it), 100 and 599 are responses', () => {
    const statuses = fromHar(
      har([0, 100, 599].map((status, i) => ({ ...entry(i), response: { ...entry(i).response, status } }))),
    ).exchanges.map((e) => e.response?.status ?? e.error?.message);
    expect(statuses).toEqual(['no response recorded', 100, 599]);
  });
});

describe("a run's marks (_conformance)", () => {
  it('are read back with the exchange, and a malformed one is refused naming the field', () => {
    const marked = withField(1, (e) => {
      e._conformance = { rule: 'auth.401.create-notes', deliberate: 'no Authorization header' };
    });
    const { exchanges } = fromHar(marked);
    expect(exchanges[1].sentBy).toEqual({ rule: 'auth.401.create-notes', deliberate: 'no Authorization header' });
    expect(exchanges[0].sentBy).toBeUndefined();
    expect(
      refusal(
        withField(2, (e) => {
          e._conformance = { rule: 7 };
        }),
      ),
    ).toMatch(/^log\.entries\[2\]\._conformance\.rule: expected a string/);
  });
});
