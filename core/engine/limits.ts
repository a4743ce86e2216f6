/**
 * Limits an implementation has where the spec shows none (§2.3: "Required or optional flags, allowed
 * values and validation rules of every account field: not shown"; §8: "payload size limits: not
 * shown"): a longest string, an integer range, most items in a list. Declared ones (`limits:` in the
 * config) keep generated values inside them (`withinDeclared`). An undeclared one shows as a §7.1 400
 * naming the field that carries an edge value; `judgeRefusal` is the one judgement of such a refusal,
 * used by every rule that sends edge values: a discovered limit (INFO, the case is replayed inside
 * it) or a failure, with the reason.
 */
import type { LimitsConfig } from '../config/schema.js';
import { fixtureCatalogue, loadFixture } from '../spec/fixtures.js';
import { NON_FIELD_ERRORS } from '../spec/non-field-errors.js';
import { getAtPath, isPlainObject } from '../spec/paths.js';

export type { DiscoveredLimit } from './result.js';

export type DeclaredLimits = LimitsConfig;

/** What a limit bounds. */
export type LimitKind = 'length' | 'integer' | 'items' | 'bytes';

/** The size of a request body as sent: its compact JSON in UTF-8 bytes. */
export const bodyBytes = (body: unknown): number => Buffer.byteLength(JSON.stringify(body) ?? '');

/** One limit a refusal showed: where, what was refused, and the error code that said so. */
export interface FoundLimit {
  /** The §7.1 attr, as the target wrote it (`ledgers.0.current_statement_transactions.1.display_note`). */
  attr: string;
  kind: LimitKind;
  /** The size refused: characters, the integer itself, or items. */
  refused: number;
  code: string;
}

export type RefusalJudgement = { kind: 'limit'; limits: FoundLimit[] } | { kind: 'failure'; reason: string };

type Floors = Record<LimitKind, number>;

/**
 * The most the spec's own examples carry (the canonical fixtures, written from them), in all and per
 * field name: a refusal at or below what the examples carry for that field is a refusal of what the
 * spec shows as valid, never a limit the spec leaves open. A field no example carries has no floor.
 */
const FLOORS = (() => {
  const all: Floors = { length: 0, integer: 0, items: 0, bytes: 0 };
  const byField = new Map<string, Floors>();
  const raise = (name: string, kind: LimitKind, size: number) => {
    const own = byField.get(name) ?? { length: 0, integer: 0, items: 0, bytes: 0 };
    own[kind] = Math.max(own[kind], size);
    byField.set(name, own);
    all[kind] = Math.max(all[kind], size);
  };
  const walk = (v: unknown, name: string) => {
    if (typeof v === 'string') raise(name, 'length', [...v].length);
    else if (typeof v === 'number' && Number.isInteger(v)) raise(name, 'integer', Math.abs(v));
    else if (Array.isArray(v)) {
      raise(name, 'items', v.length);
      for (const item of v) walk(item, name);
    } else if (isPlainObject(v)) for (const [key, item] of Object.entries(v)) walk(item, key);
  };
  for (const f of fixtureCatalogue) {
    const fixture = loadFixture(f.name);
    all.bytes = Math.max(all.bytes, bodyBytes(fixture));
    walk(fixture, '');
  }
  return { all, byField };
})();

/** The most the spec's examples carry anywhere: the longest string, largest integer, longest list, largest body. */
export const EXAMPLE_FLOORS: Readonly<Floors> = FLOORS.all;

/** The most the spec's examples carry for the field at `attr` (by its name); 0 where no example carries it. */
export const floorAt = (attr: string, kind: LimitKind): number => FLOORS.byField.get(lastName(attr))?.[kind] ?? 0;

/**
 * §7.1 codes that say a field is missing or empty: a present field refused with one is a failure,
 * never a limit (`required`, `missing_field`, `blank`, `null`, …: any code naming absence).
 */
const MISSING = /required|missing|blank|null|empty|absent/i;

/** Characters as a person counts them (code points): an astral character is one. */
const length = (s: string) => [...s].length;

