/**
 * Which endpoint of §4 an observed request is. The matcher lives in core/spec/route.ts, where the
 * coverage of a run (core/report/coverage.ts) reaches it too.
 */
export { type Routed, route } from '../../core/spec/route.js';
export type { EndpointId } from '../../core/spec/index.js';
