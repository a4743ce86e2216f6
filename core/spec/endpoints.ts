/**
 * The endpoint catalogue of §4: method, path, parameters, request body and every documented
 * response. The reference server routes by it, the client calls through it, the auth rules iterate
 * it and the OpenAPI/Pact exports are generated from it.
 */
import type { z } from 'zod';
import * as business from './endpoints/business.js';
import * as data from './endpoints/data.js';
import * as migration from './endpoints/migration.js';
import * as status from './endpoints/status.js';
import type { defineRequests } from './requests.js';
import type { defineResources } from './resources.js';
import type { defineResponses } from './responses.js';

/** Every endpoint's operation id: the keys of the sections' rows (core/spec/endpoints/). */
export type EndpointId = keyof (ReturnType<typeof migration.endpoints> &
  ReturnType<typeof data.endpoints> &
  ReturnType<typeof status.endpoints> &
  ReturnType<typeof business.endpoints>);

/** A documented response. `body` is a schema, `empty` (§4.2 "empty body") or `not shown`. */
export interface DocumentedResponse {
  status: number;
  spec: string;
  description: string;
  body: z.ZodType | 'empty' | 'not shown';
  /** Where this answer hands back what was sent (core/engine/echo.ts). */
  echoes?: Echo;
}

/**
 * An answer that hands back what was sent: the request's `from` (a dot path, `[]` for every item,
 * `''` the whole body) comes back as the body, or — `itemAt` — at that field of each item of a result
 * list; `fields` when only some of each item's fields come back (§4.2 notes: `{created_at, body,
 * status}`). `strength` is `stated` where the spec says the body is what was sent, `reading` where
 * it names the echo without showing its content (`why` says so).
 */
export interface Echo {
  from: string;
  itemAt?: string;
  fields?: readonly string[];
  strength: 'stated' | 'reading';
  why?: string;
  /** Documented rules that change a value sent (§4.2 transactions: forcing moves the date). */
  changes?: readonly { field: string; when: string }[];
}

/** An endpoint as its section's file states it: everything but its id, which is the row's key. */
export interface EndpointRow {
  method: 'GET' | 'POST';
  /**
   * Whether a successful request keeps what it is sent (§1, §4): staging and every "create". Validate
   * keeps nothing, process builds the account from what was staged, and reads keep nothing.
   */
  stores: boolean;
  /** The endpoint in words, for causes and messages ("pending listing not implemented (501)"). */
  words: string;
  /**
   * Whether the request looks up something that may not exist (an account, a business), so that a
   * 404 may be §7.2's "not found". Validate checks a payload, stage creates or replaces staged data
   * (its refusals are 400), the listings list a supplier's records, business creation creates: a 404
   * to those, naming a supplier that exists, can only mean the path is not there.
   */
  looksUp: boolean;
  /** Path template under `{base_url}`, with `{name}` path parameters. */
  path: string;
  spec: string;
  title: string;
  pathParams?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  responses: DocumentedResponse[];
}

export interface EndpointSpec extends EndpointRow {
  id: EndpointId;
}

export type Resources = ReturnType<typeof defineResources>;
export type Requests = ReturnType<typeof defineRequests>;
export type Responses = ReturnType<typeof defineResponses>;

export const DATA_IMPORT_PREFIX = '/v1/data-import/';

/** The documented answers every section's rows share (§7.1, §5.3, §7.2, the vendor's two). */
function documented(s: Responses) {
  const validationError = (spec: string, description = 'validation error (§7.1 body)'): DocumentedResponse => ({
    status: 400,
    spec,
    description,
    body: s.ValidationErrorBody,
  });
  const unauthorized: DocumentedResponse = {
    status: 401,
    spec: '§5.3, §7.2',
    description: 'missing or invalid token',
    body: 'not shown',
  };
  const notFound = (spec: string, description: string): DocumentedResponse => ({
    status: 404,
    spec,
    description,
    body: 'not shown',
  });
  const vendorResponses = (spec: string): DocumentedResponse[] => [
    {
      status: 400,
      spec,
      description: 'validation error, or persistent trouble reaching the upstream payment vendor (not retried as is)',
      body: 'not shown',
    },
    {
      status: 500,
      spec,
      description: 'intermittent trouble reaching the upstream payment vendor (retried as is)',
      body: 'not shown',
    },
  ];
  return { validationError, unauthorized, notFound, vendorResponses };
}

export type Documented = ReturnType<typeof documented>;

/** The catalogue, section after section (§4.1, §4.2, §4.3, §4.4), each row given its key as id. */
export function defineEndpoints(q: Requests, s: Responses): Record<EndpointId, EndpointSpec> {
  const d = documented(s);
  const rows: Record<EndpointId, EndpointRow> = {
    ...migration.endpoints(q, s, d),
    ...data.endpoints(q, s, d),
    ...status.endpoints(q, s, d),
    ...business.endpoints(q, s, d),
  };
  return Object.fromEntries(Object.entries(rows).map(([id, row]) => [id, { id, ...row }])) as Record<
    EndpointId,
    EndpointSpec
  >;
}

/**
 * An endpoint's one name wherever a rule id, a fault id or a report names it: its operation id in
 * kebab case (createNotes → create-notes), so an endpoint added to the model is named the day it is
 * added, the same way by every family.
 */
export const endpointSlug = (id: string): string => id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Fills a path template; every parameter is percent-encoded as one path segment. */
export function endpointPath(endpoint: Pick<EndpointSpec, 'path'>, params: Record<string, string> = {}): string {
  return endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${endpoint.path}`);
    return encodeURIComponent(value);
  });
}
