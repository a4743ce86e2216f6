/**
 * Request bodies, query parameters and path parameters of every endpoint in §4, section by section:
 * each is defined in its section's file (core/spec/endpoints/) beside the endpoint's row.
 */
import type { ModelBuilder } from './builder.js';
import * as business from './endpoints/business.js';
import * as data from './endpoints/data.js';
import * as migration from './endpoints/migration.js';
import * as status from './endpoints/status.js';
import type { defineResources } from './resources.js';

type Resources = ReturnType<typeof defineResources>;

/** In the order the model has always registered the named ones (the OpenAPI components keep it). */
export function defineRequests(b: ModelBuilder, r: Resources) {
  return {
    AccountPayload: r.AccountPayload,
    ...migration.requests(b),
    ...data.requests(b, r),
    ...business.requests(b, r),
    ...status.requests(),
  };
}
