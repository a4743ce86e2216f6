/**
 * The resident memory of the commands that read large bodies again and again: a run against a target
 * that answers megabytes of JSON (docs/design.md §6), and a proxy session relaying them. Each body is
 * read, judged and dropped, and V8's default heuristics let that garbage grow the heap far past what
 * is live before collecting it, by an amount no one chose: the bundled CLI's proxy peaked 30 MB higher
 * than the same code unbundled on 15 MiB exchanges, with the same live heap after each collection.
 */

import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { fullCollection } from '../full-collection.js';

/** Heap in use past which a command collects its garbage at once. */
export const COLLECT_ABOVE = 128 * 1024 * 1024;

/**
 * When to collect, apart from the clock: `tick` collects when the heap in use passes COLLECT_ABOVE,
 * or what the last collection left by half of COLLECT_ABOVE (not by a multiple of it: a collection
 * made while two large bodies were still held would let the next two pile up on top); `collect`
 * when it passes `above`, for a caller that knows a large body comes.
 */
export function heapCollector(usedHeap: () => number, gc: () => void) {
  let live = 0;
  const collect = (above: number) => {
    if (usedHeap() < above) return;
    gc();
    live = usedHeap();
  };
  return { collect, tick: () => collect(Math.max(COLLECT_ABOVE, live + COLLECT_ABOVE / 2)) };
}

/** The process's collection once started: undefined where V8 gives no way to collect. */
let collector: ((above: number) => void) | undefined;
let started = false;

/**
 * The collector above, ticking every 20 ms. Once per process, however many runs or sessions it
 * makes; returns the collection, for a caller that knows a large body comes.
 */
export function collectPromptly(): ((above: number) => void) | undefined {
  if (started) return collector;
  started = true;
  const gc = fullCollection();
  if (!gc) return undefined;
  const { collect, tick } = heapCollector(() => getHeapStatistics().used_heap_size, gc);
  setInterval(tick, 20).unref();
  collector = collect;
  return collect;
}

let smallHeap = false;

/**
 * An answer this large means a target that answers megabytes: from the first one, the run keeps its
 * heap small (below). The edge relation's own body near 1 MiB (core/engine/edges.ts) is answered
 * with some 1.4 MB of per-item results by a faithful server, so every default run read one such
 * answer, and ran its last half with the small heap's heuristics: 4 MiB is past what the suite's own
 * requests are answered with, and well below the 15 MiB answers the bound was made for.
 */
export const HOLDS_MUCH_ABOVE = 4 * 1024 * 1024;

/**
 * A run's bound: the collector above, and before each large body is read (core/http/large-bodies.ts)
 * what earlier ones left is collected first (a rule that read one and moved on keeps it only weakly),
 * so the next parse does not pile up on top of it. A run that holds much — many cases from the start
 * (`--num-runs` above the default), or from its first answer past HOLDS_MUCH_ABOVE — also takes V8's
 * heuristics for a small heap (`--optimize-for-size`, read at run time), which hold the peak to what
 * is live. Those cost CPU: a quarter of the default run's time and half of a nightly's (3.8 s against
 * 3.1 s, 34 s against 22 s), so an ordinary run, which reads no such answer, never turns them on.
 */
export function boundRunMemory(onLargeBody: (hook: (bytes: number) => void) => void, manyCases: boolean): void {
  if (manyCases) keepHeapSmall();
  const collect = collectPromptly();
  // One hook per process (large-bodies.ts): a second run sets the same one again.
  if (collect) onLargeBody(beforeLargeBody(collect, keepHeapSmall));
}

/** What a run does as each large body gets its turn: the small heap from one past HOLDS_MUCH_ABOVE, then a collection. */
export function beforeLargeBody(collect: (above: number) => void, smallHeap: () => void): (bytes: number) => void {
  return (bytes) => {
    if (bytes > HOLDS_MUCH_ABOVE) smallHeap();
    collect(COLLECT_ABOVE);
  };
}

function keepHeapSmall(): void {
  if (smallHeap) return;
  smallHeap = true;
  setFlagsFromString('--optimize-for-size');
}
