/** The one redactor every output goes through: secrets replaced in every spelling, in text and headers. */
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from '../../core/http/redact.js';

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
