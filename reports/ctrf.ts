/**
 * ctrf.json: the Common Test Report Format (https://ctrf.io), for dashboards and CI plugins that
 * read it. Verdicts map one to one — pass → passed, fail → failed, skip → skipped, error → other —
 * so the counts equal report.summary; a baselined failure stays `failed` and says so in `extra`,
 * since CTRF has no status for an accepted failure and report.summary counts it as a failure too.
 */
import { isFailing } from '../core/engine/verdict.js';
import type { Report, RuleResult } from '../core/report/schema.js';
import { bySuite, failureText, oneLine, skipMessage } from './plain-text.js';

/** The CTRF specification version this document follows: the reference implementation's current one. */
const CTRF_SPEC_VERSION = '0.0.0';

type Status = 'passed' | 'failed' | 'skipped' | 'other';

const STATUS: Record<RuleResult['verdict'], Status> = {
  pass: 'passed',
  fail: 'failed',
  skip: 'skipped',
  error: 'other',
};

function message(rule: RuleResult): string | undefined {
  if (rule.verdict === 'skip') return skipMessage(rule);
  const text = rule.reason;
  return text ? oneLine(text) : undefined;
}

function test(rule: RuleResult, suite: string, baseUrl: string) {
  const failing = isFailing(rule.verdict);
  const msg = message(rule);
  const extra = {
    ...(rule.expected_failure ? { expected_failure: rule.expected_failure } : {}),
    ...(rule.failure ? { failure: rule.failure } : {}),
    ...(rule.counterexample ? { counterexample: rule.counterexample } : {}),
    ...(rule.replay ? { replay: rule.replay } : {}),
    ...(rule.skip_key ? { skip_key: rule.skip_key } : {}),
    // The shared cause a skip stands on, e.g. not-implemented.createNotes (report.json's causes).
    ...(rule.cause ? { cause: rule.cause } : {}),
    ...(rule.error_kind ? { error_kind: rule.error_kind } : {}),
    ...(rule.observations.length ? { observations: rule.observations } : {}),
    ...(rule.flaky !== undefined ? { flaky_first_run: rule.flaky } : {}),
  };
  return {
    testId: rule.id,
    name: `${rule.id}: ${rule.title}`,
    status: STATUS[rule.verdict],
    duration: Math.round(rule.duration_ms),
    ...(msg ? { message: msg } : {}),
    ...(failing ? { trace: failureText(rule, baseUrl) } : {}),
    rawStatus: rule.verdict,
    // CTRF's own fields for a test run again (--retries), and one that passed only so: run again
    // whole (attempts), or with a probe or generated case tried again in place (flaky alone).
    ...(rule.attempts ? { retries: rule.attempts - 1 } : {}),
    ...(rule.attempts || rule.flaky !== undefined
      ? { flaky: rule.verdict === 'pass' && rule.flaky !== undefined }
      : {}),
    suite: [suite],
    tags: rule.tags,
    labels: {
      rule: rule.id,
      level: rule.level,
      spec: rule.spec,
      property: rule.property,
      // CTRF label arrays must not be empty.
      ...(rule.endpoints.length ? { endpoints: rule.endpoints } : {}),
    },
    type: 'conformance',
    ...(Object.keys(extra).length ? { extra } : {}),
  };
}

export function renderCtrf(report: Report): object {
  const { run, summary, target } = report;
  const suites = bySuite(report);
  const start = Date.parse(run.started_at);
  const stop = Date.parse(run.finished_at);
  return {
    reportFormat: 'CTRF',
    specVersion: CTRF_SPEC_VERSION,
    runId: run.id,
    timestamp: run.finished_at,
    generatedBy: `${report.tool.name} ${report.tool.version}`,
    results: {
      tool: { name: report.tool.name, version: report.tool.version },
      summary: {
        tests: summary.total,
        passed: summary.counts.pass,
        failed: summary.counts.fail,
        pending: 0,
        skipped: summary.counts.skip,
        other: summary.counts.error,
        suites: suites.length,
        start,
        stop,
        duration: stop - start,
        extra: {
          conformant: summary.conformant,
          incomplete: summary.incomplete,
          unjudged_must: summary.unjudged_must,
          missing_keys: summary.missing_keys,
          accepted_skips: summary.accepted_skips.length,
          exit_code: summary.exit_code,
          must_failures: summary.must_failures,
          should_failures: summary.should_failures,
          expected_failures: summary.expected_failures,
          by_level: summary.by_level,
        },
      },
      tests: suites.flatMap(([suite, rules]) => rules.map((rule) => test(rule, suite, report.target.base_url))),
      environment: {
        reportName: `Conformance of ${target.base_url}`,
        testEnvironment: target.base_url,
        healthy: summary.conformant,
        extra: {
          run_id: run.id,
          seed: run.seed,
          target: target.base_url,
          embedded: target.embedded,
          auth: target.auth,
          strict: run.strict,
          num_runs: run.num_runs,
          concurrency: run.concurrency,
          timeout_ms: run.timeout_ms,
          node: run.node,
          selection: run.selection,
          bailed: run.bailed,
        },
      },
      extra: {
        sections: report.sections,
        capabilities: report.capabilities,
        ...(report.baseline ? { baseline: report.baseline } : {}),
        created_identifiers: report.created_identifiers,
        http: report.http,
      },
    },
  };
}
