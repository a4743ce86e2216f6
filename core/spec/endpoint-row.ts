/**
 * What a section of the endpoint catalogue (core/spec/endpoints/<section>.ts) states of each of its
 * endpoints, and the documented answers the sections share. Apart from core/spec/endpoints.ts,
 * which puts the sections together, so that a section imports nothing that imports it.
 */
import type { z } from 'zod';
import type { defineResources } from './resources.js';
import type { defineResponses } from './responses.js';

export type Resources = ReturnType<typeof defineResources>;
export type Responses = ReturnType<typeof defineResponses>;

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

/** The documented answers every section's rows share (§7.1, §5.3, §7.2, the vendor's two). */
export function documented(s: Responses) {
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
