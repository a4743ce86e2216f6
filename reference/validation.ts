/**
 * Turns zod issues into the §7.1 validation error body: `{detail, code, errors: [{detail, code,
 * attr}]}` with `attr` a dot-delimited path whose numeric parts are zero-based indexes.
 */
import type { z } from 'zod';
import { reply, type Reply } from './reply.js';

export interface ErrorItem {
  detail: string;
  code: string;
  attr: string;
}

export type Validated<T> = { ok: true; data: T } | { ok: false; errors: ErrorItem[] };

/** §7.1: errors about the request as a whole (no field path) go under `non_field_errors`. */
export const NON_FIELD_ERRORS = 'non_field_errors';

export const attrOf = (path: readonly PropertyKey[]): string =>
  path.length === 0 ? NON_FIELD_ERRORS : path.map((part) => String(part)).join('.');

const formats: Record<string, { code: string; what: string }> = {
  date: { code: 'invalid_date', what: 'date (YYYY-MM-DD)' },
  datetime: { code: 'invalid_datetime', what: 'datetime (YYYY-MM-DDTHH:MM:SSZ)' },
  email: { code: 'invalid_email', what: 'e-mail address' },
  phone: { code: 'invalid_phone_number', what: 'phone number' },
  decimal: { code: 'invalid_decimal', what: 'decimal number' },
};

function describe(issue: z.core.$ZodIssue): Omit<ErrorItem, 'attr'> {
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return { code: 'required', detail: 'This field is required.' };
      if (input === null) return { code: 'null', detail: 'This field may not be null.' };
      if (issue.expected === 'array') return { code: 'not_a_list', detail: 'Expected a list of items.' };
      if (issue.expected === 'int') return { code: 'invalid_integer', detail: 'A valid integer is required.' };
      return { code: 'invalid_type', detail: `Expected ${issue.expected}.` };
    case 'invalid_value':
      if (input === undefined) return { code: 'required', detail: 'This field is required.' };
      return { code: 'invalid_choice', detail: `${JSON.stringify(input)} is not a valid choice.` };
    case 'invalid_format':
    {
      const format = formats[issue.format] ?? { code: 'invalid', what: 'value' };
      return { code: format.code, detail: `Enter a valid ${format.what}.` };
    }
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return { code: 'blank', detail: 'This field may not be blank.' };
      return { code: 'min_value', detail: `Ensure this value is at least ${String(issue.minimum)}.` };
    case 'too_big':
      return { code: 'max_value', detail: `Ensure this value is at most ${String(issue.maximum)}.` };
    case 'custom': {
      const code = typeof issue.params?.code === 'string' ? issue.params.code : 'invalid';
      return { code, detail: issue.message };
    }
    default:
      return { code: 'invalid', detail: 'Invalid value.' };
  }
}

export function issuesToErrors(issues: readonly z.core.$ZodIssue[]): ErrorItem[] {
  const errors: ErrorItem[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      // §2.1: only documented fields may be sent; each unknown key is its own error.
      for (const key of issue.keys) {
        errors.push({ attr: attrOf([...issue.path, key]), code: 'unknown_field', detail: `Unknown field: ${key}.` });
      }
      continue;
    }
    errors.push({ attr: attrOf(issue.path), ...describe(issue) });
  }
  return errors;
}

export function validate<S extends z.ZodType>(schema: S, value: unknown): Validated<z.output<S>> {
  const result = schema.safeParse(value, { reportInput: true });
  return result.success ? { ok: true, data: result.data } : { ok: false, errors: issuesToErrors(result.error.issues) };
}

/** Top-level `{detail, code}` of a validation failure (§7.1 gives `account_failed_validation`). */
export interface FailureSummary {
  code: string;
  detail: string;
}

export const ACCOUNT_FAILED_VALIDATION: FailureSummary = { code: 'account_failed_validation', detail: 'Account failed validation.' };
export const INVALID_INPUT: FailureSummary = { code: 'invalid_input', detail: 'Invalid input.' };

export function validationError(errors: ErrorItem[], summary: FailureSummary = INVALID_INPUT): Reply {
  return reply(400, { detail: summary.detail, code: summary.code, errors });
}

/** §7.1: agreements, supply points and some other endpoints report everything under `non_field_errors`. */
export function asNonFieldErrors(errors: ErrorItem[]): ErrorItem[] {
  return errors.map((e) => ({
    attr: NON_FIELD_ERRORS,
    code: e.code,
    detail: e.attr === NON_FIELD_ERRORS ? e.detail : `${e.attr}: ${e.detail}`,
  }));
}
