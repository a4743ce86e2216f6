/**
 * The traceability table: the spec's §2–§9 cut into units (every line that says something), the
 * statements that cover them, and the rules behind each statement. `conformance list --format
 * markdown` prints it; docs/traceability.md is that output, kept current by a test.
 */
import { createHash } from 'node:crypto';
import picomatch from 'picomatch';
import { type Rule, sectionsOf } from './rule.js';

export type Coverage =
  | { rules: string[]; info?: string[]; unobservable?: string }
  | { uncheckable: string; info?: string[] }
  | { freedom: string; info?: string[] }
  | { descriptive: string };

export type Statement = { section: string; quote?: string[]; table?: string } & Coverage;

export interface Unit {
  section: string;
  line: number;
  text: string;
  /** For a table row: the line that introduces the table. */
  anchor?: string;
}

/** Every line of §2–§9 that says something: sentences, list items, table rows, the §7.1 body. */
export function specUnits(spec: string): Unit[] {
  const lines = spec.split('\n');
  const units: Unit[] = [];
  let section = '';
  let lastText = '';
  let anchor: string | undefined;
  let inCode = false;
  lines.forEach((raw, i) => {
    const line = raw.trim();
    const heading = /^#{2,3} (\d+(?:\.\d+)*)\.? /.exec(line);
    if (heading) {
      section = heading[1];
      lastText = line;
      anchor = undefined;
      return;
    }
    if (Number(section.split('.')[0]) < 2) return;
    if (line.startsWith('```')) {
      inCode = !inCode;
      return;
    }
    if (line === '') {
      anchor = undefined;
      return;
    }
    const isRow = line.startsWith('|');
    const isSeparator = /^\|[-| ]+\|$/.test(line);
    const isHeader = isRow && /^\|[-| ]+\|$/.test((lines[i + 1] ?? '').trim());
    if (isSeparator) return;
    if (isHeader) {
      anchor = lastText;
      return;
    }
    units.push({ section, line: i + 1, text: line, ...(isRow && anchor ? { anchor } : {}) });
    if (!isRow && !inCode) lastText = line;
  });
  return units;
}

const normalize = (s: string) => s.replace(/\s+/g, ' ').trim();

export function covers(statement: Statement, unit: Unit): boolean {
  if (statement.table !== undefined) {
    const table = normalize(statement.table);
    // The table's rows, and the line that introduces it.
    if ((unit.anchor !== undefined && normalize(unit.anchor) === table) || normalize(unit.text) === table) return true;
  }
  return (statement.quote ?? []).some((q) => normalize(unit.text).includes(normalize(q)));
}

/**
 * `base` with each of `added` placed at its line of the spec: before the first statement of `base`
 * that starts further down. The rendered table groups by section in this order, so an area's own
 * statements land among their neighbours, and `base`'s order is kept as written.
 */
export function inSpecOrder(spec: string, base: readonly Statement[], added: readonly Statement[]): Statement[] {
  const units = specUnits(spec);
  const line = (s: Statement) => {
    const at = units.findIndex((u) => covers(s, u));
    return at < 0 ? Number.POSITIVE_INFINITY : at;
  };
  const out = [...base];
  for (const s of added) {
    const at = line(s);
    const before = out.findIndex((o) => line(o) > at);
    out.splice(before < 0 ? out.length : before, 0, s);
  }
  return out;
}

/** The rules a list of ids and globs names. */
export function expandRules(patterns: readonly string[], rules: readonly Rule[]): Rule[] {
  const matchers = patterns.map((p) => picomatch(p, { dot: true }));
  return rules.filter((r) => patterns.includes(r.id) || matchers.some((m) => m(r.id)));
}

export interface TraceabilityProblems {
  uncovered: Unit[];
  quotesNotInSpec: string[];
  unknownRules: string[];
  rulesNotTraced: string[];
}

export function checkTraceability(
  spec: string,
  statements: readonly Statement[],
  rules: readonly Rule[],
): TraceabilityProblems {
  const units = specUnits(spec);
  const text = normalize(spec);
  const named = statements.flatMap((s) => ['rules' in s ? s.rules : [], 'info' in s ? (s.info ?? []) : []].flat());
  const traced = new Set(expandRules(named, rules).map((r) => r.id));
  return {
    uncovered: units.filter((u) => !statements.some((s) => covers(s, u))),
    quotesNotInSpec: statements
      .flatMap((s) => [...(s.quote ?? []), ...(s.table ? [s.table] : [])])
      .filter((q) => !text.includes(normalize(q))),
    unknownRules: named.filter((p) => expandRules([p], rules).length === 0),
    rulesNotTraced: rules.filter((r) => !traced.has(r.id)).map((r) => r.id),
  };
}

/**
 * Words by which the spec shows rather than states: "not shown", a value "seen", "an example",
 * "appears in the examples". A fragment of the spec carrying them states no requirement.
 */
export const NON_NORMATIVE = /\bnot shown\b|\bseen\b|\bexamples?\b/i;

