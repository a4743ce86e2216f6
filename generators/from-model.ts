/**
 * Arbitraries derived from a zod schema of the spec model: field names, nesting, arrays, enums and
 * formats all come from the schema; realistic values come from rules keyed by what the model calls
 * things (the `§…` section of an object, a field name, a string format). Where no rule applies, the
 * value is still of the right type.
 */
import fc from 'fast-check';
import type { z } from 'zod';
import { orEdge } from './edges.js';
import { fieldsOf, formatOf, isOmittable, seenOf, specOf } from './model-shape.js';
import { dotPath } from '../core/spec/paths.js';

/** Where a value is being generated. Rules extend it with domain facts (supply type, dates). */
export interface BaseScope {
  /** Field names and array indexes from the payload root. */
  readonly at: readonly (string | number)[];
  /** Position in the nearest enclosing array. */
  readonly index: number;
  /** Every documented field is generated; otherwise `optional` and `unspecified` ones may be left out. */
  readonly complete: boolean;
}

export type Generate<S> = (scope: S) => fc.Arbitrary<unknown>;

export interface ObjectRule<S> {
  /** Facts decided once for the object and everything inside it (a supply point's supply type). */
  narrow?: (scope: S) => fc.Arbitrary<Partial<S>>;
  /** Fields that depend on each other (a range, an address), generated together. */
  joint?: Joint<S>;
  /** Fields this variant of the object does not carry (those §2.4 shows on SUPPLY_CHARGE only). */
  absent?: (scope: S) => readonly string[];
  /** Values computed from the finished object (totals). */
  finish?: (value: Record<string, unknown>, scope: S) => Record<string, unknown>;
  /** Fields that stay when optional ones are left out; a list means "at least one of these". */
  keep?: (value: Record<string, unknown>) => readonly (string | readonly string[])[];
}

export interface Joint<S> {
  /** The fields `values` generates; the walker derives only the others. */
  readonly fields: readonly string[];
  values(scope: S): fc.Arbitrary<Record<string, unknown>>;
}

export interface Rules<S extends BaseScope> {
  /** Keyed by the `spec` section the object schema carries, e.g. `§2.3 supply point`. */
  objects: Readonly<Record<string, ObjectRule<S>>>;
  /** Keyed by field name. */
  fields: Readonly<Record<string, Generate<S>>>;
  /** Keyed by string format (`date`, `datetime`, `email`, `phone`, `decimal`). */
  formats: Readonly<Record<string, Generate<S>>>;
  /** Item counts of an array field, inclusive. */
  length(field: string, scope: S): readonly [number, number];
  /** A large item count an array field takes once in five (generators/edges.ts), if it has one. */
  large?(field: string, scope: S): number | undefined;
}

/** A word, for strings no rule knows more about. */
const word = fc.stringMatching(/^[A-Z][a-z]{2,11}$/);
const recordKey = fc.stringMatching(/^[a-z]{3,10}$/);

/**
 * Which of `keys` to leave out: each with a chance of one in four, so sparse payloads still look
 * like data. Two bit masks ANDed are cheaper than a draw per key, and shrink towards keeping all.
 */
function leftOut(keys: readonly string[]): fc.Arbitrary<string[]> {
  const mask = fc.integer({ min: 0, max: 2 ** keys.length - 1 });
  return fc.tuple(mask, mask).map(([a, b]) => keys.filter((_, i) => ((a & b) >> i) & 1));
}

/** An arbitrary for `schema` at `scope`: a field rule, else a format rule, else the schema's own structure. */
export function derive<S extends BaseScope>(schema: z.ZodType, rules: Rules<S>, scope: S): fc.Arbitrary<unknown> {
  const field = scope.at[scope.at.length - 1];
  const rule = typeof field === 'string' ? rules.fields[field] : undefined;
  if (rule) return rule(scope);
  const format = formatOf(schema);
  const formatRule = format === undefined ? undefined : rules.formats[format];
  if (formatRule) return formatRule(scope);

  // Dispatch on def.type: zod's instanceof goes through a Symbol.hasInstance trait lookup, and
  // payloads are re-derived for every generated value.
  switch (schema.def.type) {
    case 'optional':
      return derive((schema as z.ZodOptional).unwrap() as z.ZodType, rules, scope);
    case 'object':
      return object(schema as z.ZodObject, rules, scope);
    case 'array':
      return array(schema as z.ZodArray, rules, scope);
    case 'union':
      return fc.oneof(...((schema as z.ZodUnion).options as z.ZodType[]).map((option) => derive(option, rules, scope)));
    case 'enum':
      return fc.constantFrom(...((schema as z.ZodEnum).options as (string | number)[]));
    case 'record':
      return record(schema as z.ZodRecord, rules, scope);
    case 'boolean':
      return fc.boolean();
    case 'number':
      return format === 'safeint'
        ? fc.integer({ min: 0, max: 1000 })
        : fc.integer({ min: 0, max: 100_000 }).map((c) => c / 100);
    // String formats (`z.email()`, `z.iso.date()`, …) are strings by kind without being ZodString instances.
    case 'string': {
      const seen = seenOf(schema);
      return seen?.length ? fc.constantFrom(...seen) : word;
    }
    case 'unknown':
      return word;
  }
  throw new Error(`generators: no arbitrary for a zod ${schema.def.type} at ${dotPath(scope.at, 'the root')}`);
}

