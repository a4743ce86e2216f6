/**
 * Turns zod issues into the §7.1 validation error body: `{detail, code, errors: [{detail, code,
 * attr}]}` with `attr` a dot-delimited path whose numeric parts are zero-based indexes.
 */
import { z as zod, type z } from 'zod';
import { reply, type Reply } from './reply.js';
import { dotPath } from '../core/spec/paths.js';

export interface ErrorItem {
  detail: string;
  code: string;
  attr: string;
}

export type Validated<T> = { ok: true; data: T } | { ok: false; errors: ErrorItem[] };

/** §7.1: errors about the request as a whole (no field path) go under `non_field_errors`. */
export const NON_FIELD_ERRORS = 'non_field_errors';

export const attrOf = (path: readonly PropertyKey[]): string => dotPath(path, NON_FIELD_ERRORS);

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
    case 'invalid_format': {
      const format = formats[issue.format] ?? { code: 'invalid', what: 'value' };
      return { code: format.code, detail: `Enter a valid ${format.what}.` };
    }
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1)
        return { code: 'blank', detail: 'This field may not be blank.' };
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

/**
 * An error body lists at most this many errors. A request with millions of wrong items would
 * otherwise get an answer hundreds of megabytes long, built at the cost of every other client.
 */
export const MAX_LISTED_ERRORS = 100;

/** Arrays longer than this are checked item by item before the whole body is (see `bulkErrors`). */
export const BULK_ARRAY_ITEMS = 1000;

/** The §7.1 item that says the list is cut short: about the request as a whole, so `non_field_errors`. */
export const TOO_MANY_ERRORS = 'too_many_errors';

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { def: Def }).def;

/** Looks through optional, nullable, default and pipe wrappers to the schema that checks the value. */
function unwrap(schema: z.ZodType): z.ZodType {
  let inner = schema;
  for (let def = defOf(inner); ; def = defOf(inner)) {
    if (def.innerType) inner = def.innerType;
    else if (def.type === 'pipe' && def.in) inner = def.in;
    else return inner;
  }
}

/** A long array that held no wrong item, and the items as validated. */
interface CleanArray {
  /** Object keys from the body down to the array; null when the array sits inside another array. */
  keys: string[] | null;
  items: unknown[];
}

type BulkCheck = { stopped: ErrorItem[] } | { stopped: null; clean: CleanArray[]; wrong: boolean };

const arraySchemas = new WeakMap<z.ZodType, z.ZodType>();
/** `z.array(element)`, built once per element schema. */
function arrayOf(element: z.ZodType): z.ZodType {
  let schema = arraySchemas.get(element);
  if (!schema) arraySchemas.set(element, (schema = zod.array(element)));
  return schema;
}

