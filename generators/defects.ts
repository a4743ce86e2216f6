/**
 * Single-defect payloads (docs/design.md §7): a valid payload with exactly one thing wrong, at any
 * depth and index, and the §7.1 `attr` a server must report for it. Every eligible place comes
 * from walking the payload with its model schema; every defect value is checked against the
 * field's own schema, so it is a defect by construction.
 */
import fc from 'fast-check';
import type { z } from 'zod';
import { getAtPath, pointsAt, replacedAtPath, dotPath } from '../core/spec/paths.js';
import { model } from '../core/spec/index.js';
import { fieldsOf, formatOf, isPlainObject, specOf } from './model-shape.js';
import { fewShrinks } from './few-shrinks.js';
import type { JudgingLevel } from '../core/engine/verdict.js';
import {
  accountPayload,
  notesRequest,
  transactionsRequest,
  type AccountKey,
  type AccountOptions,
  type Completeness,
  type TransactionsOptions,
} from './payloads.js';

export type DefectLevel = JudgingLevel;

interface DefectSpec {
  level: DefectLevel;
  /**
   * `exact`: the error names the field. `within`: it may name the field or a place inside it —
   * a server built like Django REST framework reports a wrong type or a note-level rule as
   * `<attr>.non_field_errors`.
   */
  attr: 'exact' | 'within';
  description: string;
}

/** Only defects the spec makes unambiguous are MUST (docs/design.md §7). */
export const DEFECTS = {
  'impossible-date': { level: 'MUST', attr: 'exact', description: 'a date that does not exist (§2.1 YYYY-MM-DD)' },
  'malformed-date': { level: 'MUST', attr: 'exact', description: 'a date not written YYYY-MM-DD (§2.1)' },
  'datetime-for-date': { level: 'MUST', attr: 'exact', description: 'a datetime where a date is due (§2.1)' },
  'impossible-datetime': {
    level: 'MUST',
    attr: 'exact',
    description: 'a datetime on a day or at a time that does not exist (§2.1)',
  },
  'malformed-datetime': {
    level: 'MUST',
    attr: 'exact',
    description: 'a datetime not written YYYY-MM-DDTHH:MM:SSZ (§2.1)',
  },
  'enum-outside-set': {
    level: 'MUST',
    attr: 'exact',
    description: 'a value outside the documented set (§2.3 supply_type, §2.4 type, §2.5 billing_document_type)',
  },
  'wrong-type-array': {
    level: 'MUST',
    attr: 'within',
    description: 'an object or a string where an array is due (§2)',
  },
  'wrong-type-object': {
    level: 'MUST',
    attr: 'within',
    description: 'a string or an array where an object is due (§2)',
  },
  'note-without-content': {
    level: 'MUST',
    attr: 'within',
    description: 'a note with neither body nor document_paths (§2.3, §4.2 notes rule 4)',
  },
  'malformed-email': {
    level: 'MUST',
    attr: 'exact',
    description: 'an e-mail field that is not an e-mail address (§2.3 customer)',
  },
  'enum-wrong-case': {
    level: 'MUST',
    attr: 'exact',
    description:
      'a documented value written in another case, gas for GAS (§2.3 supply_type, §2.4 type, §2.5 billing_document_type)',
  },
  'fraction-for-integer': {
    level: 'MUST',
    attr: 'exact',
    description: 'a number with a fraction where an integer is due (§2.3 agreement, reading)',
  },
  'not-a-boolean': {
    level: 'MUST',
    attr: 'exact',
    description:
      'a value no reading makes a boolean where a boolean is due (§2.3 unknown_occupier, note is_pinned; §4.1 dry_run)',
  },
  'datetime-missing-z': {
    level: 'SHOULD',
    attr: 'exact',
    description: 'a datetime without the Z designator (§2.1 shows it; refusing other ISO 8601 spellings is a reading)',
  },
  'required-missing': {
    level: 'SHOULD',
    attr: 'exact',
    description: 'an expected field left out of a provided object (presence not shown; a strong reading)',
  },
  'malformed-phone': {
    level: 'SHOULD',
    attr: 'exact',
    description: 'a phone field that is not a phone number (§2.3; the accepted format is not shown)',
  },
  'wrong-type-string': {
    level: 'MUST',
    attr: 'exact',
    description:
      'an array or a boolean where a string is due (§2: the field is a string; no reading makes a list or true a string)',
  },
  'wrong-type-number': {
    level: 'MUST',
    attr: 'exact',
    description:
      'text that is no number where a number is due (§2; §2.4 amount takes a number or a decimal string, and this is neither)',
  },
  'boolean-as-string': {
    level: 'SHOULD',
    attr: 'exact',
    description:
      'a boolean sent as the string "true" or "false" (§2.3 shows a boolean; many frameworks read these strings as booleans, so refusing them is a reading)',
  },
} as const satisfies Record<string, DefectSpec>;

