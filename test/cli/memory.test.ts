/** When the commands that read large bodies collect their garbage (app/cli/memory.ts). */
import { describe, expect, it } from 'vitest';
import { COLLECT_ABOVE, HOLDS_MUCH_ABOVE, beforeLargeBody, heapCollector } from '../../app/cli/memory.js';
import { LargeBodyBudget, onLargeBody } from '../../core/http/large-bodies.js';

const MB = 1024 * 1024;

/** A heap whose size in use the test sets, and a collection that leaves `kept` of it. */
function heap(kept: number) {
  let used = 0;
  const collections: number[] = [];
  const collector = heapCollector(
    () => used,
    () => {
      collections.push(used);
      used = kept;
    },
  );
  return { collector, collections, use: (bytes: number) => (used = bytes) };
}

describe('the heap collector', () => {
  it('collects once the heap in use passes COLLECT_ABOVE, not before', () => {
    const h = heap(20 * MB);
    h.use(COLLECT_ABOVE - 1);
    h.collector.tick();
    expect(h.collections).toEqual([]);
    h.use(COLLECT_ABOVE + MB);
    h.collector.tick();
    expect(h.collections).toEqual([COLLECT_ABOVE + MB]);
  });

  it('past a collection that left much live, waits for half of COLLECT_ABOVE more, not a multiple', () => {
    const h = heap(120 * MB);
    h.use(130 * MB);
    h.collector.tick(); // leaves 120 MB live: the next one comes past 120 + 64 MB
    h.use(180 * MB);
    h.collector.tick();
    expect(h.collections).toEqual([130 * MB]);
    h.use(185 * MB);
    h.collector.tick();
    expect(h.collections).toEqual([130 * MB, 185 * MB]);
  });

  it('collects at once when asked before a large body, past the threshold given', () => {
    const h = heap(10 * MB);
    h.use(60 * MB);
    h.collector.collect(COLLECT_ABOVE);
    expect(h.collections).toEqual([]);
    h.collector.collect(50 * MB);
    expect(h.collections).toEqual([60 * MB]);
  });

  it('keeps the heap small from an answer past HOLDS_MUCH_ABOVE, not for the 1.4 MB answer to the body near 1 MiB', async () => {
    const done: string[] = [];
    onLargeBody(
      beforeLargeBody(
        (above) => done.push(`collect above ${above}`),
        () => done.push('small heap'),
      ),
    );
    try {
      const budget = new LargeBodyBudget();
      (await budget.take(1.4 * MB))();
      expect(done).toEqual([`collect above ${COLLECT_ABOVE}`]);
      (await budget.take(HOLDS_MUCH_ABOVE + 1))();
      expect(done.slice(1)).toEqual(['small heap', `collect above ${COLLECT_ABOVE}`]);
    } finally {
      onLargeBody(undefined);
    }
  });
});
