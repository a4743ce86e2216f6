/**
 * A rule is data (docs/design.md §4): what it enforces, where the spec says so, how strongly, what it
 * needs from the configuration, and the check itself.
 */
import type { Exchange } from '../http/exchange.js';
import type { EndpointId } from '../spec/index.js';
import type { Api } from './api.js';
import type { Expect } from './expect.js';
import type { Given } from './given.js';
import type { Contradiction, HistoryInvariant, HistoryStats } from './history.js';
import type { Ids } from './ids.js';
import type { DeclaredLimits } from './limits.js';
import type { Counterexample, DiscoveredLimit } from './result.js';
import type { Need, Preconditions } from './needs.js';
import type { Level } from './verdict.js';

export { LEVELS, type Level, type Verdict } from './verdict.js';

/** A place of the model: an endpoint, and a field of its request where the relation is about one. */
export interface RelationPlace {
  endpoint: EndpointId;
  field?: string;
}

/** The relation a rule instantiates (core/engine/relations.ts) and the places of the model it does so at. */
export interface RuleRelation {
  kind: string;
  places: readonly RelationPlace[];
}

export interface Rule {
  /** Stable identifier, `area.subject.variant`. */
  id: string;
  /** The spec section(s) it enforces, e.g. `§4.2 notes rule 2`. */
  spec: string;
  level: Level;
  /** Reads as a sentence of the spec. */
  title: string;
  /** Why the level is not MUST (required for SHOULD and INFO). */
  why?: string;
  /** Configuration the rule cannot run without; missing ones skip it with the key to set. */
  needs?: readonly Need[];
  tags?: readonly string[];
  /** The endpoints the rule judges (for the capability matrix). */
  endpoints: readonly EndpointId[];
  /** A fast-check property: runs `num_runs` generated cases and can be replayed by seed and path. */
  property?: boolean;
  /**
   * Judges the run's history (history.ts) rather than exchanges of its own: started only once every
   * other rule of the run has ended, so the history it reads is the whole run's.
   */
  judgesHistory?: boolean;
  /** The relation of the spec this rule applies, and where (core/engine/relations.ts counts the coverage). */
  relation?: RuleRelation;
  check(ctx: RuleContext): Promise<void>;
}

/** A rule as declared: endpoints and tags may come from the area's defaults. */
export type RuleInput = Omit<Rule, 'endpoints'> & { endpoints?: Rule['endpoints'] };

/**
 * Declares the rules of one spec area, with defaults shared by the area, and checks the
 * declarations so mistakes fail at load time.
 */
export function defineRules(
  area: string,
  inputs: RuleInput[],
  defaults: { endpoints?: Rule['endpoints']; tags?: Rule['tags']; needs?: Rule['needs'] } = {},
): Rule[] {
  const rules: Rule[] = inputs.map((r) => ({
    ...r,
    endpoints: r.endpoints ?? defaults.endpoints ?? [],
    tags: r.tags ?? defaults.tags,
    needs: r.needs ?? defaults.needs,
  }));
  for (const rule of rules) {
    if (!rule.id.startsWith(`${area}.`))
      throw new Error(`rule ${rule.id} is declared in area ${area} but does not start with "${area}."`);
    if (!/^§\d/.test(rule.spec))
      throw new Error(`rule ${rule.id}: spec must start with a section, e.g. "§4.2", got "${rule.spec}"`);
    if (rule.level !== 'MUST' && !rule.why)
      throw new Error(`rule ${rule.id}: a ${rule.level} rule must say why it is not MUST`);
    if (rule.endpoints.length === 0) throw new Error(`rule ${rule.id}: list the endpoints it judges`);
  }
  return rules;
}

/** What a result repeats of its rule's declaration (report.json shows it with every verdict). */
export function declaredFacts(rule: Rule) {
  return {
    id: rule.id,
    title: rule.title,
    spec: rule.spec,
    sections: sectionsOf(rule.spec),
    level: rule.level,
    ...(rule.why ? { why: rule.why } : {}),
    tags: [...(rule.tags ?? [])],
    endpoints: [...rule.endpoints],
    property: rule.property ?? false,
  };
}

/** Sections named by a spec reference: `§4.2 notes rule 2, §7.1` → `['4.2', '7.1']`. */
export function sectionsOf(spec: string): string[] {
  return [...spec.matchAll(/§(\d+(?:\.\d+)*)/g)].map((m) => m[1]);
}

/** What a rule's check receives: the interface, setup steps, identifiers, preconditions and assertions. */
export interface PropertySettings {
  /** Cases per property (`--num-runs`). */
  numRuns: number;
  /** fast-check seed of the run (`--seed`). */
  seed: number;
  /** Replays one case (`--path`), as printed with a counterexample. */
  path?: string;
  /** Cases run at once (the run's `--concurrency`; 1 when not given): each case makes its own identifiers. */
  concurrency?: number;
}

/**
 * How a part of a rule (a generated case, one probe) that ended because the implementation did not
 * answer is tried again in place: how often (the run's `--retries`) and how to tell such an ending
 * (transient.ts, over the rule's transcript).
 */
export interface RetrySettings {
  times: number;
  cause(error: unknown): string | undefined;
}

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
  readonly retry: RetrySettings;
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
  /** The run's history (history.ts): what every exchange of the run so far showed, and what contradicts. */
  readonly history: RunHistoryView;
  /** Limits the configuration declares (`limits:`): generated values stay inside them. */
  readonly declaredLimits?: DeclaredLimits;
  /** Records what the implementation does where the spec leaves it open (INFO rules). */
  observe(note: string): void;
  /** Records a limit the target showed (core/engine/inside-limits.ts); INFO, never a failure. */
  discoveredLimit(limit: DiscoveredLimit): void;
  /** Stops the rule as skipped, e.g. when the target's answer makes the rule inapplicable. */
  skip(message: string, key?: string): never;
  /** Records a property's counterexample (the failure itself is thrown separately). */
  counterexample(example: Counterexample): void;
  /**
   * Records that part of the rule was run again because the implementation did not answer (a
   * generated case, property.ts): a pass is then reported as flaky, with the first such reason.
   */
  flaky(why: string): void;
}

/** What a rule sees of the run's history: the contradictions found, and a way to show their exchanges. */
export interface RunHistoryView {
  contradictions(invariant: HistoryInvariant): readonly Contradiction[];
  readonly stats: HistoryStats;
  /** The run's target, redacted: exchanges record paths under it (for a kept exchange's curl). */
  readonly baseUrl: string;
  /** Puts a kept exchange of another rule into this rule's transcript (so the report shows it with curl); its seq there. */
  cite(exchange: Exchange, step: string): number;
  /** The status with which the run found an endpoint not implemented (core/engine/not-implemented.ts), if it did. */
  notImplemented(endpoint: EndpointId): number | undefined;
}
