/**
 * Which endpoints the fault catalogue breaks by name. A fault that wraps every endpoint (a §7.1 body
 * rewritten wherever it appears) proves the suite reads that body, not that anything about one
 * endpoint is judged: an endpoint counts only when some fault wraps it among fewer than all. So an
 * endpoint added without its own fault is named, however many generic wrappers it inherits. Nor
 * does a fault of a family generated for every endpoint (families.ts): it comes with the model.
 */
import type { FaultDefinition } from './types.js';

/** The endpoints of `endpoints` that no fault names by itself (its `around` wrapping fewer than all of them). */
export function endpointsWithoutOwnFault(
  endpoints: readonly string[],
  faults: readonly Pick<FaultDefinition, 'create' | 'family'>[],
): string[] {
  const named = new Set<string>();
  for (const f of faults) {
    if (f.family) continue;
    const wrapped = Object.keys(f.create().around ?? {});
    if (endpoints.every((e) => wrapped.includes(e))) continue;
    for (const e of wrapped) named.add(e);
  }
  return endpoints.filter((e) => !named.has(e));
}
