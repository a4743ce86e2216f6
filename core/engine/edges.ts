/**
 * The edge relation (issue #42, blind spot 4): every field of every request body, at the edges where
 * real servers store values — integers at 32- and 64-bit widths, numbers a double, cents or a decimal
 * column would change, text past common column sizes in UTF-8 bytes, every list at 0, 1 and many
 * items, a body near a common size limit, every date and datetime at the calendar's edges
 * (generators/edges.ts) — has one of three outcomes, never a fourth:
 *
 * - accepted with the documented status, and where the answer hands the value back (an echo of the
 *   model, core/engine/echo.ts) the value comes back intact;
 * - refused as a limit the spec leaves open (§2.3 "validation rules of every account field: not
 *   shown", §8 "payload size limits: not shown"): a §7.1 400 naming the field, or a 413 for the body,
 *   that `judgeRefusal` reads as a limit; recorded as a discovered limit;
 * - anything else is broken: a 5xx, a refusal `judgeRefusal` calls a failure, a value handed back cut
 *   or changed, items handed back fewer than sent.
 *
 * The places are derived from the spec model and the driver table alone (`edgePlaces`); the edge
 * values put at them are fixed (the suite's `EDGE_VALUES`, from generators/edges.ts), so every
 * instance runs in every run.
 */
import { z } from 'zod';
import { DecimalString, type EndpointSpec } from '../spec/index.js';
import { getAtPath, isPlainObject } from '../spec/paths.js';
import { freshCopy } from './ids.js';
import { batchOf, type Catalogue } from './drivers.js';
import { type EchoDifference, type EchoSite, echoDifference, requestKinds } from './echo.js';
import { type DeclaredLimits, type FoundLimit, bodyBytes, judgeRefusal } from './limits.js';
import { LOOKUP_KEYS, type RelationKind } from './relations.js';
import type { RelationPlace, Rule } from './rule.js';

type Json = Record<string, unknown>;

/** What an edge is about: the shape of the field, read from the model. */
export type EdgeClass = 'integer' | 'number' | 'decimal' | 'amount' | 'text' | 'date' | 'datetime' | 'list';

/** One place of the relation: a field of an endpoint's request (`a[].b`, `[]` for each item) and its class. */
export interface EdgePlace extends RelationPlace {
  field: string;
  class: EdgeClass;
}

/**
 * Fields whose value no rule can vary without changing what the request is about, by their pattern
 * in the request, each with the reason. The lookup keys (`LOOKUP_KEYS`: the supplier code, the
 * external account number, the external business identifier) are excluded wherever they sit: they
 * name the account or business the request is about (§2.2, §2.3, §2.8, §4.2), so an edge there is
 * another subject (the lookup-near-miss relation's place), not another value.
 */
export const EDGE_FIXED: Readonly<Record<string, string>> = {
  'business.business_contract_identifier':
    '§2.3: it "must equal the identifier of a business contract created earlier", so another value names another contract',
  ledger_code:
    '§4.2 historical billing documents: usable once per ledger, the ledger the request is about; another code names another ledger',
  operations_team_name: '§4.1 process rule 1: "The named team must already exist"',
  vendor: '§2.7: the instruction is checked with the upstream vendor it names',
  reference: '§2.7: the instruction is checked upstream: only a reference the vendor knows is accepted',
  type: '§2.7: the instruction is checked upstream, with its type',
};

const unwrap = (schema: z.ZodType): z.ZodType => {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
  return inner;
};

const metaOf = (schema: z.ZodType) => z.globalRegistry.get(schema) as { seen?: readonly string[] } | undefined;

/**
 * The model's words for a value whose allowed values the spec shows only by example ("a domestic
 * type appears in the examples; values not shown", "two-letter code in the examples", "a
 * limited-company type is seen"): an open vocabulary or format, like `seen`.
 */
const BY_EXAMPLE = /in the examples|is seen|values not shown|list not shown/;

/** Whether the model shows a value's allowed values only by example (any wrapper's meta says so). */
function byExample(schema: z.ZodType): boolean {
  let s: z.ZodType | undefined = schema;
  for (let i = 0; s && i < 8; i++) {
    const meta = z.globalRegistry.get(s) as { seen?: unknown; why?: string; description?: string } | undefined;
    if (meta?.seen || BY_EXAMPLE.test(`${meta?.why ?? ''} ${meta?.description ?? ''}`)) return true;
    s = s instanceof z.ZodOptional || s instanceof z.ZodNullable ? (s.unwrap() as z.ZodType) : undefined;
  }
  return false;
}

