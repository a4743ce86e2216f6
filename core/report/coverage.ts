/**
 * Status and field coverage of a set of exchanges — a run's, a proxy session's, a HAR file's, by
 * the same function: per endpoint of §4, which documented statuses (each with the situation the spec
 * model gives it) were observed and which never were, which undocumented statuses appeared, and
 * which documented request fields (dot paths of the zod request schemas, `*` for an array's
 * elements) were ever sent. Counted exchange by exchange as they complete (`CoverageCounter`), so
 * a run of any length keeps counts, never exchanges; trimmed transcripts would lose exchanges.
 */
import { z } from 'zod';
import type { Exchange } from '../http/exchange.js';
import { type EndpointId, type EndpointSpec, model } from '../spec/index.js';
import { isPlainObject } from '../spec/paths.js';
import { route } from '../spec/route.js';

const share = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);

export const CoverageSchema = z
  .object({
    exchanges: z.int().describe('exchanges counted: every request of the run, session or file'),
    unrouted: z.int().describe('requests to no endpoint of §4 (the §5.1 token mutation, other paths)'),
    statuses: z.object({
      documented: z.int(),
      observed: z.int().describe('documented statuses observed at least once'),
      share: z.number().nullable(),
    }),
    fields: z.object({
      documented: z.int(),
      sent: z.int().describe('documented request fields sent at least once'),
      share: z.number().nullable(),
    }),
    endpoints: z.array(
      z.object({
        endpoint: z.string(),
        method: z.string(),
        path: z.string(),
        requests: z.int(),
        no_response: z.int().describe('requests that got no complete response'),
        statuses: z
          .array(
            z.object({
              status: z.int(),
              spec: z.string(),
              situation: z.string().describe('when the spec documents this status for the endpoint'),
              observed: z.int().describe('responses with this status'),
            }),
          )
          .describe('every status the spec documents for the endpoint'),
        undocumented: z
          .array(z.object({ status: z.int(), observed: z.int() }))
          .describe('statuses the endpoint answered that the spec does not document for it'),
        fields: z.object({
          sent: z.array(z.string()).describe('documented request fields sent at least once'),
          never_sent: z.array(z.string()),
          share: z.number().nullable(),
        }),
      }),
    ),
  })
  .describe(
    'status and field coverage: which documented statuses and request fields the exchanges exercised (computed from every exchange, not the trimmed transcripts)',
  );
export type Coverage = z.output<typeof CoverageSchema>;

type Node = { _zod: { def: Record<string, unknown> & { type: string } } };

/** Wrappers whose inner schema carries the shape. */
const INNER: Record<string, (def: Record<string, unknown>) => unknown> = {
  optional: (d) => d.innerType,
  nullable: (d) => d.innerType,
  default: (d) => d.innerType,
  prefault: (d) => d.innerType,
  nonoptional: (d) => d.innerType,
  readonly: (d) => d.innerType,
  catch: (d) => d.innerType,
  pipe: (d) => d.in,
  lazy: (d) => (d.getter as () => unknown)(),
};

/**
 * The shapes a schema may take once wrappers are unwrapped: an object's fields, an array's
 * element, a union's options. Anything else (a record, a scalar) is a leaf: its keys are not
 * documented fields.
 */
type Shape = { kind: 'object'; fields: Map<string, Node> } | { kind: 'array'; element: Node } | { kind: 'leaf' };

const shapes = new WeakMap<Node, Shape>();

/** shapeOf, computed once per schema: every request body is read against the same few schemas. */
function cachedShape(schema: Node): Shape {
  let shape = shapes.get(schema);
  if (!shape) shapes.set(schema, (shape = shapeOf(schema)));
  return shape;
}

