/**
 * The layers of docs/design.md §3, each importing only from the layers below it: the applications
 * stand on the suites and the reference server, those on the generators and report writers, and all
 * of them on the core, whose own folders are layered too. Dynamic and type-only imports count.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ImportEdge, circles, importGraph, importsIn, root } from '../helpers/imports.js';

/** Top to bottom. Folders of one layer import nothing from each other either. */
const LAYERS: readonly { name: string; folders: readonly string[] }[] = [
  { name: 'benchmarks', folders: ['bench'] },
  { name: 'applications', folders: ['app'] },
  { name: 'rules and reference server', folders: ['suites', 'reference'] },
  { name: 'generators and report writers', folders: ['generators', 'reports'] },
  { name: 'report model', folders: ['core/report'] },
  { name: 'engine', folders: ['core/engine'] },
  { name: 'authentication', folders: ['core/auth'] },
  { name: 'configuration', folders: ['core/config'] },
  { name: 'HTTP', folders: ['core/http'] },
  { name: 'spec model', folders: ['core/spec', 'core/domain', 'core/files'] },
];
const FOLDERS = LAYERS.flatMap((l) => l.folders);

function placeOf(file: string): { rank: number; folder: string } | undefined {
  for (const [rank, layer] of LAYERS.entries())
    for (const folder of layer.folders) if (file.startsWith(`${folder}/`)) return { rank, folder };
  return undefined;
}

/** Every import that goes up a layer, or sideways into another folder of the same layer. */
function violations(edges: readonly ImportEdge[]): string[] {
  return edges.flatMap(({ from, to }) => {
    const a = placeOf(from);
    const b = to ? placeOf(to) : undefined;
    if (!a || !b || a.folder === b.folder || b.rank > a.rank) return [];
    return [`${from} → ${to} (${LAYERS[a.rank].name} may not import ${LAYERS[b.rank].name})`];
  });
}

const graph = importGraph(FOLDERS);

describe('layers', () => {
  it('every source folder has a layer', () => {
    const top = readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !['node_modules', 'dist', 'test', 'scripts'].includes(d.name))
      .filter((d) =>
        readdirSync(join(root, d.name), { recursive: true, encoding: 'utf8' }).some((f) => f.endsWith('.ts')),
      )
      .map((d) => d.name);
    const core = readdirSync(join(root, 'core'), { withFileTypes: true }).map((d) => `core/${d.name}`);
    expect([...top.filter((t) => t !== 'core'), ...core].filter((f) => !FOLDERS.includes(f))).toEqual([]);
  });

  it('no import goes up a layer or across one', () => {
    expect(violations(graph)).toEqual([]);
  });

  it('the checker sees static, type-only and dynamic imports going up (it would find a violation)', () => {
    const dynamic = importsIn('core/engine/connection.ts', "const m = await import('../../app/embedded.js');");
    const typeOnly = importsIn('core/config/payloads.ts', "import type { X } from '../engine/templates.js';");
    const sideways = importsIn('suites/notes.ts', "export { y } from '../reference/index.js';");
    expect(violations([...dynamic, ...typeOnly, ...sideways])).toHaveLength(3);
    expect(graph.some((e) => e.from === 'app/conformance.ts' && e.to === 'suites/index.ts')).toBe(true);
  });
});

describe('no import circles', () => {
  it('no file reaches itself through its imports', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('the checker finds a circle (it would find a violation)', () => {
    const edges = [
      ...importsIn('core/engine/a.ts', "import type { B } from './b.js';"),
      ...importsIn('core/engine/b.ts', "import { c } from './c.js';"),
      ...importsIn('core/engine/c.ts', "const a = await import('./a.js');"),
    ];
    expect(circles(edges)).toEqual([['core/engine/a.ts', 'core/engine/b.ts', 'core/engine/c.ts']]);
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
    expect(
      graph.filter((e) => e.from.startsWith('reference/handlers/') && e.to?.startsWith('reference/faults/')),
    ).toEqual([]);
  });

  it('the checkers see mentions and imports (they would find a violation)', () => {
    expect(mentions('reference', /fault/i).some((m) => m.file === 'reference/server.ts')).toBe(true);
    expect(graph.some((e) => e.from === 'reference/server.ts' && e.to?.startsWith('reference/faults/'))).toBe(true);
  });
});
