/**
 * The README and the CI examples stay true: every `npx conformance …` command they show parses
 * with the real command's options, and the YAML examples are valid YAML.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const DOCS = ['README.md', 'reference/README.md', 'examples/ci/github-actions.yml', 'examples/ci/gitlab-ci.yml'];

/** The `npx conformance …` commands of a text, one per line (folded YAML lines joined). */
function commands(text: string): string[] {
  const joined = text.replace(
    />-\n(\s+)(npx conformance[^\n]*)((?:\n\1[^\n]+)*)/g,
    (_m, indent: string, first: string, rest: string) => `\n${indent}${first}${rest.replace(/\n\s+/g, ' ')}`,
  );
  return [...joined.matchAll(/npx conformance((?: [^\n#`|;&]+)?)/g)].map((m) => m[1].trim());
}

/** Splits a shell-ish command line (quotes, ${{ … }} and $VAR kept as one word). */
function words(line: string): string[] {
  return [...line.matchAll(/"[^"]*"|'[^']*'|\$\{\{[^}]*\}\}\S*|\S+/g)].map((m) => m[0].replace(/^["']|["']$/g, ''));
}

const COMMANDS: Record<string, () => Promise<Record<string, unknown>>> = {
  run: async () => (await import('../../app/cli/run.js')).runOptions,
};

describe('documented commands', () => {
  for (const doc of DOCS) {
    it(`every npx conformance command in ${doc} parses`, async () => {
      const found = commands(read(doc));
      expect(found.length, `${doc} shows npx conformance`).toBeGreaterThan(0);
      for (const line of found) {
        const args = words(line);
        const [first] = args;
        // Subcommands with their own options are checked by running "--help"-free parsing below only for the run command.
        if (first && !first.startsWith('-') && first !== 'run') continue;
        const options = await COMMANDS.run();
        expect(
          () =>
            parseArgs({
              args: first === 'run' ? args.slice(1) : args,
              options: options as never,
              strict: true,
              allowPositionals: false,
            }),
          `${doc}: npx conformance ${line}`,
        ).not.toThrow();
      }
    });
  }

  it('the CI examples are valid YAML and gate on the JUnit report', () => {
    const gh = parse(read('examples/ci/github-actions.yml'));
    expect(gh.jobs.conformance.strategy.matrix.shard).toEqual([1, 2, 3]);
    const gl = parse(read('examples/ci/gitlab-ci.yml'));
    expect(gl.conformance.artifacts.reports.junit).toBe('conformance-report/junit.xml');
  });
});
