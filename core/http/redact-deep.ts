/**
 * The pass every rule result and the run's record go through before anything reads them (progress
 * events, reports): every string in them — failure messages, `failure.actual` and `expected`,
 * observations, transcripts, counterexamples, replay commands, object keys — with every secret of
 * the run replaced. Parts of the runner redact as they record too; this pass is what guarantees
 * it, whatever a target chose to echo back and wherever a rule put what it saw.
 */
import { MAX_DEPTH } from './bounds.js';
import type { Redactor } from './redact.js';

/**
 * A copy of `value` with every secret in every string (keys included) replaced. A value nested
 * deeper than a report could show (a hostile 100k-deep answer a rule kept) is clipped with a
 * marker: the walk never recurses past MAX_DEPTH, so it cannot overflow the stack.
 */
export function redactValue<T>(value: T, redactor: Redactor): T {
  const seen = new WeakSet<object>(); // a value a rule recorded may refer to itself
  const walk = (node: unknown, depth: number): unknown => {
    if (typeof node === 'string') return redactor.text(node);
    if (node === null || typeof node !== 'object' || node instanceof Date) return node;
    if (depth >= MAX_DEPTH) return `[clipped: nested deeper than ${MAX_DEPTH} levels]`;
    if (seen.has(node)) return '[circular]';
    seen.add(node);
    const copy = Array.isArray(node)
      ? node.map((v) => walk(v, depth + 1))
      : Object.fromEntries(Object.entries(node).map(([k, v]) => [redactor.text(k), walk(v, depth + 1)]));
    seen.delete(node);
    return copy;
  };
  return walk(value, 0) as T;
}

/**
 * `value` with no secret left in it. Most results hold none: one look at the serialised value
 * decides, and only a value that leaks is copied.
 */
export function redactDeep<R extends object>(report: R, redactor: Redactor): R {
  let text: string | undefined;
  try {
    text = JSON.stringify(report);
  } catch {
    // Not serialisable as it is (a bigint in a counterexample, a cycle): walk it instead.
  }
  return text === undefined || redactor.leaks(text) || /:\/\/[^\s/"]*@/.test(text)
    ? redactValue(report, redactor)
    : report;
}
