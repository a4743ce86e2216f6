/**
 * Which documented fields a payload leaves out. The suite's canonical payloads carry every field
 * the spec documents, in every element of every array: an implementation may require any of them
 * (§2.3, §4: required flags "not shown"), and a field the suite never sends is a field it never
 * checks. Fields the spec ties to a condition are required only under it.
 */
import { z } from 'zod';
import { model } from './model.js';
import { isPlainObject } from './paths.js';

type Json = Record<string, unknown>;

const isObject: (value: unknown) => value is Json = isPlainObject;

function unwrap(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
  return inner;
}

/** Fields the spec documents only under a condition, by the object schema they belong to. */
function conditional(schema: z.ZodType, value: Json): Set<string> {
  // §2.4: product_code, line_items and tax_items are "on SUPPLY_CHARGE".
  if (schema === model.Transaction && value.type !== 'SUPPLY_CHARGE')
    return new Set(['product_code', 'line_items', 'tax_items']);
  // §2.5: the bill period is for "period-based documents".
  if (schema === model.HistoricalBillingDocument && value.billing_document_type !== 'PERIOD_BASED')
    return new Set(['bill_period_from_date', 'bill_period_to_date']);
  // §2.3: the contract link is sent only when the account belongs to a business.
  if (schema === model.AccountPayload) return new Set(['business']);
  return new Set();
}

/**
 * Dot paths of the documented fields missing from `value`, read against `schema`. An empty array
 * counts as missing: §2.1 says an optional field that carries no data is omitted, so `[]` would
 * only fake completeness.
 */
export function missingDocumentedFields(value: unknown, schema: z.ZodType, path = ''): string[] {
  const at = (key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  const inner = unwrap(schema);
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${path} (empty array)`];
    return inner instanceof z.ZodArray
      ? value.flatMap((item, i) => missingDocumentedFields(item, inner.element as z.ZodType, at(i)))
      : [];
  }
  if (!(inner instanceof z.ZodObject) || !isObject(value)) return [];
  const shape = inner.shape as Record<string, z.ZodType>;
  const exempt = conditional(inner, value);
  const missing = Object.keys(shape)
    .filter((key) => !(key in value) && !exempt.has(key))
    .map(at);
  for (const [key, child] of Object.entries(value))
    if (key in shape) for (const field of missingDocumentedFields(child, shape[key], at(key))) missing.push(field);
  return missing;
}
