/**
 * The entry point that hands the rules in and builds the report: the engine runs whatever rules it
 * is given, knows no suite and returns the run's record; the report is built from that record
 * here. The CLI, the library and the mutation run all start here, with every suite by default.
 */
import { allRules } from '../suites/index.js';
import { type RunOptions, type WithRecord, runRules } from './engine/run.js';
import { buildReport } from './report/build.js';
import type { Report } from './report/schema.js';

export { RUN_DEFAULTS, UnreachableError, type RunEvent, type RunOptions } from './engine/run.js';

/** What runConformance attaches to an UnreachableError or AuthError: the report of the aborted run. */
export type WithReport<E extends Error> = E & { report?: Report };

/** Aims the rules (every suite unless `options.rules` says otherwise) at one implementation. */
export async function runConformance(options: RunOptions = {}): Promise<Report> {
  try {
    return buildReport(await runRules(options.rules ?? allRules, options));
  } catch (error) {
    const record = (error as WithRecord<Error>)?.record;
    if (record) (error as WithReport<Error>).report = buildReport(record);
    throw error;
  }
}