export type DefectKind = keyof typeof DEFECTS;

export interface Defect {
  kind: DefectKind;
  level: DefectLevel;
  /** What is wrong, in words, with the value sent. */
  description: string;
}

export interface Invalid {
  payload: Record<string, unknown>;
  /** §7.1: the dot-delimited, zero-based path the server should report. */
  attr: string;
  defect: Defect;
}

export interface DefectOptions {
  /** The kinds to draw from; all when not given (see `defectKinds`). */
  kinds?: readonly DefectKind[];
}

export const defectKinds = (level?: DefectLevel): DefectKind[] =>
  (Object.keys(DEFECTS) as DefectKind[]).filter((kind) => level === undefined || DEFECTS[kind].level === level);

/** Whether an `attr` a server reported points at the defect. */
export function matchesDefect(reported: string, invalid: Pick<Invalid, 'attr' | 'defect'>): boolean {
  return DEFECTS[invalid.defect.kind].attr === 'within' ? pointsAt(reported, invalid.attr) : reported === invalid.attr;
}

/** §2.3: a single account payload with one defect; complete or sparse, unless `complete` says which. */
export function invalidAccountPayload(options: AccountOptions & DefectOptions): fc.Arbitrary<Invalid> {
  const completeness = options.complete === undefined ? fc.boolean() : fc.constant(options.complete);
  return completeness.chain((complete) =>
    withDefect(accountPayload({ ...options, complete }), model.AccountPayload, options.kinds),
  );
}

/** §4.2 notes with one defect; paths start at `notes.N`. */
export function invalidNotesRequest(options: AccountKey & Completeness & DefectOptions): fc.Arbitrary<Invalid> {
  return withDefect(notesRequest(options), model.NotesRequest, options.kinds, 'notes');
}

/** §4.2 transactions with one defect; paths start at `transactions.N`. */
export function invalidTransactionsRequest(options: TransactionsOptions & DefectOptions): fc.Arbitrary<Invalid> {
  return withDefect(transactionsRequest(options), model.TransactionsRequest, options.kinds, 'transactions');
}

type Path = readonly (string | number)[];

/** Marks a field to be left out rather than replaced. */
const LEFT_OUT = Symbol('left out');

interface Site {
  kind: DefectKind;
  path: Path;
  /**
   * Replacements for the value at `path` that are a defect of `kind` there. Worked out for the
   * chosen site only: a payload has hundreds of sites.
   */
  values: () => readonly unknown[];
}

function withDefect(
  valid: fc.Arbitrary<object>,
  schema: z.ZodType,
  kinds: readonly DefectKind[] = defectKinds(),
  /** Only places under this top-level field (the list a request adds); the account key is left as it is. */
  under?: string,
): fc.Arbitrary<Invalid> {
  const wanted = new Set(kinds);
  // The defect is drawn from the payload's sites, so a smaller payload mostly moves it (few-shrinks.ts).
  return fewShrinks(valid)
    .map((payload) => ({
      payload,
      sites: sitesOf(schema, payload, wanted).filter((site) => under === undefined || site.path[0] === under),
    }))
    .filter(({ sites }) => sites.length > 0)
    .chain(({ payload, sites }) =>
      chooseDefect(sites).map(({ site, value }) => {
        const attr = dotPath(site.path);
        const { level, description } = DEFECTS[site.kind];
        return {
          payload: replacedAtPath(payload, attr, value === LEFT_OUT ? undefined : structuredClone(value)),
          attr,
          defect: { kind: site.kind, level, description: `${description}: ${attr} ${sent(value)}` },
        };
      }),
    );
}

type Choice = { site: Site; value: unknown };

/** Each kind present is as likely as any other; within a kind, deep places and later items are favoured. */
function chooseDefect(sites: readonly Site[]): fc.Arbitrary<Choice> {
  const kinds = [...new Set(sites.map((site) => site.kind))];
  return fc
    .constantFrom(...kinds)
    .chain((kind) => weighted(sites.filter((site) => site.kind === kind)))
    .chain((site) => {
      const values = site.values();
      return values.length
        ? fc.constantFrom(...values).map((value): Choice | null => ({ site, value }))
        : fc.constant(null);
    })
    .filter((choice): choice is Choice => choice !== null);
}

