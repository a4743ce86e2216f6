/** Section titles of the spec (`4.2` → `Data added to an imported account`), read from the shipped copy. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';

let titles: Map<string, string> | undefined;
let text: string | undefined;

/** The shipped copy of the spec. */
export function specText(): string {
  text ??= readFileSync(join(packageRoot(), 'spec', 'data-import-interface.md'), 'utf8');
  return text;
}

/** A numbered heading of the spec (`### 4.2 Data added …`): its depth is the count of `#`. */
interface Heading {
  section: string;
  title: string;
  depth: number;
  /** 1-based line number of the heading in the spec file. */
  line: number;
}

const HEADING = /^(#{2,3}) (\d+(?:\.\d+)*)\.? (.+)$/;

function headings(spec: string): Heading[] {
  const found: Heading[] = [];
  spec.split('\n').forEach((text, i) => {
    const m = HEADING.exec(text);
    if (m) found.push({ section: m[2], title: m[3].trim(), depth: m[1].length, line: i + 1 });
  });
  return found;
}

export function sectionTitles(): Map<string, string> {
  titles ??= new Map(headings(specText()).map((h) => [h.section, h.title]));
  return titles;
}

/** The lines a section's text spans in the spec file, 1-based and inclusive. */
export interface SectionLines {
  startLine: number;
  endLine: number;
}

/**
 * Where each numbered section stands in the spec file: from its heading to the line before the next
 * heading of the same or a higher level (a `##` section holds its `###` subsections), or to the last
 * line. `spec` defaults to the shipped copy.
 */
export function sectionLines(spec: string = specText()): Map<string, SectionLines> {
  const all = headings(spec);
  const lines = spec.split('\n');
  const last = lines.at(-1) === '' ? lines.length - 1 : lines.length;
  const map = new Map<string, SectionLines>();
  all.forEach((h, i) => {
    const next = all.slice(i + 1).find((n) => n.depth <= h.depth);
    map.set(h.section, { startLine: h.line, endLine: next ? next.line - 1 : last });
  });
  return map;
}

/** The title of a section, or of its nearest parent. */
export function sectionTitle(section: string): string {
  const all = sectionTitles();
  for (let s = section; s; s = s.includes('.') ? s.slice(0, s.lastIndexOf('.')) : '') {
    const t = all.get(s);
    if (t) return t;
  }
  return '';
}

/**
 * The heading a section reference is grouped under, the same in every report: the deepest heading
 * of the spec it falls in. `§5.2` is the second numbered item of §5, not a heading, so it is §5.
 */
export function headingOf(section: string): string {
  const headings = sectionTitles();
  for (let s = section; s; s = s.includes('.') ? s.slice(0, s.lastIndexOf('.')) : '') if (headings.has(s)) return s;
  return section.split('.')[0];
}

/** Spec order: `4.2` before `4.10`, a heading before its subsections. */
export function compareSections(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++)
    if ((pa[i] ?? -1) !== (pb[i] ?? -1)) return (pa[i] ?? -1) - (pb[i] ?? -1);
  return 0;
}
