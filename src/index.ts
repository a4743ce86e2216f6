/**
 * data-import-conformance as a library: run the suite from code, or take its parts — the rules,
 * the spec model, the reference server, the report writers.
 *
 *   import { runConformance, writeReports } from 'data-import-conformance';
 *   const report = await runConformance({ baseUrl, auth: { token }, fixtures });
 */
export { runConformance, UnreachableError, RUN_DEFAULTS, type RunOptions, type RunEvent } from './conformance.js';
export { openSession, type Session } from './engine/session.js';
export { AuthError } from './auth/token.js';
export { ConfigError } from './config/errors.js';
export { loadConfig, parseConfig } from './config/load.js';
export { resolveRun } from './config/resolve.js';
export { ConformanceConfig, type ReportFormat } from './config/schema.js';
export { loadBaseline, type Baseline, type BaselineEntry } from './engine/baseline.js';
export { defineRules, sectionsOf, type Rule, type RuleInput, type Level, type Verdict } from './engine/rule.js';
export type { RuleContext } from './engine/context.js';
export { selectRules, type Selection } from './engine/select.js';
export { NEEDS, type Need } from './engine/needs.js';
export { allRules, suites } from '../suites/index.js';
export { ReportSchema, type Report, type RuleResult } from './report/schema.js';
export { mergeReports } from './report/merge.js';
export { writeReports, REPORT_FILES } from '../reports/index.js';
export { loadFixture, fixtureCatalogue } from './fixtures.js';
export { model, strictModel, type SpecModel, type EndpointId } from './spec/index.js';
export { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../reference/index.js';
export { packageVersion as version } from './package-root.js';
