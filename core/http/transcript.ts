/**
 * The exchanges of one rule (or of the setup chain), as its report shows them: numbered in the order
 * they were recorded, labelled with their step, compacted as they grow.
 */
import type { Exchange } from './exchange.js';

/**
 * How a long transcript is kept small while its rule runs: all but the last `keep` exchanges are
 * replaced by `brief` (one line each, what a report keeps of them anyway), except those that broke.
 */
export interface Compaction {
  keep: number;
  brief(exchange: Exchange): Exchange;
}

/** Collects the exchanges of one rule. */
export class Transcript {
  readonly exchanges: Exchange[] = [];
  step?: string;
  /** Exchanges before this index are already brief (or broke). */
  private compacted = 0;
  /**
   * Answers larger than LARGE_BODY_BYTES it read (large-bodies.ts). A rule may keep what it parsed of
   * them until it ends, so the run starts no other rule meanwhile (core/engine/run.ts).
   */
  largeBodies = 0;

  constructor(
    private readonly compaction?: Compaction,
    /** The rule whose exchanges these are (or the setup chain's name), told to an exchange observer. */
    readonly sender?: string,
  ) {}

  /** Records an exchange, labelled with its own step (requests of one rule may be in flight at once) or the transcript's. */
  record({ step = this.step, ...exchange }: Omit<Exchange, 'seq'>): Exchange {
    const full: Exchange = { seq: this.exchanges.length + 1, ...(step ? { step } : {}), ...exchange };
    this.exchanges.push(full);
    const c = this.compaction;
    // Compacted a batch at a time, so each exchange is looked at once.
    if (c && this.exchanges.length - this.compacted > 2 * c.keep) {
      const until = this.exchanges.length - c.keep;
      for (let i = this.compacted; i < until; i++)
        if (!this.exchanges[i].error) this.exchanges[i] = c.brief(this.exchanges[i]);
      this.compacted = until;
    }
    return full;
  }
}
