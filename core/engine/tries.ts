/**
 * Which try of an in-place retry (probes.ts) the requests being sent belong to, without passing it
 * through every rule: the Api reads it to label what it records. Its own module, importing
 * nothing, so that the Api and the retry helpers do not import each other.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const tryNumber = new AsyncLocalStorage<number>();

/** Runs `part` as try `n` (2 and up: a try after no answer). */
export const inTry = <T>(n: number, part: () => Promise<T>): Promise<T> => tryNumber.run(n, part);

/**
 * A request's transcript label, marked when it is sent by a later try: the transcript then shows
 * which requests were sent again, not the same label twice.
 */
export function labelOfTry(step: string | undefined): string | undefined {
  const n = tryNumber.getStore();
  return n && n > 1 ? `${step ?? 'request'} (try ${n}, after no answer)` : step;
}