/**
 * The edge class of a value's schema, or undefined where no edge fits: an enum, a boolean, a record
 * or value of keys not documented (§2.3 agreement params, metadata values, §2.8 terms: an edge would
 * sit under a key of the rule's choosing), a formatted string (an e-mail address, a phone number:
 * edge text is not one), and an open vocabulary or format the spec shows only by example (`seen`:
 * §2.3 account roles, §2.4 reasons and payment types; §2.3 account_type, country, §2.8
 * business_type — "allowed values … not shown", so a long text there is refused as not allowed,
 * which tells nothing of how text is stored).
 */
export function edgeClassOf(schema: z.ZodType): EdgeClass | undefined {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodISODate) return 'date';
  if (inner instanceof z.ZodISODateTime) return 'datetime';
  if (inner === DecimalString) return 'decimal';
  if (inner instanceof z.ZodNumber) return (inner as { isInt?: boolean }).isInt ? 'integer' : 'number';
  if (inner instanceof z.ZodUnion) {
    const options = (inner.options as z.ZodType[]).map(edgeClassOf);
    return options.includes('number') && options.includes('decimal') ? 'amount' : undefined;
  }
  if (inner instanceof z.ZodString) return inner.format || byExample(schema) ? undefined : 'text';
  return undefined;
}

const join = (at: string, key: string) => (at === '' ? key : `${at}.${key}`);
const lastName = (pattern: string) => pattern.replace(/\[\]/g, '').split('.').pop() ?? pattern;
const fixed = (pattern: string) =>
  (LOOKUP_KEYS as readonly string[]).includes(lastName(pattern)) || pattern in EDGE_FIXED;

/**
 * Every place of a request schema: each field with an edge class (an item of a list of values as
 * `list[]`), and each list. A list is a place unless every field in its items is fixed (§2.7 the
 * accounts of a business instruction name accounts: more of them are other accounts, not an edge).
 */
export function schemaPlaces(schema: z.ZodType): { field: string; class: EdgeClass }[] {
  const out: { field: string; class: EdgeClass }[] = [];
  // Whether a value holds a field an edge may vary: a list whose items hold only fixed fields is no place.
  const walk = (s: z.ZodType, at: string): boolean => {
    const inner = unwrap(s);
    if (inner instanceof z.ZodArray) {
      const index = out.length;
      out.push({ field: at, class: 'list' });
      const free = walk(inner.element as z.ZodType, `${at}[]`);
      if (!free) out.splice(index, 1);
      return free;
    }
    if (inner instanceof z.ZodObject) {
      let free = false;
      for (const [key, child] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
        const field = join(at, key);
        if (!fixed(field)) free = walk(child, field) || free;
      }
      return free;
    }
    const c = edgeClassOf(s);
    if (c) out.push({ field: at, class: c });
    // A value with no edge class still makes its list free to vary (account roles, terms).
    return true;
  };
  walk(schema, '');
  return out;
}

/**
 * The places of the relation: every place of the request of every endpoint with a body and a driver
 * (a GET has none; §4.2 agreements and supply points document no field but the account's keys —
 * "payload shape: not shown" — so they have no place).
 */
export function edgePlaces(catalogue: Catalogue): EdgePlace[] {
  return catalogue.endpoints.flatMap((e) =>
    e.body && catalogue.drivers[e.id] ? schemaPlaces(e.body).map((p) => ({ endpoint: e.id, ...p })) : [],
  );
}

// ---- the instances: fixed edge values, each request one edge over the places of its class ----

/** Bytes of edge text one request carries at most (a 64 KiB text goes to a few fields a request). */
export const TEXT_BYTES_PER_REQUEST = 512 * 1024;
/** A common body limit (1 MiB, nginx's default `client_max_body_size`); the body edge stays just under it. */
export const COMMON_BODY_LIMIT = 1024 * 1024;
const BODY_MARGIN = 1024;

/**
 * The edge values a plan puts at the places (the suite's, from generators/edges.ts: the engine
 * draws on no generator), and the sizes of "many".
 */
export interface EdgeValues {
  integers: readonly number[];
  numbers: readonly (number | string)[];
  textBytes: readonly number[];
  dates: readonly string[];
  datetimes: readonly string[];
  /** Items of a nested list at "many"; `manyBatch` for the driver's batch list. */
  many: number;
  manyBatch: number;
  /** `base`, then filler, exactly `bytes` UTF-8 bytes long. */
  text(base: string, bytes: number): string;
}

