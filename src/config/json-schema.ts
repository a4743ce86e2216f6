/** JSON Schemas generated from the zod schemas: the config (for editors) and report.json (for consumers). */
import { z } from 'zod';
import { ReportSchema } from '../report/schema.js';
import { ConformanceConfig } from './schema.js';

export function configJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ConformanceConfig, { io: 'input', target: 'draft-7' }),
    title: 'conformance.config.yaml',
  };
}

export function reportJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ReportSchema, { io: 'output', target: 'draft-7' }),
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
