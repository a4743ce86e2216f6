/** Section titles of the spec (`4.2` → `Data added to an imported account`), read from the shipped copy. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

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