/** What an instance is given to build its request: fresh strings, and a fresh item of the endpoint's batch. */
export interface EdgeTools {
  /** A string no other request of the run has (a namespaced identifier). */
  fresh(): string;
  /** The run's namespace, in every identifier it makes: what a copy of an item changes to stay fresh. */
  namespace: string;
  /** A fresh valid item of the endpoint's batch (the driver's), where it has one. */
  item?(): Json;
}

export type EdgeKind = 'value' | 'empty' | 'one' | 'many' | 'body';

export interface EdgeInstance {
  /** The edge in words (`integer 2147483648`, `0 items`). */
  edge: string;
  kind: EdgeKind;
  /** The places it puts the edge at. */
  places: string[];
  /** The request body with the edge put at its places (a copy). */
  apply(body: Json, tools: EdgeTools): Json;
  /**
   * The instances this one puts together, each about one list (`together`): sent on their own
   * when the request they share is not accepted intact, so each is judged as it would be alone.
   */
  members?: EdgeInstance[];
}

interface Step {
  key: string;
  /** The value at `key` is a list whose every item the path goes on into. */
  each: boolean;
  /** The schema of the value at `key` (for a list: of its items). */
  schema: z.ZodType;
}

/** A pattern against its schema: the steps from the root, each with its schema. */
function stepsOf(root: z.ZodType, pattern: string): Step[] {
  const steps: Step[] = [];
  let s = unwrap(root);
  const parts = pattern.split('.');
  for (const part of parts) {
    const each = part.endsWith('[]');
    const key = part.replace(/\[\]$/, '');
    const shape = s instanceof z.ZodObject ? (s.shape as Record<string, z.ZodType>) : {};
    let child = unwrap(shape[key] ?? z.unknown());
    if (each && child instanceof z.ZodArray) child = unwrap(child.element as z.ZodType);
    steps.push({ key, each, schema: child });
    s = child;
  }
  return steps;
}

/**
 * A valid value of a schema, for a list the request must carry an item of where the valid request
 * has none (a reading on an electricity supply point, line items on a charge): the first value of
 * each enum, the first value seen of an open vocabulary, a fresh string, 1, a date the spec shows.
 */
export function exampleOf(schema: z.ZodType, fresh: () => string): unknown {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodISODate) return '2024-01-01';
  if (inner instanceof z.ZodISODateTime) return '2024-01-01T00:00:00Z';
  if (inner === DecimalString) return '1.00';
  if (inner instanceof z.ZodNumber) return 1;
  if (inner instanceof z.ZodBoolean) return false;
  if (inner instanceof z.ZodEnum) return (inner.options as unknown[])[0];
  if (inner instanceof z.ZodLiteral) return (inner.values as Set<unknown>).values().next().value;
  if (inner instanceof z.ZodUnion) return exampleOf((inner.options as z.ZodType[])[0], fresh);
  if (inner instanceof z.ZodArray) return [exampleOf(inner.element as z.ZodType, fresh)];
  if (inner instanceof z.ZodObject)
    return Object.fromEntries(
      Object.entries(inner.shape as Record<string, z.ZodType>).map(([k, v]) => [k, exampleOf(v, fresh)]),
    );
  if (inner instanceof z.ZodString) {
    if (inner.format === 'email') return `${fresh().toLowerCase()}@example.com`;
    if (inner.format === 'phone') return '+34612345678';
    return metaOf(inner)?.seen?.[0] ?? fresh();
  }
  return {};
}

/**
 * Visits every place `pattern` names in `body` (mutated), first making sure it is there: a missing
 * object or an empty or missing list on the way gets an example (`exampleOf`), so that an edge is
 * put at a field the valid request leaves out. `at` gets the holder and the key of each.
 */
function visit(
  body: Json,
  steps: Step[],
  fresh: () => string,
  at: (holder: Json | unknown[], key: string | number) => void,
  /** Only the first item of each list on the way (`firstItems` in `edgePlan` says when). */
  firstItems = false,
) {
  const go = (node: unknown, i: number) => {
    if (!isPlainObject(node)) return;
    const { key, each, schema } = steps[i];
    const last = i === steps.length - 1;
    if (!each) {
      if (last) return at(node, key);
      if (!isPlainObject(node[key])) node[key] = exampleOf(schema, fresh);
      return go(node[key], i + 1);
    }
    if (!Array.isArray(node[key]) || (node[key] as unknown[]).length === 0) node[key] = [exampleOf(schema, fresh)];
    const list = node[key] as unknown[];
    for (let j = 0; j < (firstItems ? 1 : list.length); j++) last ? at(list, j) : go(list[j], i + 1);
  };
  go(body, 0);
}

