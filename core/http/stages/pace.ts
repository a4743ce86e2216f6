/**
 * The pace stage: a request waits its turn under the run's rate limit (rate-limit.ts), then departs —
 * it is counted, numbered in the order the run sent its requests, and its clock starts. The 429
 * pacing of the §8 limit is the engine's (pacing.ts, core/engine/api.ts): this stage only spaces
 * requests a user asked to space.
 */
import type { AnswerLog } from '../answers.js';
import type { RateLimiter } from '../rate-limit.js';

/**
 * The wait for the rate limit, or undefined when the request may go at once: without a limit the
 * client does not yield to the event loop here, so a request is numbered and handed to the pool in
 * the turn it was asked for (concurrent requests keep the order they were asked in, and no turn is
 * spent on a wait that is not one).
 */
export function paced(limiter: RateLimiter | undefined): Promise<void> | undefined {
  return limiter?.take();
}

/** A request that has left its turn: its number in the run and when it started. */
export interface Departure {
  /** The answer log's number (answers.ts): the HAR and the stopped-answering record agree on it. */
  n: number;
  /** performance.now() at departure: durations and the whole-body deadline count from it. */
  started: number;
  /** The wall-clock time it was sent, told to an observer (a HAR's startedDateTime). */
  startedAt: Date;
}

/** Counts the request and numbers it; after the rate limit's wait, so a wait is not the target's time. */
export function depart(stats: { requests: number }, answers: AnswerLog): Departure {
  stats.requests++;
  const n = answers.send();
  return { n, started: performance.now(), startedAt: new Date() };
}
