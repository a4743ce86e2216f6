/** JSON Schemas generated from the zod schemas: the config (for editors) and report.json (for consumers). */
import { z } from 'zod';
import { CauseSchema, ExchangeSchema, ReportSchema } from './schema.js';
import { CounterexampleSchema, FailureSchema } from '../engine/result.js';
import { ConformanceConfig } from '../config/schema.js';

export function configJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ConformanceConfig, { io: 'input', target: 'draft-7' }),
    title: 'conformance.config.yaml',
  };
}

/**
 * The parts report.json repeats, named once under `definitions` (a rule result has one member per
 * verdict, and each would otherwise spell its transcript out again).
 */
function reportDefinitions() {
  const registry = z.registry<{ id: string }>();
  registry.add(ExchangeSchema, { id: 'Exchange' });
  registry.add(FailureSchema, { id: 'Failure' });
  registry.add(CounterexampleSchema, { id: 'Counterexample' });
  registry.add(CauseSchema, { id: 'Cause' });
  return registry;
}

export function reportJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ReportSchema, { io: 'output', target: 'draft-7', metadata: reportDefinitions() }),
    title: 'report.json of the data-import conformance suite',
  };
}

/** The files under schema/, as they must read. */
export function schemaFiles(): Record<string, string> {
  return {
    'conformance.config.schema.json': `${JSON.stringify(configJsonSchema(), null, 2)}\n`,
    'report.schema.json': `${JSON.stringify(reportJsonSchema(), null, 2)}\n`,
  };
}
