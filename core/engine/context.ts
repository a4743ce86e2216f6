/** Builds what a rule's check receives (RuleContext, rule.ts) and keeps what the check records. */
import { capText, showControls } from '../http/bounds.js';
import { expect } from './expect.js';
import { SkipRule } from './failures.js';
import type { Counterexample, DiscoveredLimit } from './result.js';
import type { RuleContext } from './rule.js';

export type { Counterexample };
export type { PropertySettings, RuleContext } from './rule.js';

/** Observations a rule keeps; the ones past it are counted in one last note. */
export const MAX_OBSERVATIONS = 50;
/** Characters of one observation kept (its size said past it). */
export const OBSERVATION_LIMIT = 2 * 1024;

export class RuleState {
  readonly observations: string[] = [];
  private dropped = 0;
  counterexample?: Counterexample;
  /** Why part of the rule (a generated case) was run again after the implementation did not answer. */
  flaky?: string;
  /** Limits the target showed (core/engine/limits.ts), one per endpoint, field and kind. */
  readonly discoveredLimits: DiscoveredLimit[] = [];

  /** Keeps a discovered limit once: a field refused in many cases is one limit. */
  discover(limit: DiscoveredLimit): void {
    const same = this.discoveredLimits.find(
      (l) => l.endpoint === limit.endpoint && l.field === limit.field && l.kind === limit.kind,
    );
    if (!same) this.discoveredLimits.push(limit);
  }

  /** Keeps one observation, bounded: a target answering megabytes of extra fields cannot flood the report. */
  observe(note: string): void {
    if (this.observations.length < MAX_OBSERVATIONS) {
      this.observations.push(showControls(capText(String(note), OBSERVATION_LIMIT)));
      return;
    }
    this.dropped++;
    this.observations[MAX_OBSERVATIONS] =
      `… and ${this.dropped} more observation${this.dropped === 1 ? '' : 's'} not kept`;
  }
}

export function createContext(
  parts: Omit<RuleContext, 'expect' | 'observe' | 'skip' | 'counterexample' | 'flaky' | 'discoveredLimit'>,
  state: RuleState,
): RuleContext {
  return {
    ...parts,
    expect,
    observe: (note) => state.observe(note),
    skip: (message, key) => {
      throw new SkipRule(message, key);
    },
    counterexample: (example) => {
      state.counterexample = example;
    },
    discoveredLimit: (limit) => state.discover(limit),
    flaky: (why) => {
      state.flaky ??= why;
      state.observe(why);
    },
  };
}