/** The holder and key of every list `pattern` names (the list itself, not its items). */
function visitList(
  body: Json,
  steps: Step[],
  fresh: () => string,
  at: (holder: Json, key: string, itemSchema: z.ZodType) => void,
) {
  const parent = steps.slice(0, -1);
  const { key, schema } = steps[steps.length - 1];
  const arrived = (holder: Json) => {
    if (!Array.isArray(holder[key]) || (holder[key] as unknown[]).length === 0) {
      const example = exampleOf(schema, fresh);
      holder[key] = Array.isArray(example) ? example : [example];
    }
    at(holder, key, schema);
  };
  if (parent.length === 0) return arrived(body);
  visit(body, parent, fresh, (holder, k) => {
    const h = holder as Record<string | number, unknown>;
    if (!isPlainObject(h[k])) h[k] = exampleOf(parent[parent.length - 1].schema, fresh);
    arrived(h[k] as Json);
  });
}

/** An edge number as a field of the class takes it: a number, a decimal string, either for an amount (§2.4). */
const edgeValueFor = (c: EdgeClass, edge: number | string) => {
  if (c === 'number') return Number(edge);
  if (c === 'decimal') return String(edge);
  return edge;
};

/** Splits places into groups whose edge text stays within `TEXT_BYTES_PER_REQUEST`. */
const chunks = <T>(items: T[], size: number): T[][] =>
  items.length === 0
    ? []
    : Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/**
 * The instances of one endpoint: for each edge value of a class, one request with that value at every
 * place of the class (text split so a request stays under `TEXT_BYTES_PER_REQUEST`); every list at one
 * item in one request; each list empty, and each list at many items, one request each; and the
 * driver's batch list filled to just under a common body limit. Fixed: no value is drawn.
 */
