/** Section titles of the spec (`4.2` → `Data added to an imported account`), read from the shipped copy. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

let titles: Map<string, string> | undefined;

export function sectionTitles(): Map<string, string> {
  if (!titles) {
    titles = new Map();
    const text = readFileSync(join(packageRoot(), 'spec', 'data-import-interface.md'), 'utf8');
    for (const m of text.matchAll(/^#{2,3} (\d+(?:\.\d+)*)\.? (.+)$/gm)) titles.set(m[1], m[2].trim());
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
