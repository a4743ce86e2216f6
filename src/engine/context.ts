/** What a rule's check receives: the interface, setup steps, identifiers, preconditions and assertions. */
import type { Api } from './api.js';
import { type Expect, expect } from './expect.js';
import { SkipRule } from './failures.js';
import type { Preconditions } from './needs.js';
import type { Given } from './given.js';
import type { Ids } from './ids.js';
import type { Rule } from './rule.js';

export interface PropertySettings {
  /** Cases per property (`--num-runs`). */
  numRuns: number;
  /** fast-check seed of the run (`--seed`). */
  seed: number;
  /** Replays one case (`--path`), as printed with a counterexample. */
  path?: string;
}

/** A property's shrunk counterexample, reported with the command that replays exactly it. */
import type { Counterexample } from './result.js';

export type { Counterexample };

export interface RuleContext {
  readonly rule: Rule;
  /** Calls of the interface, recorded in the rule's transcript. */
  readonly api: Api;
  /** Setup steps; when one cannot be established the rule is an error, not a failure. */
  readonly given: Given;
  /** Namespaced identifiers, unique in the run. */
  readonly ids: Ids;
  /** The configured preconditions (docs/design.md §5): the facts under `fixtures:` and the `payloads:` templates. */
  readonly preconditions: Preconditions;
  readonly expect: Expect;
  readonly property: PropertySettings;
  /** Where the configuration puts business.business_contract_identifier (§2.3: not shown). */
  readonly contractPath: string;
  /** Aborted when the rule times out or the run stops. */
  readonly signal: AbortSignal;
  /**
   * The §5.1 ObtainServiceToken mutation, when the run authenticates with an API key (undefined
   * with a configured token): its path under the base URL (undefined when configured on another
   * origin), the mutation text and where the result carries the token. Never the key itself.
   */
  readonly tokenMutation?: { path?: string; mutation: string; tokenPath: string };
  /** Records what the implementation does where the spec leaves it open (INFO rules). */
  observe(note: string): void;
  /** Stops the rule as skipped, e.g. when the target's answer makes the rule inapplicable. */
  skip(message: string, key?: string): never;
  /** Records a property's counterexample (the failure itself is thrown separately). */
  counterexample(example: Counterexample): void;
}

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
