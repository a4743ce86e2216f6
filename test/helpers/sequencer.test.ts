/** The order test files start in (test/helpers/sequencer.ts). */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import LongestFirst, { LONGEST_FIRST } from './sequencer.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What vitest's own sort reads of a file and of the run: one project, no cache, every file the same size. */
function fakes(names: string[]) {
  const project = { name: '', config: { sequence: { groupOrder: 0 }, isolate: false } };
  const files = names.map((name) => ({ moduleId: `${ROOT}test/${name}.test.ts`, project }));
  const ctx = {
    config: { root: ROOT },
    cache: { getFileTestResults: () => undefined, getFileStats: () => ({ size: 1 }) },
  };
  return { files: files as unknown as TestSpecification[], ctx: ctx as unknown as Vitest };
}

describe('the longest test files start first', () => {
  it('every entry of the list is a test file', () => {
    for (const name of LONGEST_FIRST) expect(existsSync(`${ROOT}test/${name}.test.ts`), name).toBe(true);
    expect(new Set(LONGEST_FIRST).size).toBe(LONGEST_FIRST.length);
  });

  it("puts the listed files first, in the list's order, and keeps vitest's order for the rest", async () => {
    const { files, ctx } = fakes(['spec/model', LONGEST_FIRST[2], 'spec/notes', LONGEST_FIRST[0], 'cli/serve']);
    const sorted = await new LongestFirst(ctx).sort(files);
    expect(sorted.map((f) => f.moduleId.slice(`${ROOT}test/`.length, -'.test.ts'.length))).toEqual([
      LONGEST_FIRST[0],
      LONGEST_FIRST[2],
      'spec/model',
      'spec/notes',
      'cli/serve',
    ]);
  });
});
