/** What the generator tests share: a faithful reference environment and a payload-with-schema walk. */
import { z } from 'zod';
import { IdRegistry, Ids } from '../../core/engine/ids.js';
import { faithfulChoices } from '../../reference/choices.js';
import { faithfulChecks } from '../../reference/checks.js';
import type { ServerEnv } from '../../reference/handlers/shared.js';
import { ReferenceStore } from '../../reference/store.js';

export const SUPPLIER = 'SUPPLIER_ONGOING';
export const KEY = { import_supplier: SUPPLIER, external_account_number: 'EXT-ELEC-0001' };

/** The reference server's state for account checks: one Ongoing supplier, no faults. */
export function referenceEnv(): ServerEnv {
  const store = new ReferenceStore();
  store.suppliers.set(SUPPLIER, { code: SUPPLIER, status: 'Ongoing', documentRoot: 'imports' });
  return { store, choices: faithfulChoices, checks: faithfulChecks, now: () => new Date() };
}

export const newIds = (runId = 'k3x9q2'): Ids => new Ids(new IdRegistry('cf', runId));

export interface Visit {
  path: readonly (string | number)[];
  /** The value schema, without the optional wrapper. */
  schema: z.ZodType;
  value: unknown;
}

/** Every value of a payload together with the model schema that describes it. */
export function walk(schema: z.ZodType, value: unknown, path: readonly (string | number)[] = []): Visit[] {
  const bare = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  const here: Visit = { path, schema: bare, value };
  if (bare instanceof z.ZodObject && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const shape = bare.shape as Record<string, z.ZodType>;
    return [
      here,
      ...Object.entries(value).flatMap(([key, child]) => (shape[key] ? walk(shape[key], child, [...path, key]) : [])),
    ];
  }
  if (bare instanceof z.ZodArray && Array.isArray(value))
    return [here, ...value.flatMap((item, i) => walk(bare.element as z.ZodType, item, [...path, i]))];
  return [here];
}

export const lastField = (path: readonly (string | number)[]): string | undefined =>
  [...path].reverse().find((part): part is string => typeof part === 'string');
