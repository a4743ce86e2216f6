/**
 * An array spread into a call's arguments (`Math.min(...times)`, `items.push(...results)`) puts
 * every element on the stack: past about 100k elements V8 throws "Maximum call stack size
 * exceeded". Data from a target, a file or a run has no such bound, so the source spreads into
 * calls only what is provably small, each case named here with the reason it is small; the
 * calls that gather or compare values (Math.min/max, push, unshift, splice, concat,
 * String.fromCharCode, apply) never take a spread of anything but an array literal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { root, sourceFiles } from '../helpers/imports.js';

const FOLDERS = ['app', 'core', 'suites', 'generators', 'reference', 'reports', 'bench', 'scripts'];

/** Calls whose argument count is the data's size: never spread into (a loop or a reduce instead). */
const GATHERING = /(^|\.)(min|max|push|unshift|splice|concat|fromCharCode|fromCodePoint|apply)$/;

/** Callees that may take a spread, each for a reason that bounds its size. */
const ALLOWED: readonly { file: RegExp; callee: RegExp; why: string }[] = [
  {
    file: /^generators\/|^suites\/properties\.ts$/,
    callee: /^fc\s*\.\s*(constantFrom|oneof|tuple)$/,
    why: "fast-check's variadic arbitraries over the spec model's fixed tables, enum options, and tuples whose length the model bounds",
  },
  {
    file: /^generators\/overrides\/billing\.ts$/,
    callee: /^(dayBetween|euros)$/,
    why: 'a two-element [min, max] tuple',
  },
  {
    file: /^reports\/plain-text\.ts$/,
    callee: /^formatBody$/,
    why: "inline()'s [text, truncated] tuple",
  },
  {
    file: /^app\/ecosystem\/pact\/interactions\.ts$/,
    callee: /^items$/,
    why: "the notes and transactions of the package's own fixtures (fixtures/), a handful each",
  },
  {
    file: /^app\/ecosystem\/pact\/matchers\.ts$/,
    callee: /^M\.arrayContaining$/,
    why: "Pact's variadic matcher over the items one interaction pins (the package's own)",
  },
];

interface Spread {
  file: string;
  line: number;
  callee: string;
  argument: string;
}

/** Every spread of something other than an array literal into a call's or a `new`'s arguments. */
function spreadsInto(file: string, text: string): Spread[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Spread[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isSpreadElement(node) &&
      (ts.isCallExpression(node.parent) || ts.isNewExpression(node.parent)) &&
      !ts.isArrayLiteralExpression(node.expression)
    )
      found.push({
        file,
        line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
        callee: node.parent.expression.getText().replace(/\s+/g, ''),
        argument: node.expression.getText().replace(/\s+/g, ' ').slice(0, 60),
      });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const refused = (s: Spread): boolean =>
  GATHERING.test(s.callee) || !ALLOWED.some((a) => a.file.test(s.file) && a.callee.test(s.callee));

const files = [...sourceFiles(FOLDERS), 'scripts/prepare.mjs', 'scripts/build.mjs', 'scripts/build-and-typecheck.mjs'];

describe('no unbounded spread into a call', () => {
  it('the source spreads into calls only what the allow-list says is small', () => {
    const bad = files
      .flatMap((file) => spreadsInto(file, readFileSync(join(root, file), 'utf8')))
      .filter(refused)
      .map((s) => `${s.file}:${s.line}: ${s.callee}(...${s.argument})`);
    expect(bad).toEqual([]);
  });

  it('every allow-list entry still matches a call (no stale excuse)', () => {
    const spreads = files.flatMap((file) => spreadsInto(file, readFileSync(join(root, file), 'utf8')));
    const stale = ALLOWED.filter((a) => !spreads.some((s) => a.file.test(s.file) && a.callee.test(s.callee)));
    expect(stale.map((a) => a.why)).toEqual([]);
  });

  it('the checker finds the spreads that overflow and lets literals through', () => {
    const text = [
      'Math.min(...times);',
      'items.push(...results);',
      'a.b.unshift(...c.map(f));',
      'fc.constantFrom(...data);',
      'fn(...[1, 2]);',
      'Math.max(...[a, b]);',
      'const x = [...many];',
    ].join('\n');
    const found = spreadsInto('app/example.ts', text);
    expect(found.map((s) => [s.line, s.callee, refused(s)])).toEqual([
      [1, 'Math.min', true],
      [2, 'items.push', true],
      [3, 'a.b.unshift', true],
      [4, 'fc.constantFrom', true],
    ]);
    expect(spreadsInto('generators/example.ts', 'fc.constantFrom(...TABLE);').filter(refused)).toEqual([]);
    expect(spreadsInto('generators/example.ts', 'Math.max(...TABLE);').filter(refused)).toHaveLength(1);
  });

  it('a spread of 200k arguments does overflow the stack on this Node (why the rule exists)', () => {
    const many = Array.from({ length: 200_000 }, (_, i) => i);
    expect(() => Math.min(...many)).toThrow(RangeError);
  });
});
