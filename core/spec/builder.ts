/**
 * The one place presence turns into zod optionality. Every resource is written once as a function
 * of a builder; calling it with each mode gives the `spec` model (documented facts only) and the
 * `strict` model (the reference server's reading) from the same definition.
 */
import { z } from 'zod';
import type { ModelMode, Presence } from './meta.js';

export type ObjectMeta = {
  /** Component name for exports (OpenAPI, JSON Schema); registered in the `spec` mode only. */
  id?: string;
  spec: string;
  description?: string;
};

export interface ModelBuilder {
  readonly mode: ModelMode;
  /** A field the spec makes required: a payload without it must be refused. */
  field<T extends z.ZodType>(schema: T, presence: 'required', why?: string): T;
  /**
   * Any other field. Typed optional in both modes: in `strict` mode an `expected` field is
   * enforced at run time, but its TypeScript type stays that of the documented model.
   */
  field<T extends z.ZodType>(schema: T, presence: Exclude<Presence, 'required'>, why?: string): z.ZodOptional<T>;
  /** A request object: only documented fields may be sent (§2.1), so unknown keys are refused. */
  request<S extends z.core.$ZodLooseShape>(meta: ObjectMeta, shape: S): z.ZodObject<S, z.core.$strict>;
  /** A response object: the interface grows (§9.2), so unknown keys are allowed. */
  response<S extends z.core.$ZodLooseShape>(meta: ObjectMeta, shape: S): z.ZodObject<S, z.core.$loose>;
}

export function createBuilder(mode: ModelMode): ModelBuilder {
  // zod's global registry keys components by id, so only one of the two models may register them.
  const objectMeta = (meta: ObjectMeta): ObjectMeta =>
    mode === 'spec' ? meta : { spec: meta.spec, description: meta.description };
  return {
    mode,
    field(schema: z.ZodType, presence: Presence, why?: string) {
      const meta = why ? { presence, why } : { presence };
      const enforced = presence === 'required' || (mode === 'strict' && presence === 'expected');
      return (enforced ? schema : schema.optional()).meta(meta);
    },
    request(meta: ObjectMeta, shape: z.core.$ZodLooseShape) {
      return z.strictObject(shape).meta(objectMeta(meta));
    },
    response(meta: ObjectMeta, shape: z.core.$ZodLooseShape) {
      return z.looseObject(shape).meta(objectMeta(meta));
    },
  } as unknown as ModelBuilder;
}