export function edgePlan(
  endpoint: EndpointSpec,
  places: readonly EdgePlace[],
  values: EdgeValues,
  batchList?: string,
): EdgeInstance[] {
  const schema = endpoint.body;
  if (!schema) return [];
  const of = (...classes: EdgeClass[]) => places.filter((p) => classes.includes(p.class));
  const setting = (
    edge: string,
    targets: EdgePlace[],
    value: (p: EdgePlace, old: unknown, t: EdgeTools) => unknown,
    firstItems = false,
  ) =>
    ({
      edge,
      kind: 'value',
      places: targets.map((p) => p.field),
      apply(body, tools) {
        const copy = ownCopy(body);
        for (const p of targets)
          visit(
            copy,
            stepsOf(schema, p.field),
            tools.fresh,
            (holder, key) => {
              const h = holder as Record<string | number, unknown>;
              h[key] = value(p, h[key], tools);
            },
            firstItems,
          );
        return copy;
      },
    }) satisfies EdgeInstance;
  const instances: EdgeInstance[] = [];
  // The value instances of each class, in order; the i-th of every class share a request (`byIndex`).
  const byClass: EdgeInstance[][] = [];
  const ints = of('integer');
  if (ints.length) byClass.push(values.integers.map((n) => setting(`integer ${n}`, ints, () => n)));
  const nums = of('number', 'decimal', 'amount');
  if (nums.length)
    byClass.push(
      values.numbers.map((n) => setting(`number ${JSON.stringify(n)}`, nums, (p) => edgeValueFor(p.class, n))),
    );
  const texts = of('text');
  const textual: EdgeInstance[] = [];
  byClass.push(textual);
  for (const bytes of values.textBytes)
    for (const group of chunks(texts, Math.max(1, Math.floor(TEXT_BYTES_PER_REQUEST / bytes))))
      textual.push(
        setting(
          `text of ${bytes} UTF-8 bytes`,
          group,
          (_p, old, t) => values.text(typeof old === 'string' ? old : t.fresh(), bytes),
          // Long text goes to the first item of each list on the way: a column is as wide in every
          // row, and 64 KiB at every address, supply point and agreement of the account made requests
          // of 800 KB that carried the same edge many times (most of the default run's bytes).
          true,
        ),
      );
  for (const [c, edges] of [
    ['date', values.dates],
    ['datetime', values.datetimes],
  ] as const) {
    const groups = holders(of(c));
    const turns = groups.reduce((most, g) => Math.max(most, g.fields.length), 0);
    const dated: EdgeInstance[] = [];
    byClass.push(dated);
    for (const d of edges)
      for (let turn = 0; turn < turns; turn++) {
        const at = groups.map((g) => g.fields[Math.min(turn, g.fields.length - 1)]);
        dated.push({
          edge: `${c} ${d}`,
          kind: 'value',
          places: at,
          apply(body, tools) {
            const copy = ownCopy(body);
            for (const g of groups)
              shiftHolders(copy, schema, g, g.fields[Math.min(turn, g.fields.length - 1)], d, tools);
            return copy;
          },
        });
      }
  }
  for (const group of byIndex(byClass)) instances.push(group);
  const lists = of('list');
  const perList: EdgeInstance[] = [];
  if (lists.length)
    instances.push({
      edge: '1 item',
      kind: 'one',
      places: lists.map((p) => p.field),
      apply(body, tools) {
        const copy = ownCopy(body);
        for (const p of lists)
          visitList(copy, stepsOf(schema, p.field), tools.fresh, (holder, key) => {
            holder[key] = (holder[key] as unknown[]).slice(0, 1);
          });
        return copy;
      },
    });
  for (const p of lists) {
    const steps = stepsOf(schema, p.field);
    perList.push({
      edge: '0 items',
      kind: 'empty',
      places: [p.field],
      apply(body, tools) {
        const copy = ownCopy(body);
        visitList(copy, steps, tools.fresh, (holder, key) => {
          holder[key] = [];
        });
        return copy;
      },
    });
    const top = p.field === batchList;
    const many = top ? values.manyBatch : values.many;
    (top ? instances : perList).push({
      edge: `${many} items`,
      kind: 'many',
      places: [p.field],
      apply(body, tools) {
        const copy = ownCopy(body);
        visitList(copy, steps, tools.fresh, (holder, key) => {
          const [first] = holder[key] as unknown[];
          holder[key] = Array.from({ length: many }, (_, i) =>
            i === 0 ? first : top && tools.item ? tools.item() : freshCopy(first, tools.namespace, i),
          );
        });
        return copy;
      },
    });
    if (top)
      instances.push({
        edge: `a body just under ${COMMON_BODY_LIMIT} bytes`,
        kind: 'body',
        places: [p.field],
        apply(body, tools) {
          const copy = ownCopy(body);
          const list = (copy[p.field] as unknown[]) ?? [];
          copy[p.field] = list;
          const room = COMMON_BODY_LIMIT - BODY_MARGIN;
          const [first] = list;
          // Copies of the first item made fresh (its identifiers carry the namespace), until the next would pass `room`.
          let size = bodyBytes(copy);
          for (let i = 1; ; i++) {
            const item = freshCopy(first, tools.namespace, i);
            const more = bodyBytes(item) + 1;
            if (size + more > room) break;
            list.push(item);
            size += more;
          }
          return copy;
        },
      });
  }
  return [...instances, ...together(perList)];
}

/** How deep a list sits: the lists on the way to it. Lists of one depth hold none of each other. */
const depthOf = (field: string) => field.split('[]').length - 1;

/**
 * One instance for the lists of one depth with the same edge (every list emptied, every list at
 * many items), its members the instances of each list: a server that accepts them all intact in one
 * request has accepted each (a list holds none of the others), and one that does not is sent each
 * list alone. The account payload has two dozen lists: 48 requests became 6.
 */
