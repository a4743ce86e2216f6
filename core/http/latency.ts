/**
 * How long the target takes to answer, lately: the median of the last answered exchanges. The
 * runner's automatic width (core/engine/width.ts) reads it; a median, so the few process calls that
 * wait on the service's own work do not pass for a slow network.
 */
const WINDOW = 64;

export class LatencyGauge {
  private readonly recent: number[] = [];
  private next = 0;
  /** 503s answered: the service (or a gateway) saying it is unavailable for now. */
  unavailable = 0;

  record(durationMs: number, status: number): void {
    if (status === 503) this.unavailable++;
    if (this.recent.length < WINDOW) this.recent.push(durationMs);
    else this.recent[this.next] = durationMs;
    this.next = (this.next + 1) % WINDOW;
  }

  /** Median of the last answered exchanges, undefined before the first. */
  median(): number | undefined {
    if (!this.recent.length) return undefined;
    const sorted = [...this.recent].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  }
}
