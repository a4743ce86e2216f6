/**
 * The entry point that hands the rules in: the engine runs whatever rules it is given and knows no
 * suite; the CLI, the library and the mutation run all start here, with every suite by default.
 */
import { allRules } from '../suites/index.js';
import { type RunOptions, runRules } from './engine/run.js';
import type { Report } from './report/schema.js';

export { RUN_DEFAULTS, UnreachableError, type RunEvent, type RunOptions, type WithReport } from './engine/run.js';

/** Aims the rules (every suite unless `options.rules` says otherwise) at one implementation. */
export function runConformance(options: RunOptions = {}): Promise<Report> {
  return runRules(options.rules ?? allRules, options);
}
