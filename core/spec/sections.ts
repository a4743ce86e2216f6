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

export function sectionTitles(): Map<string, string> {
  if (!titles) {
    titles = new Map();
    for (const m of specText().matchAll(/^#{2,3} (\d+(?:\.\d+)*)\.? (.+)$/gm)) titles.set(m[1], m[2].trim());
  }
  return titles;
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