function shapeOf(schema: Node, depth = 0): Shape {
  let node = schema;
  for (let i = 0; i < 50 && INNER[node._zod.def.type]; i++) node = INNER[node._zod.def.type](node._zod.def) as Node;
  const def = node._zod.def;
  if (def.type === 'object')
    return { kind: 'object', fields: new Map(Object.entries(def.shape as Record<string, Node>)) };
  if (def.type === 'array') return { kind: 'array', element: def.element as Node };
  const options =
    def.type === 'union'
      ? (def.options as Node[])
      : def.type === 'intersection'
        ? [def.left as Node, def.right as Node]
        : [];
  if (depth > 10) return { kind: 'leaf' };
  // A union or intersection of objects documents the fields of each.
  const fields = new Map<string, Node>();
  for (const option of options) {
    const s = shapeOf(option, depth + 1);
    if (s.kind === 'object') for (const [k, v] of s.fields) if (!fields.has(k)) fields.set(k, v);
  }
  return fields.size ? { kind: 'object', fields } : { kind: 'leaf' };
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** Every documented field of a request schema, as dot paths (`notes.*.body`), parents before children. */
export function documentedFields(schema: z.ZodType, path = '', depth = 0): string[] {
  if (depth > 12) return [];
  const shape = shapeOf(schema as unknown as Node);
  if (shape.kind === 'array')
    return documentedFields(shape.element as unknown as z.ZodType, join(path, '*'), depth + 1);
  if (shape.kind !== 'object') return [];
  return [...shape.fields].flatMap(([key, child]) => {
    const at = join(path, key);
    return [at, ...documentedFields(child as unknown as z.ZodType, at, depth + 1)];
  });
}

/** Marks in `sent` the documented fields `value` carries, read against `schema`. */
function markSent(
  value: unknown,
  schema: Node,
  path: string,
  documented: Set<string>,
  sent: Set<string>,
  depth = 0,
): void {
  if (depth > 12) return;
  const shape = cachedShape(schema);
  if (shape.kind === 'array' && Array.isArray(value)) {
    for (const item of value) markSent(item, shape.element, join(path, '*'), documented, sent, depth + 1);
  } else if (shape.kind === 'object' && isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      const field = shape.fields.get(key);
      const at = join(path, key);
      if (!field || child === undefined || !documented.has(at)) continue;
      sent.add(at);
      markSent(child, field, at, documented, sent, depth + 1);
    }
  }
}

interface Tally {
  endpoint: EndpointSpec;
  fields: string[];
  documentedFields: Set<string>;
  requests: number;
  noResponse: number;
  statuses: Map<number, number>;
  sent: Set<string>;
  /** The field names (last path parts) of the fields not sent yet; recomputed when one is sent. */
  pendingKeys?: string[];
}

/**
 * Whether a body could carry a documented field not sent yet: only if it names one of their keys.
 * Parsing every body would cost more than the run's own work per request; a key a body carries
 * appears in its text as `"key"` unless spelled with a `\u` escape, which parses it anyway.
 */
function mayAdd(tally: Tally, text: string): boolean {
  tally.pendingKeys ??= [
    ...new Set(tally.fields.filter((f) => !tally.sent.has(f)).map((f) => `"${f.slice(f.lastIndexOf('.') + 1)}"`)),
  ];
  return text.includes('\\u') || tally.pendingKeys.some((key) => text.includes(key));
}

/** Counts exchanges as they complete; `result()` is the coverage so far. */
export class CoverageCounter {
  private exchanges = 0;
  private unrouted = 0;
  private readonly tallies = new Map<EndpointId, Tally>(
    Object.values(model.endpoints).map((endpoint) => {
      const fields = endpoint.body ? documentedFields(endpoint.body) : [];
      return [
        endpoint.id,
        {
          endpoint,
          fields,
          documentedFields: new Set(fields),
          requests: 0,
          noResponse: 0,
          statuses: new Map(),
          sent: new Set(),
        },
      ];
    }),
  );

  /** Counts one exchange. Its URL may carry a base path before the interface's `/v1/`. */
  observe(exchange: Pick<Exchange, 'request' | 'response'>): void {
    this.exchanges++;
    const { request, response } = exchange;
    const at = request.url.indexOf('/v1/');
    const routed = at >= 0 ? route(request.method, request.url.slice(at)) : undefined;
    if (!routed) {
      this.unrouted++;
      return;
    }
    const tally = this.tallies.get(routed.endpoint.id)!;
    tally.requests++;
    if (response) tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
    else tally.noResponse++;
    const schema = routed.endpoint.body;
    if (schema && request.body !== undefined && tally.sent.size < tally.fields.length) {
      if (!mayAdd(tally, request.body)) return;
      let body: unknown;
      try {
        body = JSON.parse(request.body);
      } catch {
        return; // not JSON: no documented field was sent
      }
      const before = tally.sent.size;
      markSent(body, schema as unknown as Node, '', tally.documentedFields, tally.sent);
      if (tally.sent.size !== before) tally.pendingKeys = undefined;
    }
  }