/** A site, deep ones and those on later items of a list more likely than others. */
function weighted(sites: readonly Site[]): fc.Arbitrary<Site> {
  const weights = sites.map(
    ({ path }) => 1 + path.length + (path.some((part) => typeof part === 'number' && part > 0) ? 4 : 0),
  );
  const total = weights.reduce((a, b) => a + b, 0);
  return fc.integer({ min: 0, max: total - 1 }).map((n) => {
    let i = 0;
    for (let rest = n; rest >= weights[i]; i++) rest -= weights[i];
    return sites[i];
  });
}

function sent(value: unknown): string {
  if (value === LEFT_OUT) return 'left out';
  if (typeof value === 'string') return `is ${JSON.stringify(value)}`;
  if (Array.isArray(value)) return 'is an array';
  return `is ${isPlainObject(value) ? 'an object' : JSON.stringify(value)}`;
}

// Where defects can go --------------------------------------------------------------------------------

/**
 * Ranges another implementation may check (the reference checks the first four). A broken end of a
 * range keeps its order with the other end, so no second error can follow from the first.
 */
const RANGES: Readonly<Record<string, readonly (readonly [from: string, to: string, strict: boolean])[]>> = {
  '§2.3 agreement': [['effective_from', 'effective_to', false]],
  '§2.3 reading': [['interval_start', 'interval_end', true]],
  '§2.3 billable item': [['interval_start', 'interval_end', false]],
  '§2.3 statement': [['bill_period_from_date', 'bill_period_to_date', false]],
  '§2.3 supply point': [['supply_start_date', 'last_billed_to_date', false]],
  '§2.3 note': [['created_at', 'unpin_at', true]],
  '§2.4 line item': [['start_date', 'end_date', false]],
  '§2.5 historical billing document': [['bill_period_from_date', 'bill_period_to_date', false]],
  '§2.6 historical statement': [['bill_period_from_date', 'bill_period_to_date', false]],
};

type Order = (candidate: unknown) => boolean;

function orderWithin(spec: string | undefined, key: string, object: Record<string, unknown>): Order {
  for (const [from, to, strict] of RANGES[spec ?? ''] ?? []) {
    const other = key === from ? object[to] : key === to ? object[from] : undefined;
    if (typeof other !== 'string') continue;
    return key === from
      ? (c) => typeof c !== 'string' || (strict ? c < other : c <= other)
      : (c) => typeof c !== 'string' || (strict ? c > other : c >= other);
  }
  return () => true;
}

/**
 * The defect kinds that fit a node of the model by its schema alone (docs/design.md §7): a nested
 * object or a record takes another JSON type, a note takes losing its content (§2.3, §4.2 notes
 * rule 4), a list another type, an enum a value outside its set or in another case, a boolean no
 * boolean, a number text (and, an integer, a fraction), a string a list or true and the defects of
 * its format (a date, a datetime, an e-mail, a phone). Both the drawn defects (`sitesOf`) and the
 * places of the model (`defectPlaces`) read it, so a place is one where a defect is sent.
 * `nested`: the node is not the request body itself.
 */
export function kindsFitting(s: z.ZodType, nested: boolean): readonly DefectKind[] {
  // def.type rather than instanceof: zod's instanceof is a trait lookup, and payloads have
  // hundreds of nodes.
  switch (s.def.type) {
    case 'object':
      return [
        ...(nested ? (['wrong-type-object'] as const) : []),
        ...(specOf(s) === NOTE ? (['note-without-content'] as const) : []),
      ];
    case 'array':
      return ['wrong-type-array'];
    case 'record':
      return ['wrong-type-object'];
    case 'enum':
      return ['enum-outside-set', 'enum-wrong-case'];
    case 'boolean':
      return ['not-a-boolean', 'boolean-as-string'];
    case 'number':
      return INTEGER_FORMATS.has(String((s.def as { format?: unknown }).format))
        ? ['wrong-type-number', 'fraction-for-integer']
        : ['wrong-type-number'];
    case 'string':
      return ['wrong-type-string', ...(FORMAT_DEFECTS[formatOf(s) ?? '']?.kinds ?? [])];
    default:
      // A union (§2.4 amount: a number or a decimal string), an unknown: no value is of no type.
      return [];
  }
}

