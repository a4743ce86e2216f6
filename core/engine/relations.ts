/**
 * The relations the spec states, each applied at every place of the model it holds at. A rule tests
 * a statement where its author thought of it; a relation ("a lookup finds its key and nothing
 * else", "a business is one per key") holds at every place of the model that has what it is about,
 * and a server that keeps it at one place may break it at another. Each kind here names its spec
 * sentence, derives the places it applies to from the spec model and the driver table alone (no
 * endpoint is named), and reads the places the registered rules instantiate from their `relation`
 * field: `relationCoverage` is the difference, and a place no rule instantiates is a gap the report
 * shows and test/suites/relation-coverage.test.ts refuses.
 */
import type { z } from 'zod';
import type { Catalogue } from './drivers.js';
import type { RelationPlace, Rule } from './rule.js';

export type { RelationPlace } from './rule.js';

export interface RelationKind {
  /** `lookup-near-miss`, `identity`, … (the rules' `relation.kind`). */
  id: string;
  /** The sections of the spec sentence, e.g. `§4.2 notes rule 5, §4.3, §7.2`. */
  spec: string;
  /** The spec sentence it enforces, quoted. */
  sentence: string;
  /** Every place of the model it applies to, derived from the spec model and the driver table. */
  applies(catalogue: Catalogue): RelationPlace[];
  /** The places the registered rules instantiate (their `relation` field). */
  covered(rules: readonly Rule[]): RelationPlace[];
}

/** A place as text: `createNotes external_account_number`, `createNotes` when it names no field. */
export const placeName = (p: RelationPlace): string => (p.field ? `${p.endpoint} ${p.field}` : p.endpoint);

/** The places the rules of `kind` name in their `relation` field. */
const placesOf = (kind: string) => (rules: readonly Rule[]) =>
  rules.flatMap((r) => (r.relation?.kind === kind ? r.relation.places : []));

type Shape = Record<string, z.ZodType>;

/** The fields of an object schema, looking through optional, nullable and array wrappers. */
export function shapeOf(schema: unknown): Shape | undefined {
  let s = schema as { shape?: Shape; unwrap?: () => unknown; element?: unknown } | undefined;
  for (let i = 0; s && i < 8; i++) {
    if (s.shape) return s.shape;
    s = (s.element ?? (typeof s.unwrap === 'function' ? s.unwrap() : undefined)) as typeof s;
  }
  return undefined;
}

/** A schema without its optional and nullable wrappers. */
function unwrapped(schema: unknown): unknown {
  let s = schema as { shape?: unknown; element?: unknown; unwrap?: () => unknown };
  for (let i = 0; i < 8 && !s.shape && !s.element && typeof s.unwrap === 'function'; i++) s = s.unwrap() as typeof s;
  return s;
}

/** The path parameters of an endpoint's path template (`{import_supplier_code}`). */
export const pathParams = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

/**
 * The fields a request names an import supplier, an account or a business by (§2.2: the supplier
 * code, sent as `import_supplier` or `import_supplier_code`; §2.3 and §2.9 the external account
 * number; §2.7 and §2.8 the external business identifier).
 */
export const LOOKUP_KEYS = [
  'import_supplier',
  'import_supplier_code',
  'external_account_number',
  'external_business_identifier',
] as const;

/** The §5 token's place on every endpoint: the Authorization header. */
export const TOKEN_FIELD = 'Authorization';

/**
 * The key fields of an endpoint that names something by key: every path parameter of a read, and the
 * top-level key fields of a request that looks something up or keeps what it is sent (validate does
 * neither: it checks a payload). A driver whose scope is `staged`, `imported` or `business` looks an
 * existing subject up; one that stores creates by key, so a near-miss key must make another.
 */
export function keyFields(c: Catalogue, endpoint: Catalogue['endpoints'][number]): string[] {
  if (endpoint.method !== 'GET' && c.drivers[endpoint.id] === undefined) return [];
  return modelKeyFields(endpoint);
}

/** keyFields as the spec model alone says them (the reference server's faults read them so). */
export function modelKeyFields(
  endpoint: Pick<Catalogue['endpoints'][number], 'method' | 'path' | 'looksUp' | 'stores' | 'body'>,
): string[] {
  if (endpoint.method === 'GET') return pathParams(endpoint.path);
  if (!endpoint.looksUp && !endpoint.stores) return [];
  const shape = shapeOf(endpoint.body) ?? {};
  return LOOKUP_KEYS.filter((k) => k in shape);
}

/**
 * Near-miss spellings of a key (blind spot: a lookup looser than its key): the letter case flipped
 * (when the key has letters), a leading and a trailing space (`spaces`), a proper prefix, an
 * extension. A prefix or an extension is another key under any reading. The case and the spaces are
 * `normalizable`: a server may hold a key normalized on input — its surrounding spaces trimmed
 * (Django REST framework's default for every string), its case folded by a collation — which the
 * spec does not rule out; such a near miss found is judged by whether the server holds it as the
 * same key everywhere (suites/relations-lookup.ts), not by being found.
 */