/** Whether an array longer than BULK_ARRAY_ITEMS sits anywhere in `value` (bodies are depth-limited before they get here). */
function hasLongArray(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    if (value.length > BULK_ARRAY_ITEMS) return true;
    for (const item of value) if (hasLongArray(item)) return true;
    return false;
  }
  for (const key in value) if (hasLongArray((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * Long arrays are checked a slice at a time, stopping once `MAX_LISTED_ERRORS` errors are found.
 * zod itself would first collect one issue per wrong item — millions for a 10 MB body, and a
 * stack overflow when it spreads them into the parent's list — before any could be cut.
 */
function bulkCheck(schema: z.ZodType, value: unknown, keep: (e: ErrorItem) => boolean): BulkCheck {
  // Most bodies hold no long array: one look without building paths says so.
  if (!hasLongArray(value)) return { stopped: null, clean: [], wrong: false };
  const found: ErrorItem[] = [];
  const clean: CleanArray[] = [];
  const walk = (node: z.ZodType, input: unknown, path: PropertyKey[], keys: string[] | null): boolean => {
    const def = defOf(unwrap(node));
    if (def.type === 'object' && def.shape && input !== null && typeof input === 'object' && !Array.isArray(input)) {
      for (const [key, field] of Object.entries(def.shape)) {
        if (
          Object.hasOwn(input, key) &&
          walk(field, (input as Record<string, unknown>)[key], [...path, key], keys && [...keys, key])
        )
          return true;
      }
    } else if (def.type === 'array' && def.element && Array.isArray(input)) {
      if (input.length <= BULK_ARRAY_ITEMS) {
        for (let i = 0; i < input.length; i++) if (walk(def.element, input[i], [...path, i], null)) return true;
        return false;
      }
      const items: unknown[] = [];
      const before = found.length;
      for (let start = 0; start < input.length; start += BULK_ARRAY_ITEMS) {
        const result = arrayOf(def.element).safeParse(input.slice(start, start + BULK_ARRAY_ITEMS), {
          reportInput: true,
        });
        if (result.success) {
          for (const item of result.data as unknown[]) items.push(item);
          continue;
        }
        const issues = result.error.issues.map((issue) => ({
          ...issue,
          path: [...path, start + Number(issue.path[0]), ...issue.path.slice(1)],
        }));
        for (const error of issuesToErrors(issues)) if (keep(error)) found.push(error);
        if (found.length >= MAX_LISTED_ERRORS) return true;
      }
      const limited = (defOf(unwrap(node)) as { checks?: { _zod: { def: { check: string } } }[] }).checks?.some(
        (c) => c._zod.def.check === 'max_length',
      );
      if (found.length === before && !limited) clean.push({ keys, items });
    }
    return false;
  };
  if (walk(schema, value, [], [])) return { stopped: found.slice(0, MAX_LISTED_ERRORS) };
  return { stopped: null, clean, wrong: found.length > 0 };
}

/** A copy of `value` with `replace` applied to the array at `keys`, copying only the objects on the way. */
function withArrayAt(value: unknown, keys: string[], replace: (items: unknown[]) => unknown[]): unknown {
  if (keys.length === 0) return Array.isArray(value) ? replace(value) : value;
  if (value === null || typeof value !== 'object') return value;
  const [key, ...rest] = keys;
  return {
    ...(value as Record<string, unknown>),
    [key]: withArrayAt((value as Record<string, unknown>)[key], rest, replace),
  };
}

/**
 * Validates `value`; `keep` says which errors count (a server that ignores some kinds of error
 * must not stop early on them). A long array whose slices all passed is not validated a second
 * time: the rest of the body is, with the array cut to its first slice, and the array's validated
 * items are put back into the result.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  keep: (e: ErrorItem) => boolean = () => true,
): Validated<z.output<S>> {
  const bulk = bulkCheck(schema, value, keep);
  if (bulk.stopped) return { ok: false, errors: [...bulk.stopped, stoppedAt(MAX_LISTED_ERRORS)] };
  const shortcut = !bulk.wrong ? bulk.clean.filter((c): c is CleanArray & { keys: string[] } => c.keys !== null) : [];
  let input = value;
  for (const c of shortcut) input = withArrayAt(input, c.keys, (items) => items.slice(0, BULK_ARRAY_ITEMS));
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) return { ok: false, errors: issuesToErrors(result.error.issues) };
  let data: unknown = result.data;
  for (const c of shortcut) data = withArrayAt(data, c.keys, () => c.items);
  return { ok: true, data: data as z.output<S> };
}

const stoppedAt = (n: number): ErrorItem => ({
  attr: NON_FIELD_ERRORS,
  code: TOO_MANY_ERRORS,
  detail: `Validation stopped after ${n} errors; fix these and send the request again.`,
});

/** At most `MAX_LISTED_ERRORS` errors, and one more item saying how many there were, when cut. */
export function capErrors(errors: ErrorItem[]): ErrorItem[] {
  const stopped = errors.some((e) => e.code === TOO_MANY_ERRORS);
  if (errors.length <= MAX_LISTED_ERRORS + (stopped ? 1 : 0)) return errors;
  const listed = errors.slice(0, MAX_LISTED_ERRORS);
  return [
    ...listed,
    stopped
      ? stoppedAt(MAX_LISTED_ERRORS)
      : {
          attr: NON_FIELD_ERRORS,
          code: TOO_MANY_ERRORS,
          detail: `${errors.length} errors in all; the first ${MAX_LISTED_ERRORS} are listed.`,
        },
  ];
}

/** Top-level `{detail, code}` of a validation failure (§7.1 gives `account_failed_validation`). */
export interface FailureSummary {
  code: string;
  detail: string;
}

export const ACCOUNT_FAILED_VALIDATION: FailureSummary = {
  code: 'account_failed_validation',
  detail: 'Account failed validation.',
};
export const INVALID_INPUT: FailureSummary = { code: 'invalid_input', detail: 'Invalid input.' };

/** The §7.1 body; a long error list is cut to its first `MAX_LISTED_ERRORS` items plus one that says so. */
export function validationError(errors: ErrorItem[], summary: FailureSummary = INVALID_INPUT): Reply {
  return reply(400, { detail: summary.detail, code: summary.code, errors: capErrors(errors) });
}

/** §7.1: agreements, supply points and some other endpoints report everything under `non_field_errors`. */
export function asNonFieldErrors(errors: ErrorItem[]): ErrorItem[] {
  return errors.map((e) => ({
    attr: NON_FIELD_ERRORS,
    code: e.code,
    detail: e.attr === NON_FIELD_ERRORS ? e.detail : `${e.attr}: ${e.detail}`,
  }));
}
