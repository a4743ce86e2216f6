/**
 * data-import-conformance as a library: run the suite from code, or take its parts — the rules,
 * the spec model, the reference server, the report writers.
 *
 *   import { runConformance, writeReports } from 'data-import-conformance';
 *   const report = await runConformance({ baseUrl, auth: { token }, fixtures });
 */
export { runConformance, UnreachableError, RUN_DEFAULTS, type RunOptions, type RunEvent } from './conformance.js';
export { openSession } from './conformance.js';
export type { Session } from '../core/engine/session.js';
export { AuthError } from '../core/auth/token.js';
export { ConfigError } from '../core/config/errors.js';
export { loadConfig, parseConfig } from '../core/config/load.js';
export { resolveRun } from './resolve.js';
export { ConformanceConfig, type ReportFormat } from '../core/config/schema.js';
export { loadBaseline, type Baseline, type BaselineEntry } from '../core/engine/baseline.js';
export { defineRules, sectionsOf, type Rule, type RuleInput, type Level, type Verdict } from '../core/engine/rule.js';
export type { RuleContext } from '../core/engine/context.js';
export { selectRules, type Selection } from '../core/engine/select.js';
export { NEEDS, type Need } from '../core/engine/needs.js';
export { allRules, suites } from '../suites/index.js';
export { ReportSchema, type Report, type RuleResult } from '../core/report/schema.js';
export { CoverageSchema, type Coverage } from '../core/report/coverage.js';
export { mergeReports } from '../core/report/merge.js';
export { writeReports, REPORT_FILES } from '../reports/index.js';
export { loadFixture, fixtureCatalogue } from '../core/spec/fixtures.js';
export { model, strictModel, type SpecModel, type EndpointId } from '../core/spec/index.js';
export { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../reference/index.js';
export { packageVersion as version } from '../core/spec/package-root.js';