/** Whether a value has the JSON shape a node of `type` holds, so defects can be made from it. */
const SHAPED: Readonly<Record<string, (value: unknown) => boolean>> = {
  object: isPlainObject,
  record: isPlainObject,
  array: Array.isArray,
  enum: (v) => typeof v === 'string',
  boolean: (v) => typeof v === 'boolean',
  number: (v) => typeof v === 'number',
  string: (v) => typeof v === 'string',
};

/**
 * The candidate values of each kind made from the valid value at `path`, or undefined where the
 * value gives the kind no place (a fraction for an integer needs an integer sent).
 */
function candidates(
  kind: DefectKind,
  value: unknown,
  path: Path,
  s: z.ZodType,
): (() => readonly unknown[]) | undefined {
  switch (kind) {
    case 'wrong-type-object':
      return () => [JSON.stringify(value), [value]];
    case 'note-without-content':
      return () => [withoutContent(value as Record<string, unknown>)];
    case 'wrong-type-array':
      return () => [notAList(value as unknown[])];
    case 'enum-outside-set':
      return () => OUTSIDE[String(path[path.length - 1])] ?? ['OTHER'];
    case 'enum-wrong-case': {
      const v = value as string;
      return () => [v.toLowerCase(), v.charAt(0) + v.slice(1).toLowerCase()];
    }
    case 'not-a-boolean':
      return () => ['sí', 'maybe', 2];
    case 'boolean-as-string':
      return () => [String(value)];
    case 'wrong-type-number':
      return () => ['doce', 'n/a'];
    case 'fraction-for-integer':
      return Number.isInteger(value) ? () => [(value as number) + 0.5] : undefined;
    case 'wrong-type-string':
      return () => [[value], true];
    default: {
      const defects = FORMAT_DEFECTS[formatOf(s) ?? ''];
      return defects ? () => defects.values(value as string)[kind] ?? [] : undefined;
    }
  }
}

/** Whether a range keeps the candidates of `kind` in order: one error, not two (asked at every place walked). */
const ordered = (kind: DefectKind) => ORDERED_KINDS.has(kind);

/** The places in `payload` where a defect of one of `kinds` can go. */
function sitesOf(schema: z.ZodType, payload: unknown, kinds: ReadonlySet<DefectKind>): Site[] {
  const sites: Site[] = [];
  const add = (
    kind: DefectKind,
    path: Path,
    of: z.ZodType,
    made: () => readonly unknown[],
    order: Order = () => true,
  ) => {
    if (!kinds.has(kind)) return;
    const values = () => [...new Set(made().filter((c) => (c === LEFT_OUT || !of.safeParse(c).success) && order(c)))];
    sites.push({ kind, path, values });
  };

  const visit = (s: z.ZodType, value: unknown, path: Path, order: Order): void => {
    const type = s.def.type;
    if (!SHAPED[type]?.(value)) return;
    for (const kind of kindsFitting(s, path.length > 0)) {
      const made = candidates(kind, value, path, s);
      if (made) add(kind, path, s, made, ordered(kind) ? order : undefined);
    }
    if (type === 'object') {
      const object = value as Record<string, unknown>;
      const spec = specOf(s);
      for (const [key, field] of fieldsOf(s as z.ZodObject)) {
        if (!(key in object)) continue;
        if (field.presence === 'expected') add('required-missing', [...path, key], field.schema, () => [LEFT_OUT]);
        visit(field.schema, object[key], [...path, key], orderWithin(spec, key, object));
      }
    } else if (type === 'array') {
      (value as unknown[]).forEach((item, i) =>
        visit((s as z.ZodArray).element as z.ZodType, item, [...path, i], () => true),
      );
    }
  };
  visit(schema, payload, [], () => true);
  return sites;
}

/** A place of the model where a defect fits: its dot path, every item of a list written `*`, and the kind. */
export interface DefectPlace {
  field: string;
  kind: DefectKind;
}

/** A path of a payload as the place of the model it is at: every list index written `*`. */
export const placeOfAttr = (attr: string): string => attr.replace(/\.\d+(?=\.|$)/g, '.*');

/**
 * Every place of a request schema where a defect of `kinds` fits, from the schema alone: every
 * documented field at any depth (a list's items as `*`), each with every kind `kindsFitting` gives
 * it, and `required-missing` at every expected field. What `everyDefect` sends for a body carrying
 * every documented field is exactly these (test/generators/defects.test.ts). `untyped` as there.
 */
