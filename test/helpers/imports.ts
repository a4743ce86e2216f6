/**
 * The project's import graph, read with the TypeScript compiler's own pre-processor: static imports,
 * `export … from`, type-only imports and dynamic `import()` alike, so no arrow hides from the
 * architecture test.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import ts from 'typescript';

export const root = new URL('../../', import.meta.url).pathname;

/** Every .ts file under the given top-level folders, as repo-relative posix paths. */
export function sourceFiles(folders: readonly string[]): string[] {
  return folders.flatMap((folder) =>
    existsSync(join(root, folder))
      ? readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
          .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
          .map((file) => posix.join(folder, file.split('\\').join('/')))
      : [],
  );
}

export interface ImportEdge {
  from: string;
  /** The imported file, repo-relative; undefined for a package import. */
  to?: string;
  specifier: string;
}

/** The imports of one file's text (its path says where relative specifiers start). */
export function importsIn(file: string, text: string): ImportEdge[] {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles.map(({ fileName: specifier }) => {
    if (!specifier.startsWith('.')) return { from: file, specifier };
    const to = posix.normalize(posix.join(posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
    return { from: file, to, specifier };
  });
}

export function importGraph(folders: readonly string[]): ImportEdge[] {
  return sourceFiles(folders).flatMap((file) => importsIn(file, readFileSync(join(root, file), 'utf8')));
}

/** Strongly connected components of more than one file (or a file importing itself): the import circles. */
export function circles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!to) continue;
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  // Tarjan's algorithm, iteratively, so a long chain cannot overflow the stack.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const targets = next.get(frame.node)!;
      if (frame.i < targets.length) {
        const target = targets[frame.i++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, i: 0 });
        } else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = targets.includes(frame.node);
        if (component.length > 1 || selfLoop) found.push(component.sort());
      }
    }
  }
  return found;
}

/** A path relative to the repo root, for messages. */
export const repoPath = (absolute: string) => relative(root, absolute) || dirname(absolute);