/** The limit kind an edge value at `value` can meet, and its size; undefined when it can meet none. */
function sizeOf(value: unknown): { kind: LimitKind; size: number } | undefined {
  if (typeof value === 'string') return { kind: 'length', size: length(value) };
  if (typeof value === 'number' && Number.isInteger(value)) return { kind: 'integer', size: value };
  if (Array.isArray(value)) return { kind: 'items', size: value.length };
  return undefined;
}

const exceedsFloor = (attr: string, kind: LimitKind, size: number) => Math.abs(size) > floorAt(attr, kind);

/** `ledgers.0.notes.12.body` as a pattern: `ledgers.*.notes.*.body`. */
export const fieldPattern = (attr: string) => attr.replace(/(^|\.)\d+(?=\.|$)/g, '$1*');

const lastName = (attr: string): string =>
  attr
    .split('.')
    .filter((p) => !/^\d+$/.test(p))
    .pop() ?? attr;

/** The declared limits of the field at `attr`: its own (by dot path, then by name) over the global ones. */
export function limitsAt(declared: DeclaredLimits | undefined, attr: string) {
  const own = declared?.fields?.[fieldPattern(attr)] ?? declared?.fields?.[lastName(attr)] ?? {};
  return {
    max_length: own.max_length ?? declared?.max_string_length,
    min: own.min ?? declared?.integer_min,
    max: own.max ?? declared?.integer_max,
    max_items: own.max_items ?? declared?.max_items,
  };
}

/** Whether `size` of `kind` is inside what is declared for `attr` (true when nothing is declared). */
function insideDeclared(declared: DeclaredLimits | undefined, attr: string, kind: LimitKind, size: number) {
  const at = limitsAt(declared, attr);
  if (kind === 'length') return at.max_length === undefined || size <= at.max_length;
  if (kind === 'items') return at.max_items === undefined || size <= at.max_items;
  return (at.min === undefined || size >= at.min) && (at.max === undefined || size <= at.max);
}

/**
 * Judges the answer to a request carrying valid values (generated within the spec's words), some at
 * an edge. A discovered limit only when every part says so: status 400, a §7.1 body, and every
 * errors item naming a field of the request whose value is a string, integer or list larger than the
 * spec's examples carry and than any declared limit allows, with a code that does not call it
 * missing. Anything else is a failure, with the reason: a 5xx or other status, a body that names no
 * field, a field the request does not carry, a present field called missing, a value the spec's
 * examples carry, a value inside the declared limits.
 */
export function judgeRefusal(
  answer: { status: number; body: unknown },
  sent: unknown,
  declared?: DeclaredLimits,
  /** §7.1: the endpoint may report under `non_field_errors` (any create endpoint). */
  nonFieldErrors = false,
): RefusalJudgement {
  if (answer.status === 413) return judgeTooLarge(sent, declared);
  if (answer.status !== 400) return { kind: 'failure', reason: `answered ${answer.status}, not a §7.1 400` };
  const errors = isPlainObject(answer.body) ? answer.body.errors : undefined;
  if (!Array.isArray(errors) || errors.length === 0)
    return { kind: 'failure', reason: 'a 400 without §7.1 errors naming a field' };
  const limits: FoundLimit[] = [];
  for (const item of errors) {
    const attr = isPlainObject(item) && typeof item.attr === 'string' ? item.attr : undefined;
    const code = isPlainObject(item) && typeof item.code === 'string' ? item.code : '';
    if (attr === undefined) return { kind: 'failure', reason: 'an errors item without attr' };
    if (attr === NON_FIELD_ERRORS && nonFieldErrors) {
      // §7.1 lets this endpoint name no field: a limit only when one value of the request could meet one.
      const candidates = edgeValues(sent, declared);
      if (candidates.length !== 1)
        return {
          kind: 'failure',
          reason: `refused under ${NON_FIELD_ERRORS} (${code}) a request carrying ${candidates.length} values past the spec's examples: no limit can be told`,
        };
      if (MISSING.test(code))
        return { kind: 'failure', reason: `calls something missing (${code}) under ${NON_FIELD_ERRORS}` };
      limits.push({ ...candidates[0], code });
      continue;
    }
    const value = getAtPath(sent, attr);
    if (value === undefined)
      return { kind: 'failure', reason: `names ${attr}, which the request does not carry (another field)` };
    if (MISSING.test(code))
      return { kind: 'failure', reason: `calls ${attr} missing (${code}), but the request carries it` };
    const size = sizeOf(value);
    if (!size) return { kind: 'failure', reason: `refuses ${attr} (${code}): no length, range or count to limit` };
    if (!exceedsFloor(attr, size.kind, size.size))
      return {
        kind: 'failure',
        reason: `refuses ${attr} (${code}) at ${describeSize(size.kind, size.size)}, no more than the spec's own examples carry for ${lastName(attr)}`,
      };
    if (insideDeclared(declared, attr, size.kind, size.size) && hasDeclared(declared, attr, size.kind))
      return {
        kind: 'failure',
        reason: `refuses ${attr} (${code}) at ${describeSize(size.kind, size.size)}, inside the declared limits`,
      };
    limits.push({ attr, kind: size.kind, refused: size.size, code });
  }
  return { kind: 'limit', limits };
}

