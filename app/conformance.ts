/**
 * The entry point that hands the rules in and builds the report: the engine runs whatever rules it
 * is given, knows no suite and returns the run's record; the report is built from that record
 * here. The CLI, the library and the mutation run all start here, with every suite by default.
 */
import type { RunOptions } from '../core/engine/options.js';
import { type WithRecord, manyCases, runRules } from '../core/engine/run.js';
import { CATALOGUE } from '../core/engine/drivers.js';
import { relationCoverage } from '../core/engine/relations.js';
import { type Session, openSession as openEngineSession } from '../core/engine/session.js';
import { buildReport } from '../core/report/build.js';
import { CoverageCounter } from '../core/report/coverage.js';
import type { Report } from '../core/report/schema.js';
import { allRules, relationKinds } from '../suites/index.js';
import { startEmbeddedTarget } from './embedded.js';

export {
  RUN_DEFAULTS,
  UnreachableError,
  manyCases,
  type RunEvent,
  type RunOptions,
} from '../core/engine/run.js';

/** What runConformance attaches to an UnreachableError or AuthError: the report of the aborted run. */
export type WithReport<E extends Error> = E & { report?: Report };

/** The options with the reference server as the target when no base URL is given. */
const withEmbedded = (options: RunOptions): RunOptions => ({
  startEmbedded: () => startEmbeddedTarget({ ownThread: !manyCases(options.numRuns) }),
  ...options,
});

/**
 * Aims the rules (every suite unless `options.rules` says otherwise) at one implementation. The
 * report's status and field coverage is counted from every exchange as it completes
 * (core/report/coverage.ts), beside whatever else observes them (`options.onExchange`: a HAR file).
 */
export async function runConformance(options: RunOptions = {}): Promise<Report> {
  const coverage = new CoverageCounter();
  const observe = options.onExchange;
  const observed: RunOptions = {
    ...options,
    onExchange: (exchange, startedAt, origin, sender) => {
      coverage.observe(exchange);
      observe?.(exchange, startedAt, origin, sender);
    },
  };
  // Relation coverage is the suite's, whatever the run selected (core/engine/relations.ts).
  const relations = relationCoverage(CATALOGUE, options.rules ?? allRules, relationKinds);
  try {
    return {
      ...buildReport(await runRules(options.rules ?? allRules, withEmbedded(observed))),
      coverage: coverage.result(),
      relations,
    };
  } catch (error) {
    const record = (error as WithRecord<Error>)?.record;
    if (record)
      (error as WithReport<Error>).report = { ...buildReport(record), coverage: coverage.result(), relations };
    throw error;
  }
}

/** Opens a session to run rules one at a time; the reference server is the target when no base URL is given. */
export function openSession(options: RunOptions = {}): Promise<Session> {
  return openEngineSession(withEmbedded(options));
}
