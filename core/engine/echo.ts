/**
 * Echoes: answers that hand back what was sent (§4.1 validate "200 with the validated data as body",
 * §4.2 historical statements "body is the validated data", the `{created_at, body, status}` of each
 * note, the `transaction_data` of each transaction). The spec model marks each such answer
 * (`DocumentedResponse.echoes`, core/spec/endpoints.ts); this module derives from it every field of
 * the request that comes back (the places an echo rule must cover) and compares what was sent with
 * what came back, recursively: every field, every item of every array, numbers by value.
 *
 * What "equal" means, from the spec's shapes:
 * - a number or decimal string (§2.4 amount "number or decimal string", every `number` field, §2.3
 *   `consumption_delta` "decimal as string") comes back as either form with the same value: a
 *   number and a JSON number literal are compared as the double they denote, two decimal strings
 *   exactly as decimals (so `"12345678901234567"` through a float, `"10.005"` through cents, are
 *   changes); a string field (§2.6 `number`) is compared as a string (`"00042"` is not `42`);
 * - a datetime (§2.1 ISO 8601) comes back as the same instant, in any ISO 8601 spelling (an offset,
 *   fractions of a second);
 * - a document path (§2.1) with or without its leading slash;
 * - fields the answer adds are not looked at (§9.2), and an array keeps its items in order (§7.1
 *   attrs index them).
 */
import { z } from 'zod';
import { DecimalString, type EndpointId, type Echo, model } from '../spec/index.js';
import type { Catalogue } from './drivers.js';

/** A place of the model a relation applies to: an endpoint, and a field of its request (`a[].b`). */
export interface RelationPlace {
  endpoint: EndpointId;
  field?: string;
}

export interface EchoDifference {
  path: string;
  sent: unknown;
  echoed: unknown;
}

/** How a field is spelled, read from the model: a number or decimal string, a string, or anything else. */
export type LeafKind = 'numeric' | 'string' | 'other';

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;
const DOCUMENT_PATH_KEYS = new Set(['document_path', 'statement_path']);

/** A JSON number literal as an exact decimal: sign, significant digits, exponent (`"12.50"` → `12.5`). */
function exactDecimal(literal: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!m) return literal;
  const [, sign, int, frac = '', exp = '0'] = m;
  let digits = (int + frac).replace(/^0+/, '');
  let e = Number(exp) - frac.length;
  if (digits === '') return '0';
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  digits = digits.slice(0, digits.length - trailing);
  e += trailing;
  return `${sign}${digits}e${e}`;
}

/**
 * Whether `echoed` is the value `sent`, as the answer may spell it (the module's header). `kind` is
 * the field's shape in the model; undefined where the caller has none (then any JSON number literal
 * counts as a number).
 */
