/** The rule catalogue as data and as text: for `conformance list` and the traceability table. */
import { NEEDS } from './needs.js';
import { type Rule, sectionsOf } from './rule.js';

export interface CatalogueEntry {
  id: string;
  spec: string;
  sections: string[];
  level: string;
  title: string;
  why?: string;
  needs: { need: string; key: string }[];
  tags: string[];
  endpoints: string[];
  property: boolean;
}

export function ruleCatalogue(rules: readonly Rule[]): CatalogueEntry[] {
  return rules.map((r) => ({
    id: r.id,
    spec: r.spec,
    sections: sectionsOf(r.spec),
    level: r.level,
    title: r.title,
    ...(r.why ? { why: r.why } : {}),
    needs: (r.needs ?? []).map((n) => ({ need: n, key: NEEDS[n].key })),
    tags: [...(r.tags ?? [])],
    endpoints: [...r.endpoints],
    property: r.property ?? false,
  }));
}

export function renderRuleTable(rules: readonly Rule[]): string {
  // The SPEC column names the sections a rule cites; the whole reference, never cut (a cut one would
  // cite the wrong statement), ends the line where it says more than its sections: a column as wide
  // as the longest reference pushed every title off screen.
  const sections = (r: Rule) => [...new Set(sectionsOf(r.spec))].map((s) => `§${s}`).join(' ');
  const whole = (r: Rule) => (r.spec.replace(/[,\s]+/g, ' ').trim() === sections(r) ? '' : `  (${r.spec})`);
  const idWidth = rules.reduce((w, r) => Math.max(w, r.id.length), 4);
  const specWidth = rules.reduce((w, r) => Math.max(w, sections(r).length), 4);
  const lines = rules.map((r) => {
    const needs = (r.needs ?? []).map((n) => NEEDS[n].key.replace(/^fixtures\./, '')).join(', ');
    return `${r.id.padEnd(idWidth)}  ${r.level.padEnd(6)}  ${sections(r).padEnd(specWidth)}  ${r.title}${needs ? `  [needs ${needs}]` : ''}${whole(r)}`;
  });
  return [
    `${'RULE'.padEnd(idWidth)}  LEVEL   ${'SPEC'.padEnd(specWidth)}  TITLE`,
    ...lines,
    '',
    `${rules.length} rules`,
  ].join('\n');
}
