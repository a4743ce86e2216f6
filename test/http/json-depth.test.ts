/**
 * One depth scan for the runner's answers and the reference server's request bodies
 * (core/http/json-depth.ts): fed whole or in pieces cut anywhere — inside a string, after a
 * backslash — it finds the nesting the parsed value has, counting no bracket inside a string.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DepthScan, exceedsJsonDepth } from '../../core/http/json-depth.js';

/** The nesting of arrays and objects in a parsed value. */
const depthOf = (v: unknown): number =>
  Array.isArray(v)
    ? 1 + Math.max(0, ...v.map(depthOf))
    : typeof v === 'object' && v !== null
      ? 1 + Math.max(0, ...Object.values(v).map(depthOf))
      : 0;

/** Scans `text` in pieces cut at `cuts`. */
function scanInPieces(text: string, limit: number, cuts: number[]): boolean {
  const scan = new DepthScan(limit);
  let from = 0;
  for (const at of [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)) {
    scan.scan(text.slice(from, at));
    from = at;
  }
  scan.scan(text.slice(from));
  return scan.exceeded;
}

// Strings full of what the scan must not count: quotes, backslashes and brackets.
const tricky = fc.string({ unit: fc.constantFrom('"', '\\', '[', ']', '{', '}', 'a', ' ', 'ñ') });
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, tricky, fc.integer(), tie('list'), tie('object')),
  list: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(tricky, tie('value'), { maxKeys: 4 }),
})).value;

describe('the JSON depth scan', () => {
  it('finds the nesting of the parsed value, whole or cut into pieces anywhere', () => {
    fc.assert(
      fc.property(json, fc.array(fc.nat(), { maxLength: 6 }), (value, cuts) => {
        const text = JSON.stringify(value);
        const depth = depthOf(value);
        for (const limit of [Math.max(0, depth - 1), depth]) {
          expect(exceedsJsonDepth(text, limit)).toBe(depth > limit);
          expect(scanInPieces(text, limit, cuts)).toBe(depth > limit);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a piece ending on a backslash inside a string escapes the first character of the next', () => {
    const scan = new DepthScan(1);
    scan.scan('{"a":"x\\');
    scan.scan('"[[[[');
    expect(scan.exceeded).toBe(false);
    scan.scan('","b":[1]}');
    expect(scan.exceeded).toBe(true);
  });

  it('reads a long string of escapes once: linear, however the quotes and backslashes fall', () => {
    const text = `[${JSON.stringify('\\"'.repeat(200_000))},${'['.repeat(10)}${']'.repeat(10)}]`;
    expect(exceedsJsonDepth(text, 10)).toBe(true);
    expect(exceedsJsonDepth(text, 11)).toBe(false);
  });
});