/**
 * Whether a statement states something an implementation can be held to: it names rules, and at
 * least one of its quoted fragments (or, for a table, one of its rows) is not a "not shown", "seen"
 * or example fragment.
 */
export function isNormative(statement: Statement, units: readonly Unit[]): boolean {
  if (!('rules' in statement)) return false;
  const fragments = [
    ...(statement.quote ?? []),
    ...(statement.table !== undefined
      ? units.filter((u) => u.anchor !== undefined && covers({ ...statement, quote: [] }, u)).map((u) => u.text)
      : []),
  ];
  return fragments.some((f) => !NON_NORMATIVE.test(f));
}

export interface NormativeProblems {
  /** MUST rules that no normative statement names. */
  mustWithoutNormativeStatement: string[];
  /** MUST rules whose `spec` cites no section of a normative statement naming them. */
  mustCitingNoNormativeSection: string[];
  /** MUST rules named by a statement that only shows an example, a seen value or "not shown". */
  mustOnNonNormativeStatement: { rule: string; statement: string }[];
}

/**
 * The guard against false failures: every MUST rule stands on a statement the traceability data
 * classifies as normative, and cites its section; no MUST rule hangs on an example, a "seen" value
 * or a "not shown" statement.
 */
export function checkNormative(
  spec: string,
  statements: readonly Statement[],
  rules: readonly Rule[],
): NormativeProblems {
  const units = specUnits(spec);
  const must = rules.filter((r) => r.level === 'MUST');
  const normative = statements.filter((s) => isNormative(s, units));
  const naming = (s: Statement, rule: Rule) =>
    ['rules' in s ? s.rules : [], 'info' in s ? (s.info ?? []) : []]
      .flat()
      .some((p) => expandRules([p], [rule]).length > 0);
  const describe = (s: Statement) => `§${s.section} ${s.table ?? (s.quote ?? []).join(' / ')}`;
  const cites = (rule: Rule, section: string) =>
    sectionsOf(rule.spec).some((c) => c === section || c.startsWith(`${section}.`) || section.startsWith(`${c}.`));
  return {
    mustWithoutNormativeStatement: must.filter((r) => !normative.some((s) => naming(s, r))).map((r) => r.id),
    mustCitingNoNormativeSection: must
      .filter((r) => normative.some((s) => naming(s, r)) && !normative.some((s) => naming(s, r) && cites(r, s.section)))
      .map((r) => r.id),
    mustOnNonNormativeStatement: statements
      .filter((s) => !isNormative(s, units))
      .flatMap((s) => must.filter((r) => naming(s, r)).map((r) => ({ rule: r.id, statement: describe(s) }))),
  };
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const clip = (s: string, n = 110) => (s.length > n ? `${s.slice(0, n)}…` : s);

export function renderTraceability(spec: string, statements: readonly Statement[], rules: readonly Rule[]): string {
  const units = specUnits(spec);
  const byId = new Map(rules.map((r) => [r.id, r]));
  const list = (patterns: readonly string[]) =>
    expandRules(patterns, rules)
      .map((r) => `\`${r.id}\`${r.level === 'MUST' ? '' : ` (${byId.get(r.id)!.level})`}`)
      .join(', ');
  const out = [
    '# Traceability: every statement of the spec, and what checks it',
    '',
    'Generated from `suites/traceability.ts` and the rules (`npx conformance list --format markdown`);',
    'a test keeps it current and proves that every line of §2–§9 of `spec/data-import-interface.md` is',
    'covered and that every rule traces to a statement. Rules are MUST unless marked.',
    '',
    // The copy's digest: the model was last reviewed against this text (test/spec/model.test.ts).
    `Spec copy SHA-256: \`${createHash('sha256').update(spec).digest('hex')}\`.`,
    '',
    `${units.length} lines of the spec; ${statements.length} statements; ${rules.length} rules.`,
    '',
  ];
  let section = '';
  for (const s of statements) {
    if (s.section !== section) {
      section = s.section;
      if (out.at(-1) !== '') out.push('');
      out.push(`## §${section}`, '', '| Spec | Checked by |', '|---|---|');
    }
    const covered = units.filter((u) => covers(s, u));
    const spec = s.table
      ? `${cell(clip(s.table, 60))} (${covered.filter((u) => u.anchor).length} rows)`
      : cell(clip((s.quote ?? []).join(' / ')));
    let how: string;
    if ('rules' in s)
      how =
        list(s.rules) +
        (s.info?.length ? `; observed by ${list(s.info)}` : '') +
        (s.unobservable ? `. *Not observable through the interface:* ${cell(s.unobservable)}` : '');
    else if ('uncheckable' in s)
      how = `*Not checkable through the interface:* ${cell(s.uncheckable)}${s.info?.length ? ` Observed by ${list(s.info)}.` : ''}`;
    else if ('freedom' in s)
      how = `*Freedom (not shown):* ${cell(s.freedom)}${s.info?.length ? ` Observed by ${list(s.info)}.` : ''}`;
    else how = `*Descriptive:* ${cell(s.descriptive)}`;
    out.push(`| ${spec} | ${how} |`);
  }
  return `${out.join('\n')}\n`;
}
