import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heldAtOnce } from '../../core/engine/held-at-once.js';

describe('requests a target surely held at once', () => {
  it('counts the requests whose times, less the margin at each end, share an instant', () => {
    // Three answered after 100 ms, all sent at 0: held together from 10 to 90.
    const together = [0, 0, 0].map((sent) => ({ sent, answered: 100 }));
    expect(heldAtOnce(together, 10)).toBe(3);
    // One after another, 30 ms each: never two at once, whatever the margin.
    const oneByOne = [0, 30, 60].map((sent) => ({ sent, answered: sent + 30 }));
    expect(heldAtOnce(oneByOne, 0)).toBe(1);
    expect(heldAtOnce(oneByOne, 5)).toBe(1);
  });

  it('counts nothing a margin as long as the answer time could hide', () => {
    // Answered in 20 ms with 10 ms of doubt at each end: the target may have done it at any moment.
    expect(heldAtOnce([{ sent: 0, answered: 20 }], 10)).toBe(0);
    expect(heldAtOnce([{ sent: 0, answered: 20 }], 9)).toBe(1);
  });

  it('never counts more than were sent, nor more for a larger margin', () => {
    const request = fc
      .tuple(fc.integer({ min: 0, max: 1_000 }), fc.integer({ min: 0, max: 1_000 }))
      .map(([sent, took]) => ({ sent, answered: sent + took }));
    fc.assert(
      fc.property(fc.array(request, { maxLength: 30 }), fc.nat(200), fc.nat(200), (requests, a, b) => {
        const [small, large] = a <= b ? [a, b] : [b, a];
        expect(heldAtOnce(requests, small)).toBeLessThanOrEqual(requests.length);
        expect(heldAtOnce(requests, large)).toBeLessThanOrEqual(heldAtOnce(requests, small));
      }),
    );
  });
});
