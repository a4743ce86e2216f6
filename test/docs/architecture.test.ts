/**
 * Dependencies point one way: the suites stand on the engine, the CLI and library entry hand the
 * rules in, and the report model knows nothing of the command line.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

function importsOf(dir: string): { file: string; from: string }[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) => {
      const text = readFileSync(join(root, dir, file), 'utf8');
      return [...text.matchAll(/(?:import|export)[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g)].map((m) => ({
        file: `${dir}/${file}`,
        from: m[1] ?? m[2],
      }));
    });
}

describe('dependency direction', () => {
  it('the engine imports nothing from the suites', () => {
    expect(importsOf('src/engine').filter((i) => i.from.includes('suites/'))).toEqual([]);
  });

  it('the engine imports nothing from the report model or the reporters: it returns the run record', () => {
    expect(importsOf('src/engine').filter((i) => /(^|\/)(report|reports)\//.test(i.from))).toEqual([]);
  });

  it('the report model imports nothing from the CLI', () => {
    expect(importsOf('src/report').filter((i) => i.from.includes('/cli/'))).toEqual([]);
  });

  it('the checker sees imports (it would find a violation)', () => {
    expect(importsOf('src').some((i) => i.file === 'src/conformance.ts' && i.from.includes('suites/'))).toBe(true);
  });
});