  result(): Coverage {
    const endpoints = [...this.tallies.values()].map((t) => {
      const documented = new Set(t.endpoint.responses.map((r) => r.status));
      return {
        endpoint: t.endpoint.id,
        method: t.endpoint.method,
        path: t.endpoint.path,
        requests: t.requests,
        no_response: t.noResponse,
        statuses: t.endpoint.responses.map((r) => ({
          status: r.status,
          spec: r.spec,
          situation: r.description,
          observed: t.statuses.get(r.status) ?? 0,
        })),
        undocumented: [...t.statuses]
          .filter(([status]) => !documented.has(status))
          .sort(([a], [b]) => a - b)
          .map(([status, observed]) => ({ status, observed })),
        fields: {
          sent: t.fields.filter((f) => t.sent.has(f)),
          never_sent: t.fields.filter((f) => !t.sent.has(f)),
          share: share(t.sent.size, t.fields.length),
        },
      };
    });
    return withTotals(this.exchanges, this.unrouted, endpoints);
  }
}

/** The run-wide counts over the per-endpoint rows: what every report's summary line says. */
function withTotals(exchanges: number, unrouted: number, endpoints: Coverage['endpoints']): Coverage {
  const statusesDocumented = endpoints.reduce((n, e) => n + e.statuses.length, 0);
  const statusesObserved = endpoints.reduce((n, e) => n + e.statuses.filter((s) => s.observed > 0).length, 0);
  const fieldsDocumented = endpoints.reduce((n, e) => n + e.fields.sent.length + e.fields.never_sent.length, 0);
  const fieldsSent = endpoints.reduce((n, e) => n + e.fields.sent.length, 0);
  return {
    exchanges,
    unrouted,
    statuses: {
      documented: statusesDocumented,
      observed: statusesObserved,
      share: share(statusesObserved, statusesDocumented),
    },
    fields: { documented: fieldsDocumented, sent: fieldsSent, share: share(fieldsSent, fieldsDocumented) },
    endpoints,
  };
}

/**
 * The coverage of CI shards of one run (merge-reports): requests and statuses add up, a field is sent
 * if any shard sent it. Endpoints are matched by id, so shards of one version merge row by row.
 */
export function mergeCoverage(parts: readonly Coverage[]): Coverage {
  const rows = new Map<string, Coverage['endpoints'][number]>();
  for (const part of parts)
    for (const e of part.endpoints) {
      const known = rows.get(e.endpoint);
      if (!known) {
        rows.set(e.endpoint, e);
        continue;
      }
      const undocumented = new Map(known.undocumented.map((u) => [u.status, u.observed]));
      for (const u of e.undocumented) undocumented.set(u.status, (undocumented.get(u.status) ?? 0) + u.observed);
      const sent = new Set([...known.fields.sent, ...e.fields.sent]);
      const all = [...known.fields.sent, ...known.fields.never_sent];
      rows.set(e.endpoint, {
        ...known,
        requests: known.requests + e.requests,
        no_response: known.no_response + e.no_response,
        statuses: known.statuses.map((s) => ({
          ...s,
          observed: s.observed + (e.statuses.find((t) => t.status === s.status)?.observed ?? 0),
        })),
        undocumented: [...undocumented].sort(([a], [b]) => a - b).map(([status, observed]) => ({ status, observed })),
        fields: {
          sent: all.filter((f) => sent.has(f)),
          never_sent: all.filter((f) => !sent.has(f)),
          share: share(sent.size, all.length),
        },
      });
    }
  return withTotals(
    parts.reduce((n, p) => n + p.exchanges, 0),
    parts.reduce((n, p) => n + p.unrouted, 0),
    [...rows.values()],
  );
}

/** The coverage of a set of exchanges all at once (a HAR file, a proxy session). */
export function coverageOf(exchanges: Iterable<Pick<Exchange, 'request' | 'response'>>): Coverage {
  const counter = new CoverageCounter();
  for (const e of exchanges) counter.observe(e);
  return counter.result();
}
