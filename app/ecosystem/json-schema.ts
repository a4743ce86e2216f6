/**
 * JSON Schema 2020-12 of the spec model's schemas, as the ecosystem exports (OpenAPI components,
 * Pact response matchers) use them. Named schemas (`id` metadata, spec mode) become components
 * referenced by `$ref`; the model's own metadata keywords become vendor extensions so a reader sees
 * what the spec documents and what is a reading (meta.ts): `presence` → `x-presence`, `why` →
 * `x-presence-reason`, `spec` → `x-spec`, `seen` → `x-seen-values`.
 */
import { z } from 'zod';
import { model } from '../../core/spec/index.js';

export type JsonSchema = Record<string, unknown>;

/** The model's metadata keywords and the extension each becomes. */
export const META_EXTENSIONS = {
  presence: 'x-presence',
  why: 'x-presence-reason',
  spec: 'x-spec',
  seen: 'x-seen-values',
} as const;

export const COMPONENTS_PREFIX = '#/components/schemas/';

function renameMeta({ jsonSchema }: { jsonSchema: JsonSchema }): void {
  for (const [from, to] of Object.entries(META_EXTENSIONS)) {
    if (from in jsonSchema) {
      jsonSchema[to] = jsonSchema[from];
      delete jsonSchema[from];
    }
  }
}

/** The component name of a schema of the spec model, when it has one. */
export function componentId(schema: z.ZodType): string | undefined {
  const id = z.globalRegistry.get(schema)?.id;
  return typeof id === 'string' ? id : undefined;
}

/** Every `$ref` target under a JSON value. */
function refsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsIn(v, found);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') found.add(v);
      else refsIn(v, found);
    }
  }
  return found;
}

function clean(schema: JsonSchema): JsonSchema {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

const COMMON = { target: 'draft-2020-12', unrepresentable: 'any', override: renameMeta } as const;

/**
 * One schema as JSON Schema: a `$ref` to its component when it is named, else inline (its named
 * parts referenced as components). `io`: requests are described as input, responses as output.
 */
export function schemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const id = componentId(schema);
  if (id) return { $ref: `${COMPONENTS_PREFIX}${id}` };
  // Converting a one-entry registry makes the schema's named parts external references.
  const registry = z.registry<{ id: string }>();
  registry.add(schema, { id: '__inline' });
  const { schemas } = z.toJSONSchema(registry, { ...COMMON, io, uri: (ref) => `${COMPONENTS_PREFIX}${ref}` });
  return clean(schemas.__inline as JsonSchema);
}

/**
 * The components of the spec model, and nothing else: its named schemas and those reachable from
 * the endpoint catalogue, converted from zod's global registry (where the `spec` model registers
 * its named schemas; anything else registered there is left out).
 */
export function componentSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    ...COMMON,
    io: 'input',
    uri: (id) => `${COMPONENTS_PREFIX}${id}`,
  });
  if ('__shared' in schemas)
    throw new Error('internal: the spec model has shared definitions that are not named components');
  const all = Object.fromEntries(Object.entries(schemas).map(([id, s]) => [id, clean(s as JsonSchema)]));

  const roots: unknown[] = [];
  for (const endpoint of Object.values(model.endpoints)) {
    for (const s of [endpoint.body, endpoint.query, endpoint.pathParams]) if (s) roots.push(schemaOf(s));
    for (const r of endpoint.responses) if (typeof r.body !== 'string') roots.push(schemaOf(r.body, 'output'));
  }
  // Named schemas of the model that no endpoint names as a whole (e.g. the §4.1 rule 3 body).
  for (const value of Object.values(model)) {
    if (value instanceof z.ZodType && componentId(value)) roots.push(schemaOf(value));
  }
  const wanted = new Set<string>();
  const queue = [...refsIn(roots)];
  while (queue.length) {
    const ref = queue.pop()!;
    const id = ref.startsWith(COMPONENTS_PREFIX) ? ref.slice(COMPONENTS_PREFIX.length) : undefined;
    if (!id || wanted.has(id)) continue;
    if (!all[id]) throw new Error(`internal: ${ref} is referenced but is not a component of the spec model`);
    wanted.add(id);
    for (const next of refsIn(all[id])) queue.push(next);
  }
  return Object.fromEntries([...wanted].sort().map((id) => [id, all[id]]));
}
