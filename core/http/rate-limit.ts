/**
 * At most `perSecond` requests per second to the target, in any one-second window: requests are
 * spaced evenly rather than let through in bursts, since the limit exists to protect a shared
 * staging server.
 */
export class RateLimiter {
  private readonly interval: number;
  private next = 0;

  constructor(perSecond: number) {
    this.interval = 1000 / perSecond;
  }

  /** Resolves when the caller may send one request. Callers are served in arrival order. */
  take(): Promise<void> {
    const now = performance.now();
    const at = Math.max(now, this.next);
    this.next = at + this.interval;
    const wait = at - now;
    return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve();
  }
}