/**
 * §8 "payload size limits: not shown": a 413 is a body limit when the body is larger than every
 * example the spec shows and than the declared `max_body_bytes`.
 */
function judgeTooLarge(sent: unknown, declared?: DeclaredLimits): RefusalJudgement {
  const bytes = bodyBytes(sent);
  if (bytes <= EXAMPLE_FLOORS.bytes)
    return {
      kind: 'failure',
      reason: `answered 413 to a body of ${bytes} bytes, no larger than the spec's own examples`,
    };
  if (declared?.max_body_bytes !== undefined && bytes <= declared.max_body_bytes)
    return { kind: 'failure', reason: `answered 413 to a body of ${bytes} bytes, inside the declared max_body_bytes` };
  return { kind: 'limit', limits: [{ attr: '', kind: 'bytes', refused: bytes, code: '413' }] };
}

/** Every string, integer and list of `sent` larger than the spec's examples carry and than declared. */
function edgeValues(sent: unknown, declared?: DeclaredLimits): Omit<FoundLimit, 'code'>[] {
  const found: Omit<FoundLimit, 'code'>[] = [];
  const walk = (value: unknown, at: string) => {
    const size = sizeOf(value);
    if (
      size &&
      at !== '' &&
      exceedsFloor(at, size.kind, size.size) &&
      !(hasDeclared(declared, at, size.kind) && insideDeclared(declared, at, size.kind, size.size))
    )
      found.push({ attr: at, kind: size.kind, refused: size.size });
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, at ? `${at}.${i}` : String(i)));
    else if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) walk(v, at ? `${at}.${k}` : k);
  };
  walk(sent, '');
  return found;
}

function hasDeclared(declared: DeclaredLimits | undefined, attr: string, kind: LimitKind) {
  const at = limitsAt(declared, attr);
  if (kind === 'length') return at.max_length !== undefined;
  if (kind === 'items') return at.max_items !== undefined;
  return at.min !== undefined || at.max !== undefined;
}

export const describeSize = (kind: LimitKind, size: number) =>
  kind === 'length'
    ? `${size} characters`
    : kind === 'items'
      ? `${size} items`
      : kind === 'bytes'
        ? `${size} bytes`
        : String(size);

/**
 * The value at `limit.attr` shrunk towards a typical one: half the characters (the start kept, so
 * an identifying prefix stays), half the integer's bits, the first half of the list. Never below the
 * spec's examples: a target that refuses those has no limit the spec leaves open.
 */
