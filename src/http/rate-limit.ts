/** A token bucket: at most `perSecond` requests per second, with a burst of one second's worth. */
export class RateLimiter {
  private tokens: number;
  private last = performance.now();
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly perSecond: number) {
    this.tokens = Math.max(1, perSecond);
  }

  /** Resolves when the caller may send one request. Callers are served in arrival order. */
  take(): Promise<void> {
    const turn = this.queue.then(async () => {
      for (;;) {
        const now = performance.now();
        this.tokens = Math.min(Math.max(1, this.perSecond), this.tokens + ((now - this.last) / 1000) * this.perSecond);
        this.last = now;
        if (this.tokens >= 1) {
          this.tokens -= 1;
          return;
        }
        await new Promise((r) => setTimeout(r, Math.ceil(((1 - this.tokens) / this.perSecond) * 1000)));
      }
    });
    this.queue = turn;
    return turn;
  }
}
