/**
 * Pacing by what the target says (docs/design.md §6): how long a `429` asks to wait, a backoff with
 * jitter when it does not say, and the slots that keep the runner's own process calls within the
 * §8 concurrency limit. Policy (which calls are paced, the budget) lives in core/engine/api.ts.
 */

/** Milliseconds a `Retry-After` header asks to wait (RFC 9110 §10.2.3), or undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Backoff when the target asks no particular wait: exponential from `first`, capped, with jitter. */
export const BACKOFF = { firstMs: 50, maxMs: 2_000 };

/** The wait before attempt `attempt + 1`: what Retry-After asks, or else exponential backoff with jitter in [½, 1]. */
export function waitAfter429(retryAfter: string | undefined, attempt: number, random: () => number): number {
  const asked = retryAfterMs(retryAfter);
  const ceiling = Math.min(BACKOFF.maxMs, BACKOFF.firstMs * 2 ** (attempt - 1));
  const backoff = ceiling / 2 + (random() * ceiling) / 2;
  // A Retry-After of 0 (the server expects a slot to free at once) still gets a short backoff.
  return asked === undefined ? backoff : Math.max(asked, asked === 0 ? backoff / 4 : 0);
}

/** A small deterministic generator (mulberry32), so the jitter of a run follows its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Waits `ms`, or rejects with the signal's reason when it is aborted first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * At most `size` slots held at once, served in arrival order. A waiter whose signal is aborted leaves
 * the queue. Shared by every rule of a run (and its setup steps), so the runner's own process calls
 * never exceed the §8 limit the operator configured. A race rule takes several slots in one
 * acquisition (`count`): its requests must be on the wire together, which slots taken one at a time,
 * shared with the other rules, would not guarantee.
 */
export class Semaphore {
  private held = 0;
  private readonly queue: { count: number; grant: () => void }[] = [];
  /** Most slots held at once (for tests and the report). */
  peak = 0;

  constructor(readonly size: number) {}

  get inUse(): number {
    return this.held;
  }

  /**
   * Resolves with a release function once `count` slots (at most `size`) are free together. Waiters
   * are served in order: a group waiting for several slots is not overtaken by single ones behind it.
   */
  acquire(signal?: AbortSignal, count = 1): Promise<() => void> {
    const want = Math.max(1, Math.min(count, this.size));
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.held -= want;
      this.grantWaiting();
    };
    if (this.queue.length === 0 && this.held + want <= this.size) {
      this.take(want);
      return Promise.resolve(release);
    }
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const entry = {
        count: want,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const i = this.queue.indexOf(entry);
        if (i >= 0) this.queue.splice(i, 1);
        reject(signal?.reason);
        // The head may have been this group: those behind it may fit now.
        this.grantWaiting();
      };
      this.queue.push(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private take(count: number): void {
    this.held += count;
    this.peak = Math.max(this.peak, this.held);
  }

  private grantWaiting(): void {
    while (this.queue.length > 0 && this.held + this.queue[0].count <= this.size) {
      const next = this.queue.shift()!;
      this.take(next.count);
      next.grant();
    }
  }
}

/** The 429s of one endpoint: all the target answered, and those the run waited out and sent again. */
export interface RateLimitCount {
  answered: number;
  absorbed: number;
}

/** What a run's client keeps for pacing: the slots per endpoint and the 429s per endpoint. */
export class Pacing {
  private readonly slots = new Map<string, Semaphore>();
  /** Per endpoint: 429s answered (a §8 rule's deliberate ones too), and those waited out and sent again. */
  readonly counts: Record<string, RateLimitCount> = {};

  /** Never more than `size` calls of `endpoint` in flight at once (e.g. the §8 limit on processAccount). */
  limit(endpoint: string, size: number): void {
    this.slots.set(endpoint, new Semaphore(size));
  }

  semaphore(endpoint: string): Semaphore | undefined {
    return this.slots.get(endpoint);
  }

  /** One 429 answered to a call of `endpoint`; `absorbed` when the run waits it out and sends again. */
  count(endpoint: string, absorbed: boolean): void {
    const c = (this.counts[endpoint] ??= { answered: 0, absorbed: 0 });
    c.answered++;
    if (absorbed) c.absorbed++;
  }
}
