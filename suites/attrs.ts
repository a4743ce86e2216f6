/**
 * Where a §7.1 error may be reported. "Each `errors` item has an `attr`, a dot-delimited path to
 * the offending input" — but "the agreements, supply-points and some other create endpoints report
 * validation errors under `non_field_errors`" (§7.1), and the spec does not say which others. So on
 * any endpoint but validate, `non_field_errors` is a true report of any defect; only validate
 * (never a create endpoint) must point at the field itself.
 */
import type { EndpointId } from '../core/spec/index.js';
import { pointsAt } from '../core/spec/paths.js';

import { NON_FIELD_ERRORS, mayUseNonFieldErrors } from '../core/spec/non-field-errors.js';

export { NON_FIELD_ERRORS, mayUseNonFieldErrors };

/** Whether `attrs` report the defect at `path` (or inside it, when `objectLevel`) as §7.1 allows on `endpoint`. */
export function reportsDefectAt(
  endpoint: EndpointId,
  attrs: readonly string[],
  path: string,
  objectLevel = false,
): boolean {
  return attrs.some(
    (a) => (objectLevel ? pointsAt(a, path) : a === path) || (a === NON_FIELD_ERRORS && mayUseNonFieldErrors(endpoint)),
  );
}

/** How a failure message names what was expected. */
export function expectedAttr(endpoint: EndpointId, path: string): string {
  return mayUseNonFieldErrors(endpoint) ? `${path} (or ${NON_FIELD_ERRORS}, §7.1)` : path;
}

/**
 * §4.1: stage is "validated by the same rules as the validate endpoint first". Stage reports the
 * same attrs as validate, or — being a create endpoint (§7.1) — reports them under non_field_errors.
 */
export function sameDefectsAsValidate(stageAttrs: readonly string[], validateAttrs: readonly string[]): boolean {
  const norm = (xs: readonly string[]) => [...new Set(xs)].sort();
  if (JSON.stringify(norm(stageAttrs)) === JSON.stringify(norm(validateAttrs))) return true;
  return stageAttrs.length > 0 && stageAttrs.every((a) => a === NON_FIELD_ERRORS);
}
