/**
 * Response bodies of the contract, derived from the spec model's response schemas: every field the
 * model requires becomes a Pact matcher of its kind (type for strings, integer, regex for formats
 * and enumerations, eachLike for arrays), so the contract never pins a literal the spec does not
 * state — and never pins message wording (§7.1). A scenario adds what it knows with pins: the status
 * an interaction must produce, the attr a validation error points at, the number of results.
 */
import { z } from 'zod';
import type { JsonSchema } from '../json-schema.js';
import type { Matcher, PactMatchers } from './library.js';

type PinKind = 'exact' | 'regex' | 'items' | 'each' | 'contains' | 'example';

/** What a scenario knows about a value, beyond its schema. */
export class Pin {
  constructor(
    readonly kind: PinKind,
    readonly value: unknown,
    readonly extra?: unknown,
  ) {}
}
/** The value is this, exactly (a documented constant: a status, an empty string, a path). */
export const exact = (value: unknown) => new Pin('exact', value);
/** The value matches this regular expression. */
export const pattern = (regex: string, example: string) => new Pin('regex', example, regex);
/** The array has exactly these items, in this order. */
export const items = (...pins: unknown[]) => new Pin('items', pins);
/** Every item of the array is like this; at least `min` of them. */
export const each = (pin: unknown = undefined, min = 1) => new Pin('each', pin, min);
/** The array contains, somewhere, an item like each of these. */
export const contains = (...pins: unknown[]) => new Pin('contains', pins);

const OMIT = Symbol('omit');
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const EXAMPLES: Record<string, unknown> = {
  'date-time': '2024-06-10T11:15:00Z',
  date: '2024-06-10',
};

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Pin);
}

class Builder {
  constructor(
    private readonly M: PactMatchers,
    private readonly defs: Record<string, JsonSchema>,
  ) {}

  private deref(schema: JsonSchema): JsonSchema {
    let s = schema;
    for (let i = 0; typeof s.$ref === 'string' && i < 32; i++) {
      const name = /^#\/\$defs\/(.+)$/.exec(s.$ref)?.[1];
      if (!name || !this.defs[name]) throw new Error(`internal: cannot resolve ${s.$ref}`);
      const { $ref: _r, ...rest } = s;
      s = { ...this.defs[name], ...rest };
    }
    return s;
  }

  /** The schema without its `null` alternative, and whether it had one. */
  private splitNull(s: JsonSchema): { schema: JsonSchema; nullable: boolean } {
    if (Array.isArray(s.type) && s.type.includes('null')) {
      const types = s.type.filter((t) => t !== 'null');
      return { schema: { ...s, type: types.length === 1 ? types[0] : types }, nullable: true };
    }
    if (Array.isArray(s.anyOf)) {
      const rest = (s.anyOf as JsonSchema[]).filter((b) => this.deref(b).type !== 'null');
      if (rest.length < s.anyOf.length)
        return { schema: rest.length === 1 ? this.deref(rest[0]) : { ...s, anyOf: rest }, nullable: true };
    }
    return { schema: s, nullable: false };
  }

  build(raw: JsonSchema, pin: unknown, at: string): unknown {
    const { M } = this;
    if (pin instanceof Pin && pin.kind === 'exact') return pin.value === null ? M.nullValue() : M.equal(pin.value);
    if (pin instanceof Pin && pin.kind === 'regex') return M.regex(pin.extra as string, pin.value as string);
    if (pin === null) return M.nullValue();
    const { schema: s, nullable } = this.splitNull(this.deref(raw));
    // Pact has no "string or null" matcher: a nullable value is asserted only where a scenario pins it.
    if (nullable && pin === undefined) return OMIT;
    const example =
      pin instanceof Pin
        ? pin.kind === 'example'
          ? pin.value
          : undefined
        : isPlainObject(pin) || Array.isArray(pin)
          ? undefined
          : pin;

    if (Array.isArray(s.enum)) {
      const values = s.enum as unknown[];
      if (values.every((v) => typeof v === 'string'))
        return M.regex(`^(${(values as string[]).map(escapeRegExp).join('|')})$`, (example as string) ?? values[0]);
      return M.like(example ?? values[0]);
    }
    if ('const' in s) return M.equal(s.const);
    if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) return example === undefined ? OMIT : M.like(example);

    switch (s.type) {
      case 'object': {
        const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
        const pins = isPlainObject(pin) ? pin : {};
        for (const key of Object.keys(pins))
          if (!(key in properties)) throw new Error(`internal: ${at}.${key} is not in the model`);
        const keys = [...new Set([...((s.required ?? []) as string[]), ...Object.keys(pins)])];
        const out: Record<string, unknown> = {};
        for (const key of keys) {
          const value = this.build(properties[key], pins[key], `${at}.${key}`);
          if (value !== OMIT) out[key] = value;
        }
        return Object.keys(out).length ? out : M.like({});
      }
      case 'array': {
        const item = (s.items ?? {}) as JsonSchema;
        const itemOf = (p: unknown, i: number | string) => {
          const built = this.build(item, p, `${at}[${i}]`);
          return built === OMIT ? M.like({}) : built;
        };
        if (pin instanceof Pin && pin.kind === 'items') return (pin.value as unknown[]).map((p, i) => itemOf(p, i));
        if (pin instanceof Pin && pin.kind === 'contains')
          return M.arrayContaining(...(pin.value as unknown[]).map((p, i) => itemOf(p, `contains ${i}`)));
        if (pin instanceof Pin && pin.kind === 'each') return M.eachLike(itemOf(pin.value, '*'), pin.extra as number);
        return M.eachLike(itemOf(undefined, '*'), 1);
      }
      case 'string': {
        const value = (example as string | undefined) ?? (EXAMPLES[s.format as string] as string | undefined);
        if (typeof s.pattern === 'string') {
          const re = new RegExp(s.pattern);
          const fitting = [value, ...Object.values(EXAMPLES)].find(
            (v): v is string => typeof v === 'string' && re.test(v),
          );
          if (fitting === undefined || (value !== undefined && fitting !== value))
            throw new Error(`internal: ${at} needs an example matching ${s.pattern}`);
          return M.regex(s.pattern, fitting);
        }
        if (typeof s.minLength === 'number' && s.minLength > 0) return M.regex('^.+$', value ?? 'example');
        return M.string(value ?? 'example');
      }
      case 'integer':
        return M.integer((example as number | undefined) ?? 1);
      case 'number':
        return M.number((example as number | undefined) ?? 1.5);
      case 'boolean':
        return M.boolean((example as boolean | undefined) ?? true);
      case 'null':
        return M.nullValue();
      default:
        // Unknown content (`z.unknown()`): the model says nothing to assert.
        return example === undefined ? OMIT : M.like(example);
    }
  }
}

/**
 * A Pact body template for a response schema of the spec model, with the scenario's pins. Optional
 * and nullable fields are asserted only where pinned; extra fields are always allowed (§9.2).
 */
export function bodyMatcher(M: PactMatchers, schema: z.ZodType, pins?: unknown): unknown {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output', unrepresentable: 'any' }) as JsonSchema;
  const builder = new Builder(M, (json.$defs ?? {}) as Record<string, JsonSchema>);
  const built = builder.build(json, pins, '$');
  return built === OMIT ? M.like({}) : built;
}

export type { Matcher };
