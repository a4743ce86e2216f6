/** Builds what a rule's check receives (RuleContext, rule.ts) and keeps what the check records. */
import { expect } from './expect.js';
import { SkipRule } from './failures.js';
import type { Counterexample } from './result.js';
import type { RuleContext } from './rule.js';

export type { Counterexample };
export type { PropertySettings, RuleContext } from './rule.js';

export class RuleState {
  readonly observations: string[] = [];
  counterexample?: Counterexample;
}

export function createContext(
  parts: Omit<RuleContext, 'expect' | 'observe' | 'skip' | 'counterexample'>,
  state: RuleState,
): RuleContext {
  return {
    ...parts,
    expect,
    observe: (note) => void state.observations.push(note),
    skip: (message, key) => {
      throw new SkipRule(message, key);
    },
    counterexample: (example) => {
      state.counterexample = example;
    },
  };
}