export function sameValue(sent: unknown, echoed: unknown, key: string, kind?: LeafKind): boolean {
  if (sent === echoed) return true;
  const numericField = kind === undefined || kind === 'numeric';
  if (numericField) {
    const literal = (v: unknown): v is string => typeof v === 'string' && JSON_NUMBER.test(v);
    if (typeof sent === 'number' && typeof echoed === 'number') return sent === echoed;
    if (typeof sent === 'number' && literal(echoed)) return Number(echoed) === sent;
    // A number in the answer is read as JSON.parse reads it: the nearest double of its literal.
    if (literal(sent) && typeof echoed === 'number') return Number(sent) === echoed;
    if (literal(sent) && literal(echoed)) return exactDecimal(sent) === exactDecimal(echoed);
  }
  if (typeof sent !== 'string' || typeof echoed !== 'string') return false;
  if (DOCUMENT_PATH_KEYS.has(key)) return sent.replace(/^\//, '') === echoed.replace(/^\//, '');
  if (ISO_DATETIME.test(sent) && ISO_DATETIME.test(echoed)) return Date.parse(sent) === Date.parse(echoed);
  return false;
}

export interface EchoOptions {
  /** The shape of each field, by its pattern (`transactions[].amount`), from `leafKinds`. */
  kinds?: ReadonlyMap<string, LeafKind>;
  /** The pattern the compared value sits at in the request (`statements`), for `kinds`. */
  base?: string;
  /**
   * `carried`: a field of an object the answer leaves out is not compared (an echo whose content the
   * spec does not show, §4.2 transaction_data); a field it carries is. Default `all`.
   */
  mode?: 'all' | 'carried';
  /** Fields (patterns) a documented rule changes, not compared. */
  except?: readonly string[];
}

const patternOf = (base: string, path: string) =>
  [base, path.replace(/\.\d+(?=\.|$)/g, '[]').replace(/^\d+(?=\.|$)/, '[]')]
    .filter((p) => p !== '')
    .join('.')
    .replace(/\.\[\]/g, '[]');

/**
 * The first field sent that does not come back with an equal value: a dot path and what was found
 * there, or undefined. Fields the answer adds are not looked at (§9.2).
 */
export function echoDifference(
  sent: unknown,
  echoed: unknown,
  options: EchoOptions = {},
  path = '',
  key = '',
): EchoDifference | undefined {
  const at = (k: string | number) => (path === '' ? String(k) : `${path}.${k}`);
  const pattern = () => patternOf(options.base ?? '', path);
  if (options.except?.includes(pattern())) return undefined;
  if (Array.isArray(sent)) {
    if (!Array.isArray(echoed) || echoed.length !== sent.length) return { path: path || '(body)', sent, echoed };
    for (let i = 0; i < sent.length; i++) {
      const d = echoDifference(sent[i], echoed[i], options, at(i), key);
      if (d) return d;
    }
    return undefined;
  }
  if (sent !== null && typeof sent === 'object') {
    if (echoed === null || typeof echoed !== 'object' || Array.isArray(echoed))
      return { path: path || '(body)', sent, echoed };
    for (const [k, v] of Object.entries(sent)) {
      if (v === undefined) continue;
      const back = (echoed as Record<string, unknown>)[k];
      if (back === undefined && options.mode === 'carried') continue;
      const d = echoDifference(v, back, options, at(k), k);
      if (d) return d;
    }
    return undefined;
  }
  return sameValue(sent, echoed, key, options.kinds?.get(pattern()))
    ? undefined
    : { path: path || '(body)', sent, echoed };
}

/** Words for a difference, the same in every echo rule. */
export const describeDifference = (d: EchoDifference, what: string) =>
  `${what}, but ${d.path} was sent as ${JSON.stringify(d.sent)} and came back as ${d.echoed === undefined ? 'nothing' : JSON.stringify(d.echoed)}`;

function unwrap(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
  return inner;
}

function kindOf(schema: z.ZodType): LeafKind {
  const inner = unwrap(schema);
  if (inner === DecimalString || inner instanceof z.ZodNumber) return 'numeric';
  if (inner instanceof z.ZodUnion) {
    const options = (inner.options as z.ZodType[]).map(kindOf);
    return options.includes('numeric') ? 'numeric' : options.every((k) => k === 'string') ? 'string' : 'other';
  }
  if (inner instanceof z.ZodString) return 'string';
  return 'other';
}

/**
 * Every field of `schema` as a pattern (`a[].b`, `[]` for each item) with its shape: an object's
 * documented fields and each array's items, down to the values (a record, an object of any keys and
 * a scalar are values).
 */
export function leafKinds(schema: z.ZodType, base = ''): Map<string, LeafKind> {
  const out = new Map<string, LeafKind>();
  const walk = (s: z.ZodType, at: string) => {
    const inner = unwrap(s);
    if (inner instanceof z.ZodArray) return walk(inner.element as z.ZodType, `${at}[]`);
    if (inner instanceof z.ZodObject && Object.keys(inner.shape).length > 0) {
      for (const [k, child] of Object.entries(inner.shape as Record<string, z.ZodType>))
        walk(child, at === '' ? k : `${at}.${k}`);
      return;
    }
    out.set(at, kindOf(inner));
  };
  walk(schema, base);
  return out;
}

/** The schema at a pattern of a request (`notes[]`, `statements`, `''` the whole body). */
function schemaAt(schema: z.ZodType, from: string): z.ZodType | undefined {
  let s: z.ZodType | undefined = schema;
  for (const part of from.split('.').filter((p) => p !== '')) {
    const name = part.replace(/\[\]$/, '');
    const inner: z.ZodType | undefined = s && unwrap(s);
    s = inner instanceof z.ZodObject ? (inner.shape as Record<string, z.ZodType>)[name] : undefined;
    if (s && part.endsWith('[]')) {
      const arr = unwrap(s);
      s = arr instanceof z.ZodArray ? (arr.element as z.ZodType) : undefined;
    }
  }
  return s;
}

/** One echo of the model: the endpoint, its echo, and every field of the request that comes back. */
export interface EchoSite {
  endpoint: EndpointId;
  echo: Echo;
  statuses: number[];
  /** Each field that comes back, as a pattern from the request's root, with its shape. */
  fields: Map<string, LeafKind>;
}

/**
 * Every echo the model documents, one per endpoint (§4.2 historical statements document the same
 * echo under 201 and 200), with the request fields that come back: the request's `from`, restricted
 * to the echo's `fields`.
 */
export function echoSites(catalogue: Catalogue): EchoSite[] {
  const sites: EchoSite[] = [];
  for (const endpoint of catalogue.endpoints) {
    const echoing = endpoint.responses.filter((r) => r.echoes);
    const echo = echoing[0]?.echoes;
    if (!echo || !endpoint.body) continue;
    const at = schemaAt(endpoint.body, echo.from);
    if (!at) throw new Error(`${endpoint.id}: the echo's "${echo.from}" is no field of the request`);
    const all = leafKinds(at, echo.from);
    const prefix = echo.from;
    const fields = new Map(
      [...all].filter(([p]) => {
        if (!echo.fields) return true;
        const rest = p.slice(prefix.length).replace(/^\./, '');
        return echo.fields.some((f) => rest === f || rest.startsWith(`${f}.`) || rest.startsWith(`${f}[]`));
      }),
    );
    sites.push({ endpoint: endpoint.id, echo, statuses: echoing.map((r) => r.status), fields });
  }
  return sites;
}

/** The patterns of the fields a value carries, read against the model (`leafKinds`' patterns). */
export function fieldsCarried(value: unknown, kinds: ReadonlyMap<string, LeafKind>, base = ''): string[] {
  const out = new Set<string>();
  const walk = (v: unknown, at: string) => {
    if (kinds.has(at)) {
      if (v !== undefined) out.add(at);
      return;
    }
    if (Array.isArray(v)) for (const item of v) walk(item, `${at}[]`);
    else if (v !== null && typeof v === 'object')
      for (const [k, child] of Object.entries(v)) walk(child, at === '' ? k : `${at}.${k}`);
  };
  walk(value, base);
  return [...out];
}

/** The model's request fields with their shapes, for an endpoint (the kinds `echoDifference` reads). */
export const requestKinds = (endpoint: EndpointId): Map<string, LeafKind> => {
  const body = model.endpoints[endpoint].body;
  return body ? leafKinds(body) : new Map();
};
