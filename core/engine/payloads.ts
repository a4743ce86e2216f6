/**
 * The canonical payloads with every identifier replaced by a namespaced one (docs/design.md §6), as
 * the runner sends them when no template is configured; pact states compare against these.
 */
import type { AccountPayload, BusinessRequest } from '../spec/index.js';
import type { Ids } from './ids.js';
import { PayloadTemplates } from './templates.js';

const canonical = new PayloadTemplates();

/** The canonical account for `supplier`, every identifier fresh; no business link. */
export function namespacedAccount(ids: Ids, supplier: string): AccountPayload {
  return canonical.account(ids, supplier);
}

/** The canonical business with `contracts` contracts, every identifier fresh. */
export function namespacedBusiness(ids: Ids, supplier: string, contracts = 2): BusinessRequest {
  return canonical.business(ids, supplier, contracts);
}
