/**
 * The endpoint catalogue of §4: method, path, parameters, request body and every documented
 * response. The reference server routes by it, the client calls through it, the auth rules iterate
 * it and the OpenAPI/Pact exports are generated from it.
 */
import { documented, type EndpointRow, type Responses } from './endpoint-row.js';
import * as business from './endpoints/business.js';
import * as data from './endpoints/data.js';
import * as migration from './endpoints/migration.js';
import * as status from './endpoints/status.js';
import type { defineRequests } from './requests.js';

export type { DocumentedResponse, Echo, EndpointRow } from './endpoint-row.js';

/** Every endpoint's operation id: the keys of the sections' rows (core/spec/endpoints/). */
export type EndpointId = keyof (ReturnType<typeof migration.endpoints> &
  ReturnType<typeof data.endpoints> &
  ReturnType<typeof status.endpoints> &
  ReturnType<typeof business.endpoints>);

export interface EndpointSpec extends EndpointRow {
  id: EndpointId;
}

type Requests = ReturnType<typeof defineRequests>;

export const DATA_IMPORT_PREFIX = '/v1/data-import/';

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
