/**
 * §7.1: "The agreements, supply-points and some other create endpoints report validation errors
 * under `non_field_errors`" — which others is not shown, so any endpoint but validate (never a
 * create endpoint) may. Here because the rules (suites/attrs.ts) and the engine's judgement of a
 * limit's refusal (core/engine/limits.ts) both read it.
 */
import type { EndpointId } from './endpoints.js';

export const NON_FIELD_ERRORS = 'non_field_errors';

/** Endpoints that §7.1 lets report errors under non_field_errors ("some other create endpoints"). */
export function mayUseNonFieldErrors(endpoint: EndpointId): boolean {
  return endpoint !== 'validateAccount';
}