function object<S extends BaseScope>(
  schema: z.ZodObject,
  rules: Rules<S>,
  scope: S,
): fc.Arbitrary<Record<string, unknown>> {
  const rule = rules.objects[specOf(schema) ?? ''] ?? {};
  const build = (s: S) => {
    const absent = rule.absent?.(s) ?? [];
    const fields = fieldsOf(schema).filter(([key]) => !absent.includes(key));
    const omittable = s.complete ? [] : fields.filter(([, f]) => isOmittable(f.presence)).map(([key]) => key);
    const joint = rule.joint;
    const derived = fc.record(
      Object.fromEntries(
        fields
          .filter(([key]) => !joint?.fields.includes(key))
          .map(([key, f]) => [key, derive(f.schema, rules, { ...s, at: [...s.at, key] })]),
      ),
    );
    const dropped = omittable.length ? leftOut(omittable) : fc.constant([]);
    return fc
      .tuple(joint?.values(s) ?? fc.constant<Record<string, unknown>>({}), derived, dropped)
      .map(([together, apart, drop]) => {
        let value: Record<string, unknown> = Object.fromEntries(
          fields.map(([key]) => [key, key in together ? together[key] : apart[key]]),
        );
        if (rule.finish) value = rule.finish(value, s);
        return leaveOut(value, drop, rule.keep?.(value) ?? []);
      });
  };
  return rule.narrow ? rule.narrow(scope).chain((facts) => build({ ...scope, ...facts })) : build(scope);
}

function leaveOut(
  value: Record<string, unknown>,
  drop: readonly string[],
  keep: readonly (string | readonly string[])[],
): Record<string, unknown> {
  const kept = new Set(keep.filter((k): k is string => typeof k === 'string'));
  for (const group of keep) {
    if (typeof group === 'string') continue;
    const present = group.filter((k) => k in value);
    if (present.length && present.every((k) => drop.includes(k))) kept.add(present[0]);
  }
  const result = { ...value };
  for (const key of drop) if (!kept.has(key)) delete result[key];
  return result;
}

/** Items know their index, so they can build identifiers and consecutive periods from it. */
function array<S extends BaseScope>(schema: z.ZodArray, rules: Rules<S>, scope: S): fc.Arbitrary<unknown[]> {
  const field = String(scope.at[scope.at.length - 1] ?? '');
  const [min, max] = rules.length(field, scope);
  const large = rules.large?.(field, scope);
  const count = fc.integer({ min, max });
  // Only the items drawn are derived, each once: the chain below runs for every generated value,
  // and deriving an item's arbitrary again (records of records) cost more than drawing from it.
  const derived = new Map<number, fc.Arbitrary<unknown>>();
  const item = (i: number) => {
    let arbitrary = derived.get(i);
    if (!arbitrary)
      derived.set(
        i,
        (arbitrary = derive(schema.element as z.ZodType, rules, { ...scope, at: [...scope.at, i], index: i })),
      );
    return arbitrary;
  };
  return (large === undefined ? count : orEdge(count, fc.constant(large))).chain((n) =>
    fc.tuple(...Array.from({ length: n }, (_, i) => item(i))),
  );
}

function record<S extends BaseScope>(
  schema: z.ZodRecord,
  rules: Rules<S>,
  scope: S,
): fc.Arbitrary<Record<string, unknown>> {
  return fc.dictionary(recordKey, derive(schema.valueType as z.ZodType, rules, scope), { minKeys: 1, maxKeys: 3 });
}