export function defectPlaces(
  schema: z.ZodType,
  kinds: readonly DefectKind[],
  untyped: ReadonlySet<string> = new Set(),
): DefectPlace[] {
  const wanted = new Set(kinds);
  const places: DefectPlace[] = [];
  const add = (path: readonly string[], kind: DefectKind) => {
    if (wanted.has(kind) && !path.some((part) => untyped.has(part))) places.push({ field: path.join('.'), kind });
  };
  const walk = (s: z.ZodType, path: readonly string[]): void => {
    for (const kind of kindsFitting(s, path.length > 0)) add(path, kind);
    if (s.def.type === 'object')
      for (const [key, field] of fieldsOf(s as z.ZodObject)) {
        if (field.presence === 'expected') add([...path, key], 'required-missing');
        walk(field.schema, [...path, key]);
      }
    else if (s.def.type === 'array') walk((s as z.ZodArray).element as z.ZodType, [...path, '*']);
  };
  walk(schema, []);
  return places;
}

const NOTE = specOf(model.Note);

/** zod's integer formats (z.int() is safeint). */
const INTEGER_FORMATS = new Set(['safeint', 'int32', 'uint32', 'int64', 'uint64']);

/** §2.3: a note's content is its body and its documents. */
function withoutContent({ body: _, document_paths: __, ...rest }: Record<string, unknown>): Record<string, unknown> {
  return rest;
}

/** The mistake a client makes when it sends one item for a list: the item itself, or its text. */
function notAList(items: readonly unknown[]): unknown {
  const first = items[0];
  if (isPlainObject(first) || typeof first === 'string') return first;
  return items.join(',');
}

/** Plausible values a supplier's system might send that the spec does not list. */
const OUTSIDE: Readonly<Record<string, readonly string[]>> = {
  supply_type: ['WATER', 'HEAT', 'DUAL'],
  type: ['REFUND', 'FEE', 'ADJUSTMENT'],
  billing_document_type: ['MIXED', 'INVOICE'],
};

interface FormatDefects {
  kinds: readonly DefectKind[];
  /** Candidate values of each kind, made from the valid value. */
  values: (valid: string) => Partial<Record<DefectKind, readonly string[]>>;
}

const FORMAT_DEFECTS: Readonly<Record<string, FormatDefects>> = {
  date: {
    kinds: ['impossible-date', 'malformed-date', 'datetime-for-date'],
    values: (date) => {
      const [y, m, d] = date.split('-');
      return {
        'impossible-date': [
          `${y}-02-30`,
          `${y}-02-31`,
          `${y}-04-31`,
          `${y}-13-${d}`,
          `${y}-00-${d}`,
          `${y}-${m}-32`,
          `${y}-${m}-00`,
        ],
        'malformed-date': [
          `${y}/${m}/${d}`,
          `${d}-${m}-${y}`,
          `${d}/${m}/${y}`,
          `${y}-${Number(m)}-${Number(d)}`,
          'yesterday',
          'ayer',
        ],
        'datetime-for-date': [`${date}T00:00:00Z`, `${date}T10:30:00Z`],
      };
    },
  },
  datetime: {
    kinds: ['impossible-datetime', 'malformed-datetime', 'datetime-missing-z'],
    values: (datetime) => {
      const [date, time] = datetime.replace(/Z$/, '').split('T');
      const [y, m, d] = date.split('-');
      return {
        'impossible-datetime': [
          `${y}-02-30T${time}Z`,
          `${y}-${m}-32T${time}Z`,
          `${date}T25:00:00Z`,
          `${date}T10:61:00Z`,
          `${y}-13-${d}T${time}Z`,
        ],
        'malformed-datetime': ['not a datetime', 'ayer por la tarde', date, `${d}/${m}/${y} ${time.slice(0, 5)}`],
        'datetime-missing-z': [`${date}T${time}`],
      };
    },
  },
  email: {
    kinds: ['malformed-email'],
    values: (email) => {
      const [local, domain] = email.split('@');
      return {
        'malformed-email': [
          `${local}.${domain}`,
          `${local}@`,
          `@${domain}`,
          `${local}@@${domain}`,
          `${local} en ${domain}`,
        ],
      };
    },
  },
  phone: {
    kinds: ['malformed-phone'],
    values: (phone) => ({
      'malformed-phone': ['llamar por la tarde', phone.replace(/\d{3}$/, 'xxx'), '+34 ABC DEF GHI', 'sin teléfono'],
    }),
  },
};

/** The kinds whose candidates a range keeps in order: a format's defects. */
const ORDERED_KINDS: ReadonlySet<DefectKind> = new Set(Object.values(FORMAT_DEFECTS).flatMap((d) => d.kinds));

