/** generators/few-shrinks.ts: the same values as the arbitrary it wraps, and at most `cap` shrinks per step. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fewShrinks } from '../../generators/few-shrinks.js';

describe('fewShrinks', () => {
  const list = fc.array(fc.string(), { minLength: 20, maxLength: 40 });

  it('generates what the arbitrary it wraps generates', () => {
    expect(fc.sample(fewShrinks(list, 3), { seed: 7, numRuns: 20 })).toEqual(fc.sample(list, { seed: 7, numRuns: 20 }));
  });

  it('tries at most cap smaller values per step, the first ones the arbitrary offers', () => {
    const [value] = fc.sample(list, { seed: 7, numRuns: 1 });
    const all = [...list.shrink(value, undefined)].map((v) => v.value);
    expect(all.length).toBeGreaterThan(3);
    const capped = fewShrinks(list, 3);
    const first = [...capped.shrink(value, undefined)];
    expect(first.map((v) => v.value)).toEqual(all.slice(0, 3));
    // The next step is capped too.
    expect([...capped.shrink(first[0].value, first[0].context)].length).toBeLessThanOrEqual(3);
  });

  it('still shrinks a failing case to a counterexample that fails', () => {
    const result = fc.check(
      fc.property(fewShrinks(list, 5), (xs) => xs.length < 20),
      { seed: 3 },
    );
    expect(result.failed).toBe(true);
    expect((result.counterexample![0] as string[]).length).toBeGreaterThanOrEqual(20);
  });
});