function together(perList: EdgeInstance[]): EdgeInstance[] {
  const groups = new Map<string, EdgeInstance[]>();
  for (const i of perList) {
    const key = `${i.kind} ${i.edge} ${depthOf(i.places[0])}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  }
  return [...groups.values()].map((members) => shared(members, members[0].edge));
}

/**
 * The value instances of the classes put together by rank: the first integer edge, the first
 * number, the first text and the first date in one request, then the second of each, and so on.
 * A field has one class, so no two members touch one field; each member's edge is a value its
 * field's shape allows, so the request they share is as legal as each of theirs.
 */
function byIndex(byClass: EdgeInstance[][]): EdgeInstance[] {
  const rounds = byClass.reduce((most, c) => Math.max(most, c.length), 0);
  return Array.from({ length: rounds }, (_, i) => {
    const members = byClass.flatMap((c) => (i < c.length ? [c[i]] : []));
    return shared(members, members.map((m) => m.edge).join(', '));
  });
}

/** Copies a group's apply made, which its members change in place rather than copy again. */
const scratch = new WeakSet<Json>();

/** The body an instance puts its edge into: a copy, unless it is already the copy of a group it is a member of. */
const ownCopy = (body: Json): Json => (scratch.has(body) ? body : structuredClone(body));

/** One instance standing for `members` (each of which it sends alone when they are not accepted together). */
function shared(members: EdgeInstance[], edge: string): EdgeInstance {
  if (members.length === 1) return members[0];
  return {
    edge,
    kind: members[0].kind,
    places: members.flatMap((m) => m.places),
    // One copy for all: a member's copy of a body holding 64 KiB texts at a dozen places costs more than its edge.
    apply(body, tools) {
      const copy = structuredClone(body);
      scratch.add(copy);
      try {
        for (const m of members) m.apply(copy, tools);
      } finally {
        scratch.delete(copy);
      }
      return copy;
    },
    members,
  };
}

/** Date places grouped by the object that holds them (`a[].b` and `a[].c` in the items of `a`). */
function holders(places: EdgePlace[]): { holder: string; fields: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const p of places) {
    const holder = p.field.includes('.') ? p.field.slice(0, p.field.lastIndexOf('.')) : '';
    groups.set(holder, [...(groups.get(holder) ?? []), p.field]);
  }
  return [...groups].map(([holder, fields]) => ({ holder, fields }));
}

const DAY = 24 * 60 * 60 * 1000;
const instant = (v: string) => Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v);
const spelled = (ms: number, like: string) =>
  like.length === 10 ? new Date(ms).toISOString().slice(0, 10) : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Puts `edge` at `anchor` in every object of `group.holder`, and moves the other dates of the same
 * class in that object by as much: a range (§2.3 interval_start and interval_end, a statement's
 * period) keeps its order and length, so the edge is the only thing the request changes. A date the
 * object leaves out stays out; a missing anchor is added.
 */
function shiftHolders(
  body: Json,
  schema: z.ZodType,
  group: { holder: string; fields: string[] },
  anchor: string,
  edge: string,
  tools: EdgeTools,
) {
  const name = (f: string) => f.slice(f.lastIndexOf('.') + 1);
  const move = (holder: Json) => {
    const from = holder[name(anchor)];
    const by = typeof from === 'string' && !Number.isNaN(instant(from)) ? instant(edge) - instant(from) : 0;
    for (const f of group.fields) {
      const v = holder[name(f)];
      if (f === anchor) holder[name(f)] = edge;
      else if (typeof v === 'string' && !Number.isNaN(instant(v)))
        holder[name(f)] = spelled(
          instant(v) + Math.round(by / (v.length === 10 ? DAY : 1)) * (v.length === 10 ? DAY : 1),
          v,
        );
    }
  };
  if (group.holder === '') return move(body);
  visit(body, stepsOf(schema, group.holder), tools.fresh, (h, key) => {
    const held = (h as Record<string | number, unknown>)[key];
    if (isPlainObject(held)) move(held);
  });
}

/** The places an instance list reaches, once each, in the reading order of the endpoint's request. */
export function coveredBy(endpoint: EndpointSpec, plan: readonly EdgeInstance[]): RelationPlace[] {
  const reached = new Set(plan.flatMap((i) => i.places));
  return (endpoint.body ? schemaPlaces(endpoint.body) : [])
    .filter((p) => reached.has(p.field))
    .map((p) => ({ endpoint: endpoint.id, field: p.field }));
}

/** The instances of an endpoint of a catalogue (its places, its driver's batch list). */
export function endpointPlan(catalogue: Catalogue, endpoint: EndpointSpec, values: EdgeValues): EdgeInstance[] {
  const places = edgePlaces({ ...catalogue, endpoints: [endpoint] });
  return edgePlan(endpoint, places, values, batchOf(catalogue.drivers[endpoint.id])?.list);
}

// ---- the judgement ----

const pick = (item: unknown, fields: readonly string[] | undefined): unknown =>
  fields && isPlainObject(item) ? Object.fromEntries(fields.filter((f) => f in item).map((f) => [f, item[f]])) : item;

/** The first list of an answer's body: the body itself, or its first list field (`{results: […]}`). */
const listOf = (body: unknown): unknown[] | undefined =>
  Array.isArray(body)
    ? body
    : isPlainObject(body)
      ? (Object.values(body).find((v) => Array.isArray(v)) as unknown[] | undefined)
      : undefined;

/**
 * The first value of `sent` the answer hands back changed, read through the endpoint's echo (the
 * model's `echoes`), or undefined when every one comes back intact. Per item (`notes[]`) each sent
 * item is matched to one handed back in any order (§4.2 does not order the results), the numbers of
 * each equal in count; `except` are patterns not compared (a list sent empty that may come back
 * omitted, §2.1), besides the fields the echo says a documented rule changes.
 */
export function echoedDifference(
  site: EchoSite,
  sent: Json,
  body: unknown,
  except: readonly string[] = [],
  /** The run's namespace: items handed back in another order are matched by the identifiers it marks. */
  namespace?: string,
): EchoDifference | undefined {
  const { echo } = site;
  const each = echo.from.endsWith('[]');
  const from = echo.from.replace(/\[\]$/, '');
  const options = {
    kinds: requestKinds(site.endpoint),
    base: from,
    mode: echo.strength === 'reading' ? ('carried' as const) : ('all' as const),
    except: [...except, ...(echo.changes ?? []).map((c) => `${from}${each ? '[]' : ''}.${c.field}`)],
  };
  const at = (d: EchoDifference | undefined) => d && (from ? { ...d, path: `${from}.${d.path}` } : d);
  const sentAt = from === '' ? sent : getAtPath(sent, from);
  if (!each) {
    const back = from === '' ? body : Array.isArray(body) ? body : isPlainObject(body) ? body[from] : undefined;
    return at(echoDifference(sentAt, back, options));
  }
  const items = (Array.isArray(sentAt) ? sentAt : []).map((item) => pick(item, echo.fields));
  const back = listOf(body)?.map((item) => (echo.itemAt && isPlainObject(item) ? item[echo.itemAt] : item));
  const inOrder = echoDifference(items, back, options);
  if (!inOrder || !back || back.length !== items.length) return at(inOrder);
  // In another order: each item sent must have one handed back equal to it, found first among those
  // carrying the same fresh identifier (a run's items carry its namespace), so a list of thousands
  // is matched in one pass.
  const taken = new Set<number>();
  const byMark = new Map<string, number[]>();
  back.forEach((b, j) => {
    for (const m of marks(b, namespace)) byMark.set(m, [...(byMark.get(m) ?? []), j]);
  });
  const same = (i: number, j: number) => !taken.has(j) && echoDifference([items[i]], [back[j]], options) === undefined;
  for (let i = 0; i < items.length; i++) {
    const [mark] = marks(items[i], namespace);
    const j =
      (mark === undefined ? undefined : byMark.get(mark)?.find((k) => same(i, k))) ??
      back.findIndex((_, k) => same(i, k));
    if (j < 0) return at(inOrder);
    taken.add(j);
  }
  return undefined;
}

/**
 * What of `value` sits at `places` (patterns from the root, `[]` for each item): the fields at them,
 * and the objects and lists on the way (a list keeps its length, an item that holds none of them is
 * `{}`); at a list place (`lists`), the list with its items as `{}` unless they are values (its
 * count is the edge: no item dropped). The edge judged is the one the instance put there: the rest
 * of what comes back is the echo relation's.
 */
export function atPlaces(value: unknown, places: readonly string[], lists = false, at = ''): unknown {
  if (places.includes(at) && lists && Array.isArray(value))
    return value.map((v) => (isPlainObject(v) || Array.isArray(v) ? {} : v));
  if (places.some((p) => at === p || (at.startsWith(p) && (at[p.length] === '.' || at[p.length] === '['))))
    return value;
  if (Array.isArray(value)) {
    const items = value.map((v) => atPlaces(v, places, lists, `${at}[]`));
    return items.every((i) => i === undefined) ? undefined : items.map((i) => i ?? {});
  }
  if (isPlainObject(value)) {
    const kept = Object.entries(value)
      .map(([k, v]) => [k, atPlaces(v, places, lists, join(at, k))] as const)
      .filter(([, v]) => v !== undefined);
    return kept.length ? Object.fromEntries(kept) : at === '' ? {} : undefined;
  }
  return undefined;
}

/** How deep `marks` looks into an answer: what the target sends may be nested past any stack. */
const MARK_DEPTH = 64;

/** The strings of a value that carry the run's namespace (its fresh identifiers), in order. */
function marks(value: unknown, namespace: string | undefined): string[] {
  if (!namespace) return [];
  const out: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (typeof v === 'string') {
      if (v.includes(namespace)) out.push(v);
    } else if (depth >= MARK_DEPTH) return;
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (isPlainObject(v)) for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(value, 0);
  return out;
}

export type EdgeOutcome =
  | { kind: 'intact' }
  | { kind: 'limit'; limits: FoundLimit[] }
  | { kind: 'refused'; why: string }
  | { kind: 'broken'; reason: string };

export interface EdgeAnswer {
  status: number;
  body: unknown;
}

export interface EdgeJudging {
  /** The documented success statuses (the driver's). */
  accepted: readonly number[];
  /** The value handed back changed, where the answer hands one back. */
  difference?: (body: unknown) => EchoDifference | undefined;
  /** The instance empties a list: a §7.1 400 refusing it is legal (below). */
  empties?: boolean;
  /** Whether a 400 body is a validation error of the endpoint (§7.1, or its own documented body). */
  isValidationError?: (body: unknown) => boolean;
  declared?: DeclaredLimits;
  nonFieldErrors?: boolean;
}

/**
 * The three-way judgement of one answer to a request carrying an edge (the module's header). An
 * empty list is refused legally by any validation error: §2.1 "An optional field that carries no
 * data is omitted from the payload entirely" — an empty list is one a client should have omitted,
 * and required flags are not shown (§2.3, §4) — so a 400 refusing it says nothing of a limit.
 */
export function judgeEdge(answer: EdgeAnswer, sent: unknown, judging: EdgeJudging): EdgeOutcome {
  if (judging.accepted.includes(answer.status)) {
    const d = judging.difference?.(answer.body);
    if (!d) return { kind: 'intact' };
    return {
      kind: 'broken',
      reason: `accepted (${answer.status}), but ${d.path} was sent as ${short(d.sent)} and came back as ${d.echoed === undefined ? 'nothing' : short(d.echoed)}`,
    };
  }
  if (judging.empties && answer.status === 400) {
    if (judging.isValidationError?.(answer.body) ?? true)
      return {
        kind: 'refused',
        why: 'an empty list refused by a validation error (§2.1: omitted when it carries no data)',
      };
    return { kind: 'broken', reason: 'refused an empty list with a 400 that is no validation error (§7.1)' };
  }
  if (answer.status === 400 || answer.status === 413) {
    const judged = judgeRefusal(answer, sent, judging.declared, judging.nonFieldErrors);
    return judged.kind === 'limit' ? judged : { kind: 'broken', reason: `refused, not for a limit: ${judged.reason}` };
  }
  return {
    kind: 'broken',
    reason: `answered ${answer.status}, neither the documented ${judging.accepted.join(' or ')} nor a §7.1 refusal of a limit`,
  };
}

/** A value in a message: JSON, long text shortened to its start, length and bytes. */
export function short(value: unknown): string {
  if (typeof value === 'string' && value.length > 60)
    return `${JSON.stringify(value.slice(0, 40))}… (${[...value].length} characters, ${Buffer.byteLength(value)} UTF-8 bytes)`;
  if (Array.isArray(value) && value.length > 3) return `a list of ${value.length} items`;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // What a target sends may be nested past any stack.
    return Array.isArray(value) ? 'a list nested too deep to show' : 'a value nested too deep to show';
  }
  return text.length > 120 ? `${text.slice(0, 100)}… (${text.length} characters of JSON)` : text;
}

// ---- the relation ----

/** The tag every rule of the relation carries. */
export const EDGE_TAG = 'relation:edge';

export const EDGE: RelationKind = {
  id: 'edge',
  spec: '§2.1, §2.3, §2.4, §7.1, §7.2, §8',
  sentence:
    'Every field takes the values its shape allows, at the edges where servers store them, and is kept as sent or refused as a limit: "Required or optional flags, allowed values and validation rules of every account field: not shown." (§2.3); "Rate limits and payload size limits: not shown." (§8); "500 | unexpected error" (§7.2).',
  applies: (c) => edgePlaces(c).map(({ endpoint, field }) => ({ endpoint, field })),
  covered: (rules: readonly Rule[]) => rules.flatMap((r) => (r.relation?.kind === 'edge' ? r.relation.places : [])),
};
