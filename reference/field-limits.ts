/**
 * Limits of what a server stores, where the spec shows none (§2.3: "validation rules of every account
 * field: not shown"; §8: "payload size limits: not shown"): text columns of so many characters,
 * integers of so many bits, so many items in a list of one request. A server option of its own
 * (`fieldLimits`), off by default, so that a profile composes it with other options: the `limited`
 * profile (profiles.ts) takes it. A value past a limit is refused like any invalid value, with a §7.1
 * error at its attr (shared.ts `checkBody`), beside the body's other errors.
 */
import { attrOf, type ErrorItem } from './validation.js';

export interface FieldLimits {
  /** Longest string of any field, in characters (code points). */
  maxStringLength?: number;
  /** Smallest and largest integer of any field. */
  integerRange?: { min: number; max: number };
  /** Most items of any list in one request. */
  maxItems?: number;
}

/** A faithful server on a common relational store: 255-character text, 32-bit integers, 100 items a list. */
export const COLUMN_LIMITS: Required<FieldLimits> = {
  maxStringLength: 255,
  integerRange: { min: -(2 ** 31), max: 2 ** 31 - 1 },
  maxItems: 100,
};

/** Bodies up to 256 KiB (the server's `maxBodyBytes`: larger ones get 413). */
export const LIMITED_BODY_BYTES = 256 * 1024;

/** Every value of `body` past `limits`, as §7.1 error items (codes as Django REST framework names them). */
export function limitErrors(body: unknown, limits: FieldLimits | undefined): ErrorItem[] {
  if (!limits) return [];
  const errors: ErrorItem[] = [];
  const walk = (value: unknown, path: (string | number)[]) => {
    if (typeof value === 'string') {
      if (limits.maxStringLength !== undefined && [...value].length > limits.maxStringLength)
        errors.push({
          attr: attrOf(path),
          code: 'max_length',
          detail: `Ensure this field has no more than ${limits.maxStringLength} characters.`,
        });
    } else if (typeof value === 'number' && Number.isInteger(value) && limits.integerRange) {
      const { min, max } = limits.integerRange;
      if (value > max)
        errors.push({ attr: attrOf(path), code: 'max_value', detail: `Ensure this value is at most ${max}.` });
      else if (value < min)
        errors.push({ attr: attrOf(path), code: 'min_value', detail: `Ensure this value is at least ${min}.` });
    } else if (Array.isArray(value)) {
      if (limits.maxItems !== undefined && value.length > limits.maxItems)
        errors.push({
          attr: attrOf(path),
          code: 'max_items',
          detail: `Ensure this list has no more than ${limits.maxItems} items.`,
        });
      else value.forEach((item, i) => walk(item, [...path, i]));
    } else if (value !== null && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) walk(item, [...path, key]);
  };
  walk(body, []);
  return errors;
}
