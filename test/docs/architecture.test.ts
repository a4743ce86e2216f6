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

/** Files under `dir` whose text matches `pattern`, with the first match. */
function mentions(dir: string, pattern: RegExp): { file: string; match: string }[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) => {
      const match = readFileSync(join(root, dir, file), 'utf8').match(pattern);
      return match ? [{ file: `${dir}/${file}`, match: match[0] }] : [];
    });
}

// Faults are composed around the faithful handlers from outside (reference/faults); a handler that
// named one would be unfaithful by construction.
describe('the reference handlers know no fault', () => {
  it('no handler mentions a fault', () => {
    expect(mentions('reference/handlers', /fault/i)).toEqual([]);
  });

  it('no handler imports from reference/faults', () => {
    expect(importsOf('reference/handlers').filter((i) => /(^|\/)faults\//.test(i.from))).toEqual([]);
  });

  it('the checkers see mentions and imports (they would find a violation)', () => {
    expect(mentions('reference', /fault/i).some((m) => m.file === 'reference/server.ts')).toBe(true);
    expect(importsOf('reference').some((i) => i.file === 'reference/server.ts' && /(^|\/)faults\//.test(i.from))).toBe(
      true,
    );
  });
});