export function nearMisses(key: string, spaces = true): { what: string; value: string; normalizable: boolean }[] {
  // A run's identifiers end in their number, so the prefix of one may be another (`…-B3` of `…-B38`):
  // a rule gives its keys a tail first (suites/relations-lookup.ts).
  const prefix = key.slice(0, -1);
  const flipped = [...key].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');
  return [
    ...(flipped !== key ? [{ what: 'the letter case flipped', value: flipped, normalizable: true }] : []),
    ...(spaces
      ? [
          { what: 'a leading space', value: ` ${key}`, normalizable: true },
          { what: 'a trailing space', value: `${key} `, normalizable: true },
        ]
      : []),
    ...(prefix ? [{ what: 'a proper prefix', value: prefix, normalizable: false }] : []),
    { what: 'an extension', value: `${key}X`, normalizable: false },
  ];
}

/** Lookup near-misses: every key of every lookup, and the §5 token of every endpoint. */
export const LOOKUP_NEAR_MISS: RelationKind = {
  id: 'lookup-near-miss',
  spec: '§4.2 notes rule 5, §4.3, §7.2, §5.3, §3',
  sentence:
    '"A wrong supplier code or external number gives 404." (§4.2 notes rule 5); "The status endpoint gives 404 when no import process exists for the supplier code and external number." (§4.3); "401 | missing or invalid token" (§7.2, §5.3)',
  applies: (c) =>
    c.endpoints.flatMap((e) => [
      ...keyFields(c, e).map((field) => ({ endpoint: e.id, field })),
      { endpoint: e.id, field: TOKEN_FIELD },
    ]),
  covered: placesOf('lookup-near-miss'),
};

/**
 * §2.8: the key attributes of a business, as the spec names them (with the external identifier),
 * and the field left open: whether the supplier code is part of the key is not stated.
 */
export const BUSINESS_KEY = [
  'external_business_identifier',
  'business.company_name',
  'business.company_number',
  'business.business_type',
] as const;
const BUSINESS_KEY_OPEN = ['import_supplier_code'];

/** The endpoints that create a business: their answers tell the history a business (the driver table). */
const businessEndpoints = (c: Catalogue) => c.endpoints.filter((e) => c.drivers[e.id]?.history === 'business');

/**
 * The attributes of the business payload outside its key: every documented field of the request and
 * of its `business` object, and of one business contract, that §2.8 does not name as key.
 */
export function nonKeyAttributes(body: unknown): string[] {
  const top = shapeOf(body) ?? {};
  const fields: string[] = [];
  for (const [name, schema] of Object.entries(top)) {
    const inner = shapeOf(schema);
    if (!inner) {
      fields.push(name);
      continue;
    }
    for (const [sub, subSchema] of Object.entries(inner)) {
      const path = `${name}.${sub}`;
      fields.push(path);
      const list = unwrapped(subSchema) as { element?: unknown };
      const item = list.element ? shapeOf(list.element) : undefined;
      // The fields of one element of a list of objects (a business contract).
      if (item) for (const f of Object.keys(item)) fields.push(`${path}.0.${f}`);
    }
  }
  const key: readonly string[] = [...BUSINESS_KEY, ...BUSINESS_KEY_OPEN];
  return fields.filter((f) => !key.includes(f));
}

/** Identity by key attributes: a change outside the key is the same business. */
export const IDENTITY: RelationKind = {
  id: 'identity',
  spec: '§2.8, §4.4',
  sentence:
    '"A business is unique by its external identifier together with key attributes (name, number, type)." (§2.8)',
  applies: (c) =>
    businessEndpoints(c).flatMap((e) => nonKeyAttributes(e.body).map((field) => ({ endpoint: e.id, field }))),
  covered: placesOf('identity'),
};

/** An endpoint as every rule id names it (core/spec/endpoints.ts). */
export { endpointSlug } from '../spec/index.js';

/** The relation kinds of the catalogue; other kinds are added here. */
export const RELATION_KINDS: RelationKind[] = [LOOKUP_NEAR_MISS, IDENTITY];

export interface RelationCoverage {
  kind: string;
  spec: string;
  covered: number;
  applies: number;
  missing: RelationPlace[];
}

/** Per kind: the places it applies to, how many the rules instantiate, and the ones they miss. */
export function relationCoverage(
  catalogue: Catalogue,
  rules: readonly Rule[],
  kinds: readonly RelationKind[] = RELATION_KINDS,
): RelationCoverage[] {
  return kinds.map((k) => {
    const applies = k.applies(catalogue);
    const covered = new Set(k.covered(rules).map(placeName));
    const missing = applies.filter((p) => !covered.has(placeName(p)));
    return { kind: k.id, spec: k.spec, covered: applies.length - missing.length, applies: applies.length, missing };
  });
}
