/** The one redactor every output goes through: secrets replaced in every spelling, in text and headers. */
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor, urlCredentials } from '../../core/http/redact.js';

describe('Redactor', () => {
  const secret = 'tok/en+4711';
  const redactor = new Redactor([secret, 'ab']);

  it('replaces a secret as written, URL-encoded and JSON-escaped; ignores strings too short to be secrets', () => {
    expect(
      redactor.text(`a ${secret} b ${encodeURIComponent(secret)} c ${JSON.stringify(`x"${secret}`).slice(1, -1)}`),
    ).toBe(`a ${REDACTED} b ${REDACTED} c x\\"${REDACTED}`);
    expect(redactor.text('abc')).toBe('abc');
  });

  it('keeps only the scheme of secret-bearing headers, and redacts a secret in any other header', () => {
    expect(redactor.headers({ Authorization: `Token ${secret}`, accept: 'application/json' })).toEqual({
      Authorization: `Token ${REDACTED}`,
      accept: 'application/json',
    });
    expect(redactor.headers({ authorization: `Token ${secret}`, 'x-echo': `seen ${secret}` })).toEqual({
      authorization: `Token ${REDACTED}`,
      'x-echo': `seen ${REDACTED}`,
    });
    expect(redactor.headers({ 'x-operator-key': secret, cookie: 'a=b' })).toEqual({
      'x-operator-key': REDACTED,
      cookie: REDACTED,
    });
  });

  it('leaves everything as it is when it knows no secret', () => {
    expect(new Redactor().headers({ authorization: 'Token x', 'x-echo': 'x' })).toEqual({
      authorization: `Token ${REDACTED}`,
      'x-echo': 'x',
    });
  });
});

describe('Redactor spellings and scale', () => {
  const u = (s: string) =>
    [...s]
      .flatMap((c) => [...Array(c.length).keys()].map((i) => c.charCodeAt(i)))
      .map((unit) => `\\u${unit.toString(16).padStart(4, '0')}`)
      .join('');

  it.each([
    ['non-ASCII and astral characters, as written', 'tök€n-😀-9', (s: string) => s],
    ['non-ASCII and astral characters, \\u-escaped (a surrogate pair for the astral one)', 'tök€n-😀-9', u],
    ['non-ASCII and astral characters, percent-encoded UTF-8', 'tök€n-😀-9', encodeURIComponent],
    [
      'non-ASCII and astral characters, JSON-quoted twice',
      'tök€n-😀-9',
      (s: string) => JSON.stringify(JSON.stringify(u(s))),
    ],
    [
      'HTML entities',
      'a&b<c>"d\'e',
      (s: string) =>
        s
          .replace(/&/g, '&amp;')
          .replace(/</g, '&lt;')
          .replace(/>/g, '&gt;')
          .replace(/"/g, '&quot;')
          .replace(/'/g, '&#39;'),
    ],
    ['a space written as +', 'two words 77', (s: string) => s.replace(/ /g, '+')],
    ['JSON-escaped quote and slash', 'q"u/o', (s: string) => JSON.stringify(s).slice(1, -1).replace(/\//g, '\\/')],
    ['an astral first character, as written', '😀tok-9x', (s: string) => s],
    ['an astral first character, \\u-escaped', '😀tok-9x', u],
    ['only its second character escaped', 'q"uote-9', (s: string) => JSON.stringify(s).slice(1, -1)],
    ['only its second character percent-encoded', 'a/b-c-d-9', (s: string) => s.replace('/', '%2F')],
  ])('finds a secret with %s', (_what, secret, spell) => {
    const spelled = spell(secret);
    const r = new Redactor([secret]);
    expect(r.leaks(`x ${spelled} y`)).toBe(true);
    expect(r.text(`x ${spelled} y`)).not.toContain(spelled);
    expect(r.leaks(r.text(`x ${spelled} y`))).toBe(false);
  });

  it('finds each of a thousand secrets, the longest where one is the prefix of another', () => {
    const secrets = Array.from({ length: 1000 }, (_, i) => `tok-${i.toString(36)}-${'k'.repeat(i % 7)}`);
    const r = new Redactor([...secrets, 'prefix-1234', 'prefix-12345678']);
    for (const s of secrets) expect(r.text(`[${s}]`), s).toBe(`[${REDACTED}]`);
    expect(r.text('prefix-12345678 prefix-1234 prefix-12')).toBe(`${REDACTED} ${REDACTED} prefix-12`);
    expect(r.text('no secret here, only \\"quotes\\" and %41 and &amp;')).toBe(
      'no secret here, only \\"quotes\\" and %41 and &amp;',
    );
  });

  it('finds a one-unit secret registered with the matcher, next to any character', async () => {
    const { SecretMatcher } = await import('../../core/http/secret-matcher.js');
    const m = new SecretMatcher();
    m.add('longer-secret');
    m.add('Z');
    expect(m.replace('aZb ZZ longer-secret', '*')).toBe('a*b ** *');
  });

  it('learns header names whose values are secrets', () => {
    const r = new Redactor();
    r.secretHeader('X-Gateway-Key');
    expect(r.headers({ 'x-gateway-key': 'gw-1234', accept: 'x' })).toEqual({ 'x-gateway-key': REDACTED, accept: 'x' });
  });
});

describe('urlCredentials', () => {
  it('finds the username and password as written, normalised and decoded', () => {
    expect(urlCredentials('https://deploy%40bot:p%3Ass@host/x')).toEqual([
      'deploy%40bot',
      'deploy@bot',
      'p%3Ass',
      'p:ss',
    ]);
    expect(urlCredentials('https://TOKEN-1234@host')).toEqual(['TOKEN-1234']);
    expect(urlCredentials('https://host/a@b')).toEqual([]);
  });

  it('keeps a part that is not valid percent-encoding as written (it is still a secret)', () => {
    expect(urlCredentials('https://user:%zz-secret@host')).toEqual(['user', '%zz-secret']);
  });

  it('finds them by shape in a URL the parser refuses', () => {
    expect(urlCredentials('https://us er:pa ss@host name')).toEqual(['us er', 'pa ss']);
  });
});

describe('SecretMatcher without escapes', () => {
  // A text with no backslash, percent sign, + or & can spell a secret only as written: the matcher
  // then searches for each secret by itself (a handful of them), and must find exactly what the
  // walk of its trie finds — the first start, the longest secret there.
  const naive = (secrets: string[], text: string, from: number): [number, number] | undefined => {
    let best: [number, number] | undefined;
    for (let at = from; at < text.length && !best; at++)
      for (const s of secrets)
        if (text.startsWith(s, at) && (!best || at + s.length > best[1])) best = [at, at + s.length];
    return best;
  };

  it('finds the first start and the longest secret there, as the trie does', async () => {
    const { SecretMatcher } = await import('../../core/http/secret-matcher.js');
    const fc = (await import('fast-check')).default;
    const alphabet = fc.constantFrom('a', 'b', 'c', '😀', 'é', ' ', '"');
    const word = fc.array(alphabet, { minLength: 1, maxLength: 5 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 6 }),
        fc.array(alphabet, { maxLength: 40 }).map((cs) => cs.join('')),
        fc.nat(10),
        (secrets, text, from) => {
          const m = new SecretMatcher();
          for (const s of secrets) m.add(s);
          expect(m.find(text, from)).toEqual(naive(secrets, text, from));
        },
      ),
    );
  });

  it('still finds escaped spellings once a text has an escape, wherever it is', async () => {
    const { SecretMatcher } = await import('../../core/http/secret-matcher.js');
    const m = new SecretMatcher();
    m.add('tok-123456');
    const escaped = 'tok-123456'.replace('-', '%2D');
    expect(m.find(`plain text ${escaped}`)).toEqual([11, 11 + escaped.length]);
    // From the escape on, the trie; from past it, the search as written: the same answer.
    expect(m.find(`${escaped} then plain tok-123456`, 3)).toEqual([24, 34]);
    expect(m.find(`${escaped} then plain tok-123456`, 4)).toEqual([24, 34]);
    expect(m.replace('a tok-123456 b', '*')).toBe('a * b');
  });

  it('measures a text again once a secret a + can spell is added', async () => {
    const { SecretMatcher } = await import('../../core/http/secret-matcher.js');
    const m = new SecretMatcher();
    m.add('tok-123456');
    const text = 'x two+words+secret y';
    expect(m.find(text)).toBeUndefined();
    m.add('two words secret');
    expect(m.find(text)).toEqual([2, 18]);
  });
});