export function shrunkInside(sent: unknown, limit: FoundLimit): unknown {
  if (limit.kind === 'bytes') return halvedLongestList(sent);
  const copy = structuredClone(sent);
  const parts = limit.attr.split('.');
  const parent = getAtPath(copy, parts.slice(0, -1).join('.')) ?? (parts.length === 1 ? copy : undefined);
  const key = parts[parts.length - 1];
  if (parent === null || typeof parent !== 'object') return copy;
  const node = parent as Record<string, unknown>;
  const value = node[key];
  if (typeof value === 'string') {
    const chars = [...value];
    node[key] = chars.slice(0, Math.max(floorAt(limit.attr, 'length'), Math.ceil(chars.length / 2))).join('');
  } else if (typeof value === 'number') {
    // Half the bits, not half the value: 2^53 reaches a 32-bit range in one step, not twenty-two.
    const bits = Math.ceil(Math.log2(Math.abs(value) + 1));
    const half = Math.trunc(value / 2 ** Math.ceil(bits / 2));
    const floor = floorAt(limit.attr, 'integer');
    node[key] = Math.abs(half) < floor ? Math.sign(value) * floor : half;
  } else if (Array.isArray(value))
    node[key] = value.slice(0, Math.max(floorAt(limit.attr, 'items'), Math.ceil(value.length / 2)));
  return copy;
}

/** A body too large (413): its longest list halved, which is what makes a request body large. */
function halvedLongestList(sent: unknown): unknown {
  const copy = structuredClone(sent);
  let longest: unknown[] | undefined;
  const walk = (v: unknown) => {
    if (Array.isArray(v)) {
      if (!longest || v.length > longest.length) longest = v;
      v.forEach(walk);
    } else if (isPlainObject(v)) Object.values(v).forEach(walk);
  };
  walk(copy);
  if (longest && longest.length > 1) longest.splice(Math.ceil(longest.length / 2));
  return copy;
}

/** Characters kept from the end of a string cut inside a declared length. */
const KEPT_END = 40;

/**
 * `value` with every string, integer and list cut or moved inside the declared limits (generated
 * payloads stay within what the target says it refuses). Strings keep their start and end, integers go to
 * the nearest bound, lists keep their first items. `at` is the dot path of `value` in its request.
 */
export function withinDeclared<T>(value: T, declared: DeclaredLimits | undefined, at = ''): T {
  if (!declared) return value;
  const limits = limitsAt(declared, at);
  if (typeof value === 'string') {
    const chars = [...value];
    if (limits.max_length === undefined || chars.length <= limits.max_length) return value;
    // The start and the end are kept: a run's identifiers are appended (a note body's ` [cf-…-N12]`).
    const tail = Math.min(KEPT_END, Math.floor(limits.max_length / 2));
    return [...chars.slice(0, limits.max_length - tail), ...chars.slice(chars.length - tail)].join('') as T;
  }
  if (typeof value === 'number' && Number.isInteger(value)) {
    let n: number = value;
    if (limits.max !== undefined && n > limits.max) n = limits.max;
    if (limits.min !== undefined && n < limits.min) n = limits.min;
    return n as T;
  }
  const join = (key: string | number) => (at === '' ? String(key) : `${at}.${key}`);
  if (Array.isArray(value)) {
    const kept = limits.max_items !== undefined ? value.slice(0, limits.max_items) : value;
    return kept.map((item, i) => withinDeclared(item, declared, join(i))) as T;
  }
  if (isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withinDeclared(v, declared, join(k))])) as T;
  return value;
}

/**
 * The `limits:` line that declares a discovered limit: for its field (the dot path with `*` for
 * indexes; a top-level field by its name), with the largest value the replay saw accepted, or else
 * just under the value refused.
 */
export function declarationOf(limit: FoundLimit, accepted?: number): string {
  if (limit.kind === 'bytes') return `limits: { max_body_bytes: ${accepted ?? limit.refused - 1} }`;
  const bound = accepted ?? (limit.kind === 'integer' ? limit.refused - Math.sign(limit.refused) : limit.refused - 1);
  const key = limit.kind === 'length' ? 'max_length' : limit.kind === 'items' ? 'max_items' : bound < 0 ? 'min' : 'max';
  return `limits: { fields: { ${JSON.stringify(fieldPattern(limit.attr))}: { ${key}: ${bound} } } }`;
}