/**
 * Single-defect payloads derived from given valid ones (a configured payload template): each keeps
 * every field and value of its base but the one defect, whose `attr` it names.
 */
export function invalidFrom(
  valid: fc.Arbitrary<object>,
  schema: z.ZodType,
  kinds?: readonly DefectKind[],
): fc.Arbitrary<Invalid> {
  return withDefect(valid, schema, kinds);
}

/**
 * The type defects, sent at every documented field of every request: a wrong JSON type, a documented
 * value in another case, a fraction for an integer, a value that is no boolean, and (SHOULD) a
 * boolean spelt as a string.
 */
export const TYPE_DEFECTS = [
  'wrong-type-array',
  'wrong-type-object',
  'wrong-type-string',
  'wrong-type-number',
  'enum-wrong-case',
  'fraction-for-integer',
  'not-a-boolean',
  'boolean-as-string',
] as const satisfies readonly DefectKind[];

/**
 * Every single-defect variant of one valid request body, deterministically: for each place the
 * schema walk finds in `payload` and each of `kinds` that applies there, the body with the first
 * defect value of that kind. A field added to the model gets its defects without a line here.
 * `untyped` names fields whose shape the spec does not show (the model has to give them some
 * schema): no value there is a defect by the spec's words, so they are left alone.
 */
export function everyDefect(
  schema: z.ZodType,
  payload: object,
  kinds: readonly DefectKind[],
  untyped: ReadonlySet<string> = new Set(),
): Invalid[] {
  const sites = sitesOf(schema, payload, new Set(kinds)).filter(
    (site) => !site.path.some((part) => typeof part === 'string' && untyped.has(part)),
  );
  return sites.flatMap((site) => {
    const values = site.values();
    if (values.length === 0) return [];
    const value = values[0];
    const attr = dotPath(site.path);
    const { level, description } = DEFECTS[site.kind];
    return [
      {
        payload: replacedAtPath(payload, attr, value === LEFT_OUT ? undefined : structuredClone(value)),
        attr,
        defect: { kind: site.kind, level, description: `${description}: ${attr} ${sent(value)}` },
      },
    ];
  });
}

/** Defects one request carries at most when they share it (`defectGroups`): well under any list of errors a server caps. */
export const DEFECTS_PER_REQUEST = 16;

const parentOf = (attr: string) => attr.slice(0, Math.max(0, attr.lastIndexOf('.')));
const DATE_TEXT = /^\d{4}-\d{2}-\d{2}/;

/**
 * Whether two cases may share a request and each still be told apart by the §7.1 `attr` its error
 * names: not the same field, nor one inside the other (a list replaced holds the items another
 * case changes), nor two dates of one object — a range (§2.3 interval_start and interval_end, a
 * statement's bill period) may be refused at either end for the other's defect.
 */
function apart(a: Invalid, b: Invalid, base: object): boolean {
  if (pointsAt(a.attr, b.attr) || pointsAt(b.attr, a.attr)) return false;
  if (parentOf(a.attr) !== parentOf(b.attr)) return true;
  const dated = (c: Invalid) => {
    const v = getAtPath(base, c.attr);
    return typeof v === 'string' && DATE_TEXT.test(v);
  };
  return !dated(a) && !dated(b);
}

/**
 * The cases in groups that may share a request, in their order, at most `size` a group: each case
 * goes to the first group it is apart from every member of (`apart`). A server that lists every
 * error of a body (§7.1 `errors`, one per offending input) refuses a group in one answer naming
 * each; one that lists fewer is sent the cases it did not name one by one.
 */
export function defectGroups(cases: readonly Invalid[], base: object, size = DEFECTS_PER_REQUEST): Invalid[][] {
  const groups: Invalid[][] = [];
  for (const c of cases) {
    const group = groups.find((g) => g.length < size && g.every((m) => apart(m, c, base)));
    if (group) group.push(c);
    else groups.push([c]);
  }
  return groups;
}

/**
 * `base` with the defect of every case in `cases`: each case's value at its attr (left out where
 * the case leaves it out). Every defect changes its attr's value alone (test/generators/defects.test.ts),
 * so a group's body carries each defect exactly as its own request would.
 */
export function withDefects(base: object, cases: readonly Invalid[]): Record<string, unknown> {
  let body = base as Record<string, unknown>;
  for (const c of cases) body = replacedAtPath(body, c.attr, getAtPath(c.payload, c.attr));
  return body;
}
