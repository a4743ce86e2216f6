/**
 * How many rules run at once. `--concurrency N` fixes it at N. By default ("auto") it follows the
 * target: 8 rules at once, and more — up to 32 — while the target answers slowly, so that a run
 * against a distant or slow staging server is not 2,000 round trips eight at a time. The bound is a
 * request rate, not a number of connections: by Little's law (in flight = rate × latency), AUTO.base
 * rules against a target answering in AUTO.paceMs send about as many requests per second as the
 * auto width sends to a slower one, and a fast target gets AUTO.base. Once the target asks the run
 * to slow down — a 429 the run had to wait out, or a 503 — the width goes back to AUTO.base for the
 * rest of the run. With the §8 limit configured, 429s of the process endpoint are not such a sign:
 * the limit rules provoke them on purpose, and other rules' process calls meet those bursts.
 *
 * Slow answers only count when the runner itself is idle. A runner that is busy (its event loop
 * mostly working: a loaded CI machine, or the embedded server in the same process) sees slow answers
 * because of its own work; more rules at once would only make it busier and the answers slower.
 */
import { performance } from 'node:perf_hooks';
import type { LatencyGauge } from '../http/latency.js';
import type { RateLimitCount } from '../http/pacing.js';

export const AUTO = { base: 8, max: 32, paceMs: 25, busy: 0.5 };

/** How busy the runner's event loop was over the last quarter second or so (0 to 1). */
export class Busyness {
  private last = performance.eventLoopUtilization();
  private at = performance.now();
  private value?: number;

  read(): number | undefined {
    const now = performance.now();
    if (now - this.at >= 250) {
      this.value = performance.eventLoopUtilization(this.last).utilization;
      this.last = performance.eventLoopUtilization();
      this.at = now;
    }
    return this.value;
  }
}

export type Concurrency = number | 'auto';

/** What the width reads of the run's client. */
export interface TargetSignals {
  readonly latency: Pick<LatencyGauge, 'median' | 'unavailable'>;
  readonly rateLimited: Readonly<Record<string, RateLimitCount>>;
  /** Endpoints whose 429s are expected (processAccount, when the §8 limit is configured). */
  readonly expected429?: readonly string[];
  /** How busy the runner is (0 to 1; undefined before it is known): Busyness by default. */
  readonly busy?: () => number | undefined;
}

export class RuleWidth {
  /** Most rules the run had at once. */
  peak = 0;
  /** Answers were slow enough for more rules at once while the runner was too busy to take them. */
  private heldBusy = false;
  private backedOff = false;
  private readonly busy: () => number | undefined;

  constructor(
    private readonly concurrency: Concurrency,
    private readonly target: TargetSignals,
  ) {
    const busyness = new Busyness();
    this.busy = target.busy ?? (() => busyness.read());
  }

  /** The rules the run may have at once now. */
  current(): number {
    if (this.concurrency !== 'auto') return this.concurrency;
    if (this.backedOff || this.pushedBack()) {
      this.backedOff = true;
      return AUTO.base;
    }
    const median = this.target.latency.median();
    const busy = this.busy();
    if (median === undefined || busy === undefined) return AUTO.base;
    const wanted = wantedFor(median);
    if (busy <= AUTO.busy) return wanted;
    if (wanted > AUTO.base) this.heldBusy = true;
    return AUTO.base;
  }

  /**
   * A busy runner is why there were no more rules at once: it held the width back while answers were
   * slow, and they still are (the report says so, or a run that stayed at 8 against a slow target
   * would read as if the target were fast). A runner busy only while a few slow answers passed
   * (an embedded server's processing) is not.
   */
  get heldBack(): boolean {
    const median = this.target.latency.median();
    return this.heldBusy && median !== undefined && wantedFor(median) > AUTO.base;
  }

  /** Counts one rule started with `running` rules now in flight (itself included). */
  started(running: number): void {
    this.peak = Math.max(this.peak, running);
  }

  /** Why the width went back to its base, if it did. */
  get pushback(): boolean {
    return this.backedOff;
  }

  private pushedBack(): boolean {
    if (this.target.latency.unavailable > 0) return true;
    const expected = this.target.expected429 ?? [];
    return Object.entries(this.target.rateLimited).some(
      ([endpoint, c]) => c.absorbed > 0 && !expected.includes(endpoint),
    );
  }
}

/** The rules at once the answer time alone calls for: as many requests per second as AUTO.base at AUTO.paceMs. */
const wantedFor = (medianMs: number): number =>
  Math.max(AUTO.base, Math.min(AUTO.max, Math.round((AUTO.base * medianMs) / AUTO.paceMs)));

/** Rules at once at most, for sizing what scales with it (the connection pool). */
export const widest = (concurrency: Concurrency): number => (concurrency === 'auto' ? AUTO.max : concurrency);

/** The width a property's cases and the pacing messages use: the fixed one, or the auto base. */
export const baseWidth = (concurrency: Concurrency): number => (concurrency === 'auto' ? AUTO.base : concurrency);
