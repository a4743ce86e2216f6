/**
 * Bounds on what a target can make the runner keep, print or write (docs/design.md §6): a quoted
 * value is cut at QUOTE_LIMIT with its size said, a value nested deeper than MAX_DEPTH is clipped
 * with a marker, and walking a value never recurses deeper than that, so a 100k-deep JSON answer is
 * data, never a stack overflow.
 */

/** The most of one quoted value (a snippet, an `actual`, an observation, a cause's answer) kept. */
export const QUOTE_LIMIT = 2 * 1024;
/** Deeper than this a value is replaced by a marker. */
export const MAX_DEPTH = 64;
/** Entries of one array or object kept when a value is clipped. */
export const MAX_ENTRIES = 200;

/**
 * A copy of `part` that holds on to nothing else. A slice of a string keeps the whole string it was
 * cut from alive (V8 shares the characters), so 2 KB quoted from a 15 MB answer would keep the 15 MB
 * for as long as the quote is kept: in a failure, until the run ends.
 */
export function detached(part: string): string {
  return JSON.parse(JSON.stringify(part)) as string;
}

/** `text` cut at `limit` characters, with its size in bytes said. */
export function capText(text: string, limit = QUOTE_LIMIT): string {
  if (text.length <= limit) return text;
  return `${detached(text.slice(0, limit))}… (${Buffer.byteLength(text)} bytes)`;
}

const deeper = `[clipped: nested deeper than ${MAX_DEPTH} levels]`;

/**
 * A copy of `value` no deeper than MAX_DEPTH and with at most MAX_ENTRIES entries per array or
 * object (the rest said in one more entry), strings cut at `limit`. Cycles become `[circular]`.
 */
export function clipValue(value: unknown, limit = QUOTE_LIMIT): unknown {
  const seen = new WeakSet<object>();
  const walk = (node: unknown, depth: number): unknown => {
    if (typeof node === 'string') return capText(node, limit);
    if (typeof node === 'bigint') return node.toString();
    if (node === null || typeof node !== 'object' || node instanceof Date) return node;
    if (depth >= MAX_DEPTH) return deeper;
    if (seen.has(node)) return '[circular]';
    seen.add(node);
    let copy: unknown;
    if (Array.isArray(node)) {
      const kept = node.slice(0, MAX_ENTRIES).map((v) => walk(v, depth + 1));
      copy = node.length > MAX_ENTRIES ? [...kept, `… and ${node.length - MAX_ENTRIES} more items`] : kept;
    } else {
      // Keys, not entries: an answer with a million keys would otherwise become a million pairs here.
      const keys = Object.keys(node);
      const kept = keys
        .slice(0, MAX_ENTRIES)
        .map((k) => [capText(k, limit), walk((node as Record<string, unknown>)[k], depth + 1)]);
      if (keys.length > MAX_ENTRIES) kept.push(['…', `and ${keys.length - MAX_ENTRIES} more keys`]);
      copy = Object.fromEntries(kept);
    }
    seen.delete(node);
    return copy;
  };
  return walk(value, 0);
}

/** JSON text of any value (deep, cyclic, with bigints) within `limit` characters, its size said when cut. */
export function quoteJson(value: unknown, limit = QUOTE_LIMIT): string {
  if (value === undefined) return 'undefined';
  const text = JSON.stringify(clipValue(value, limit)) ?? String(value);
  return capText(text, limit);
}

/**
 * A value to keep in a result (`failure.actual`, `expected`, a counterexample): itself when small,
 * otherwise its JSON text cut at `limit` with its size said.
 */
export function boundedValue(value: unknown, limit = QUOTE_LIMIT): unknown {
  if (value === undefined || value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return capText(value, limit);
  const clipped = clipValue(value, limit);
  const text = JSON.stringify(clipped) ?? '';
  return text.length <= limit ? clipped : capText(text, limit);
}

/**
 * Control characters that would act on a terminal or forge a line (C0 including newlines, DEL, C1,
 * line separators, bidirectional overrides) and lone surrogates.
 */
const CONTROLS =
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\x1b' };

/**
 * `text` with every control character written out (`\n`, `\x1b`, `\u009b`): data, never terminal
 * control. `keepLines` leaves newlines and tabs as they are (for text the runner laid out itself).
 */
export function showControls(text: string, keepLines = false): string {
  return text.replace(CONTROLS, (c) =>
    keepLines && (c === '\n' || c === '\t')
      ? c
      : (SHORT[c] ??
        (c.charCodeAt(0) < 0x100
          ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)),
  );
}
