/**
 * Parsing an answer: once for all its readers, and never deeper than MAX_JSON_DEPTH (RFC 8259 §9
 * lets a parser limit nesting): a body nested past it reads as not JSON, saying why, and a rule that
 * needs it errors (not judged), never fails.
 */
import { describe, expect, it } from 'vitest';
import { HttpResponse } from '../../core/http/client.js';
import { ExchangeError } from '../../core/http/exchange.js';
import { MAX_JSON_DEPTH, TOO_DEEP, parseBody } from '../../core/http/shared-body.js';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('parseBody', () => {
  it('parses a body nested exactly MAX_JSON_DEPTH deep, and refuses one level more', () => {
    expect(parseBody(nested(MAX_JSON_DEPTH))).toHaveProperty('value');
    expect(parseBody(nested(MAX_JSON_DEPTH + 1))).toEqual({ error: TOO_DEEP });
    expect(parseBody(`{"a":${'{"a":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH)}}`)).toEqual({
      error: TOO_DEEP,
    });
  });

  it('counts no bracket inside a string, escaped quotes included', () => {
    const text = JSON.stringify({ note: `\\"${'['.repeat(MAX_JSON_DEPTH * 2)}"`, list: [[1]] });
    expect(parseBody(text)).toEqual({ value: JSON.parse(text) });
  });

  it('a string ending in a backslash ends at its quote: the nesting after it is counted', () => {
    const deep = `{"note":${JSON.stringify('x\\')},"list":${nested(MAX_JSON_DEPTH)}}`;
    expect(deep).toContain('"x\\\\"');
    expect(parseBody(deep)).toEqual({ error: TOO_DEEP });
    // The object is one level: the list inside it may take the other MAX_JSON_DEPTH - 1.
    expect(parseBody(`{"note":"x\\\\","list":${nested(MAX_JSON_DEPTH - 1)}}`)).toHaveProperty('value');
  });

  it('siblings do not add up: many shallow lists side by side are one level each', () => {
    const text = `[${Array.from({ length: MAX_JSON_DEPTH * 4 }, () => '[1]').join(',')}]`;
    expect(parseBody(text)).toHaveProperty('value');
  });

  it('reading such a body, as JSON or to ask whether it is, is an exchange error that names the depth', () => {
    const exchange = { request: { method: 'GET', url: '/v1/data-import/x/' } } as never;
    const res = new HttpResponse(200, { 'content-type': 'application/json' }, nested(100_000), exchange);
    // Neither JSON nor not JSON: the rule is not judged on it.
    expect(() => res.isJson).toThrow(ExchangeError);
    expect(() => res.json()).toThrow(ExchangeError);
    expect(() => res.json()).toThrow(`was not read: ${TOO_DEEP}`);
    expect(new HttpResponse(200, {}, 'not json', exchange).isJson).toBe(false);
    // Describing an answer (a setup step's refusal) reads what it can and never throws.
    expect(res.jsonIfRead()).toBeUndefined();
    expect(new HttpResponse(400, {}, '{"code":"invalid"}', exchange).jsonIfRead()).toEqual({ code: 'invalid' });
  });
});
