/**
 * Reading the spec model at run time: which fields an object has, how present each must be, and
 * what kind of value it holds. Generators and defects take every structural fact from here.
 */
import { z } from 'zod';
import type { Presence } from '../core/spec/index.js';
import { remembered } from './remembered.js';

export interface FieldSchema {
  presence: Presence | undefined;
  /** The field's value schema, without the optional wrapper the builder adds. */
  schema: z.ZodType;
}

/** The builder puts the presence on the field's outer schema (an optional wrapper in `spec` mode). */
function fieldOf(schema: z.ZodType): FieldSchema {
  const presence = schema.meta()?.presence;
  return { presence, schema: schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema };
}

export const fieldsOf = remembered((schema: z.ZodObject): readonly [string, FieldSchema][] =>
  Object.entries(schema.shape).map(([key, field]) => [key, fieldOf(field as z.ZodType)]),
);

/** Fields whose absence the spec allows or leaves open: the only ones a sparse payload leaves out. */
export const isOmittable = (presence: Presence | undefined): boolean =>
  presence === 'optional' || presence === 'unspecified';

/** The `§…` section an object schema comes from; resources are recognised by it. */
export const specOf = remembered((schema: z.ZodType): string | undefined => schema.meta()?.spec);

/** Values the spec shows for an open string field. */
export const seenOf = remembered((schema: z.ZodType): readonly string[] | undefined => schema.meta()?.seen);

/** `date`, `datetime`, `email`, `phone`, `decimal` for strings; `safeint` for integers. */
export function formatOf(schema: z.ZodType): string | undefined {
  const format = (schema.def as { format?: unknown }).format;
  return typeof format === 'string' ? format : undefined;
}

export { isPlainObject } from '../core/spec/paths.js';
