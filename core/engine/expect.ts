/**
 * Assertions of rules. A broken expectation is a RuleFailure (verdict fail) that says precisely
 * what was expected, what came back, and the JSON path of the first difference. Its `expectation`
 * says what was expected in the suite's words alone (the rule's label, the status or shape), with
 * nothing the target sent: a baseline's `reason` is matched against it (baseline.ts), so quoted
 * target text can never excuse a failure. `that` has none: its message is the rule's own sentence
 * with the values it found written into it.
 */
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { MAX_DEPTH, boundedValue, capText, showControls } from '../http/bounds.js';
import type { HttpResponse } from '../http/client.js';
import { model } from '../spec/index.js';
import { RuleFailure } from './failures.js';
import { describeIssues, documentedShape, quote } from './judgements.js';

const request = (res: HttpResponse) => `${res.exchange.request.method} ${res.exchange.request.url}`;

/**
 * The start of a body quoted in a message: cut at `max` characters with its size said, control
 * characters (newlines, ESC) written out, so a target's text can neither flood nor forge a line.
 */
export function snippet(text: string, max = 300): string {
  if (text.length === 0) return '(empty body)';
  return showControls(capText(text, max));
}

/** The first path at which two JSON values differ (no deeper than MAX_DEPTH: a hostile value may nest 100k levels). */
export function firstDifference(actual: unknown, expected: unknown, path = '', depth = 0): string | undefined {
  if (isDeepStrictEqual(actual, expected)) return undefined;
  if (depth >= MAX_DEPTH) return `${path}…`;
  if (Array.isArray(actual) && Array.isArray(expected)) {
    for (let i = 0; i < Math.max(actual.length, expected.length); i++) {
      const d = firstDifference(actual[i], expected[i], `${path}[${i}]`, depth + 1);
      if (d !== undefined) return d;
    }
  } else if (
    actual &&
    expected &&
    typeof actual === 'object' &&
    typeof expected === 'object' &&
    !Array.isArray(actual) &&
    !Array.isArray(expected)
  ) {
    const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
    for (const k of keys) {
      const d = firstDifference(
        (actual as Record<string, unknown>)[k],
        (expected as Record<string, unknown>)[k],
        `${path}.${k}`,
        depth + 1,
      );
      if (d !== undefined) return d;
    }
  }
  return path || '(root)';
}

export interface Expect {
  /** The response status is the one (or one of those) the spec documents. */
  status(res: HttpResponse, expected: number | readonly number[], what?: string): void;
  /**
   * Refused with a client error (4xx): for requests the spec says are refused or "get an error"
   * without naming the status, where any 4xx is true to it.
   */
  refused(res: HttpResponse, what: string): void;
  /** The JSON body matches a response schema of the spec model; returns the parsed value. */
  body<S extends z.ZodType>(res: HttpResponse, schema: S, what: string): z.output<S>;
  /**
   * A validation error (§7.2 400), told from the other 400s of §7.2 (a dry run that would succeed,
   * an account already imported, a transaction import failure) by its §7.1 body: `{detail, code,
   * errors: [{detail, code, attr}]}` with at least one error. Codes, wording and attrs are not
   * compared (`non_field_errors` is as good as a field's path, §7.1). `or` names another body the
   * spec allows for this endpoint's validation errors (§4.2: the transactions 400).
   */
  validationError(res: HttpResponse, what: string, or?: { schema: z.ZodType; name: string }): void;
  /** Deep equality of JSON values, reporting the first differing path. */
  equal(actual: unknown, expected: unknown, what: string, res?: HttpResponse): void;
  /** Any other condition; the message states what the spec requires. */
  that(
    condition: boolean,
    message: string,
    detail?: { expected?: unknown; actual?: unknown; res?: HttpResponse },
  ): void;
}

export const expect: Expect = {
  /** The response status is the one (or one of those) the spec documents. */
  status(res: HttpResponse, expected: number | readonly number[], what?: string): void {
    const allowed = typeof expected === 'number' ? [expected] : expected;
    if (allowed.includes(res.status)) return;
    throw new RuleFailure({
      message: `${what ? `${what}: ` : ''}expected ${allowed.join(' or ')} from ${request(res)}, got ${res.status}: ${snippet(res.text)}`,
      expectation: `${what ? `${what}: ` : ''}expected ${allowed.join(' or ')}`,
      expected: allowed.length === 1 ? allowed[0] : allowed,
      actual: res.status,
      path: 'status',
      exchange_seq: res.exchange.seq,
    });
  },

  refused(res: HttpResponse, what: string): void {
    if (res.status >= 400 && res.status < 500) return;
    throw new RuleFailure({
      message: `${what} must be refused with a 4xx, got ${res.status} from ${request(res)}: ${snippet(res.text)}`,
      expectation: `${what} must be refused with a 4xx`,
      expected: '4xx',
      actual: res.status,
      path: 'status',
      exchange_seq: res.exchange.seq,
    });
  },

  /** The JSON body matches a response schema of the spec model; returns the parsed value. */
  body<S extends z.ZodType>(res: HttpResponse, schema: S, what: string): z.output<S> {
    const shape = documentedShape(schema, res.json());
    if (shape.ok) return shape.data;
    const { problems, path } = describeIssues(shape.issues);
    throw new RuleFailure({
      message: `${what}: the body of ${request(res)} (${res.status}) does not match: ${problems}`,
      expectation: `${what}: the body matches the documented shape`,
      path,
      actual: snippet(res.text),
      exchange_seq: res.exchange.seq,
    });
  },

  validationError(res: HttpResponse, what: string, or?: { schema: z.ZodType; name: string }): void {
    expect.status(res, 400, what);
    const json = res.isJson ? res.json() : undefined;
    // Judged on the documented fields alone, as every response body is (judgements.ts).
    const parsed = documentedShape(model.ValidationErrorBody, json);
    if (parsed.ok && parsed.data.errors.length > 0) return;
    if (or && documentedShape(or.schema, json).ok) return;
    throw new RuleFailure({
      message: `${what}: a validation error must carry the §7.1 body {detail, code, errors: [{detail, code, attr}]} with at least one error${or ? ` (or ${or.name})` : ''}; the 400 of ${request(res)} has another body, as the other 400s of §7.2 do (a dry run, an account already imported): ${snippet(res.text)}`,
      expectation: `${what}: a validation error carries the §7.1 body`,
      expected: '§7.1 validation error body',
      actual: snippet(res.text),
      path: 'body',
      exchange_seq: res.exchange.seq,
    });
  },

  /** Deep equality of JSON values, reporting the first differing path. */
  equal(actual: unknown, expected: unknown, what: string, res?: HttpResponse): void {
    const at = firstDifference(actual, expected);
    if (at === undefined) return;
    throw new RuleFailure({
      message: `${what}: expected ${quote(expected)}, got ${quote(actual)}${at !== '(root)' ? ` (first difference at ${showControls(capText(at, 300))})` : ''}`,
      // The label alone: the expected value may be one the target showed earlier (an account's number).
      expectation: what,
      expected: boundedValue(expected),
      actual: boundedValue(actual),
      path: capText(at, 300),
      exchange_seq: res?.exchange.seq,
    });
  },

  /** Any other condition; the message states what the spec requires. */
  that(
    condition: boolean,
    message: string,
    detail: { expected?: unknown; actual?: unknown; res?: HttpResponse } = {},
  ): void {
    if (condition) return;
    throw new RuleFailure({
      message: capText(message, 4 * 1024),
      expected: boundedValue(detail.expected),
      actual: boundedValue(detail.actual),
      exchange_seq: detail.res?.exchange.seq,
    });
  },
};
