/**
 * A rule is data (docs/design.md §4): what it enforces, where the spec says so, how strongly, what it
 * needs from the configuration, and the check itself.
 */
import type { EndpointId } from '../spec/index.js';
import type { RuleContext } from './context.js';
import type { Need } from './needs.js';

import type { Level } from './verdict.js';

export { LEVELS, type Level, type Verdict } from './verdict.js';

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
