/**
 * How many large bodies are read at once. A body read is a body soon parsed, and parsing is where
 * a big body costs memory: 15 MiB of JSON with small keys is some 125 MB parsed, and a run has up to
 * 32 rules (and their probes) in flight (core/engine/width.ts), a server many clients. A body larger
 * than LARGE_BODY_BYTES is read only within a budget of body bytes; the rest wait their turn, first
 * come first served, with their bytes left in the socket. A body larger than the whole budget still
 * goes, alone, so nothing waits forever; and a holder waits on nothing while it holds (it reads
 * within its deadline; a server reads, parses and answers), so the wait cannot deadlock. Only the
 * order in which large bodies are read changes, never what they say.
 *
 * The runner holds a share only while it reads and records: parsing stays lazy (a rule that only
 * reads the status never parses), and parsing eagerly under the budget measured worse. What rules
 * keep parsed is bounded where they start: no rule starts while a running rule read a large body
 * (a Transcript's `largeBodies`, core/engine/run.ts).
 */

/** Smaller bodies are read at once: they cost little, and most bodies are a few kilobytes. */
export const LARGE_BODY_BYTES = 1024 * 1024;
/** Bytes of large bodies read at once: one body at the runner's 16 MiB response cap, or a few smaller. */
export const LARGE_BODY_BUDGET = 16 * 1024 * 1024;

/** Gives back what was taken; a second call does nothing. */
export type Release = () => void;

/**
 * Called as each large body gets its turn, before it is read: the CLI makes room there (app/cli/run.ts
 * collects what earlier large bodies left, so two parsed at once are two only when both are still
 * held). One per process; it must not throw.
 */
let beforeLargeBody: ((bytes: number) => void) | undefined;
/** `bytes`: what the body takes of the budget (its declared length, or the response cap when none is declared). */
export function onLargeBody(hook: ((bytes: number) => void) | undefined): void {
  beforeLargeBody = hook;
}

export class LargeBodyBudget {
  private used = 0;
  private readonly waiting: { bytes: number; grant: () => void }[] = [];

  constructor(readonly budget = LARGE_BODY_BUDGET) {}

  /** Bytes taken now. */
  get inUse(): number {
    return this.used;
  }

  /** Bodies waiting for their turn. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Takes `bytes` of the budget once they fit, or once nothing else holds any (a body larger than
   * the budget goes alone). First come, first served: a large body is not passed by smaller ones.
   */
  take(bytes: number): Promise<Release> {
    return new Promise((resolve) => {
      this.waiting.push({ bytes, grant: () => resolve(this.releaser(bytes)) });
      this.grant();
    });
  }

  private releaser(bytes: number): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= bytes;
      this.grant();
    };
  }

  private grant(): void {
    while (this.waiting.length > 0) {
      const next = this.waiting[0];
      if (this.used > 0 && this.used + next.bytes > this.budget) return;
      this.waiting.shift();
      this.used += next.bytes;
      beforeLargeBody?.(next.bytes);
      next.grant();
    }
  }
}
