/** Which rules run: by id or glob, spec section, level, tag, and shard. */
import picomatch from 'picomatch';
import { type Level, type Rule, sectionsOf } from './rule.js';

export interface Selection {
  /** Rule ids or globs (`notes.*`). */
  rules?: string[];
  /** Spec sections (`4.2`, `§4.2`); a section also selects its subsections. */
  sections?: string[];
  levels?: Level[];
  tags?: string[];
  /** `index` of `total` (1-based): a deterministic share of the selected rules. */
  shard?: { index: number; total: number };
}

export const normalizeSection = (section: string) => section.trim().replace(/^§/, '');

export interface SelectionResult {
  rules: Rule[];
  /** Patterns, sections and tags that matched no rule at all (usually a typo). */
  unmatched: string[];
}

export function selectRules(all: readonly Rule[], selection: Selection): SelectionResult {
  const unmatched: string[] = [];
  let rules = [...all];

  if (selection.rules?.length) {
    const matchers = selection.rules.map((pattern) => ({ pattern, test: picomatch(pattern, { dot: true }) }));
    for (const m of matchers)
      if (!all.some((r) => r.id === m.pattern || m.test(r.id))) unmatched.push(`--rule ${m.pattern}`);
    rules = rules.filter((r) => matchers.some((m) => r.id === m.pattern || m.test(r.id)));
  }
  if (selection.sections?.length) {
    const wanted = selection.sections.map(normalizeSection);
    const inSection = (r: Rule, s: string) => sectionsOf(r.spec).some((own) => own === s || own.startsWith(`${s}.`));
    for (const s of wanted) if (!all.some((r) => inSection(r, s))) unmatched.push(`--section ${s}`);
    rules = rules.filter((r) => wanted.some((s) => inSection(r, s)));
  }
  if (selection.levels?.length) rules = rules.filter((r) => selection.levels!.includes(r.level));
  if (selection.tags?.length) {
    for (const t of selection.tags) if (!all.some((r) => r.tags?.includes(t))) unmatched.push(`--tag ${t}`);
    rules = rules.filter((r) => selection.tags!.some((t) => r.tags?.includes(t)));
  }
  if (selection.shard) {
    const { index, total } = selection.shard;
    // Sorted by id and dealt round-robin: stable across machines, and balanced across areas.
    const mine = new Set(
      [...rules]
        .sort((a, b) => a.id.localeCompare(b.id))
        .filter((_, i) => i % total === index - 1)
        .map((r) => r.id),
    );
    rules = rules.filter((r) => mine.has(r.id));
  }
  return { rules, unmatched };
}
