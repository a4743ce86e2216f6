/**
 * statement.json, the implementation statement of a claim: what was judged (target, suite, spec
 * text, seed, rules), what the implementation declared through the configuration and what the run
 * observed of it, and what was found (per rule and overall). Everything in it is read from the run's
 * report.json and HAR (and the configuration, secrets left out), so `verify-claim` can hold each
 * part against its source. One zod schema: the builder's type and the verifier's check of the file.
 */
import { z } from 'zod';
import { LEVELS, VERDICTS } from '../../core/engine/verdict.js';
import { Counts, type Report } from '../../core/report/schema.js';
import { REPORT_FILES } from '../../reports/index.js';
import { CLAIM_VERDICTS, verdictOf } from './verdict.js';

export const STATEMENT_FILE = 'statement.json';
export const STATEMENT_VERSION = 1;

/** Where each part of a claim sits in its directory. */
export const CLAIM_FILES = {
  statement: STATEMENT_FILE,
  reports: 'reports',
  report: 'reports/report.json',
  har: 'traffic.har',
  config: 'config.json',
  spec: 'spec/data-import-interface.md',
  badge: 'badge.svg',
} as const;

const HELD = new Set<string>([
  CLAIM_FILES.statement,
  CLAIM_FILES.har,
  CLAIM_FILES.config,
  CLAIM_FILES.spec,
  CLAIM_FILES.badge,
  'SHA256SUMS',
  ...Object.values(REPORT_FILES).map((f) => `${CLAIM_FILES.reports}/${f}`),
]);

/**
 * Whether a claim can hold `file` (relative, forward slashes): the claim's own files and the report
 * files a run writes, by name. Anything else was not written by a run — a key or a `.env` swept in
 * from the report directory — and a verifier says so without reading it.
 */
export const claimHolds = (file: string): boolean => HELD.has(file);

const RuleVerdict = z.object({
  id: z.string(),
  level: z.enum(LEVELS),
  verdict: z.enum(VERDICTS),
  reason: z.string().optional(),
  excused_by_baseline: z.literal(true).optional(),
});

export const StatementSchema = z.strictObject({
  claim_version: z.literal(STATEMENT_VERSION),
  made_at: z.string(),
  suite: z.strictObject({
    name: z.string(),
    version: z.string(),
    commit: z.string().nullable(),
    commit_note: z.string().optional(),
  }),
  spec: z.strictObject({ file: z.literal(CLAIM_FILES.spec), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  target: z.strictObject({
    base_url: z.string(),
    embedded: z.boolean(),
    auth: z.enum(['token', 'api_key']),
    config_digest: z.string().optional(),
  }),
  run: z.strictObject({
    id: z.string(),
    seed: z.number(),
    num_runs: z.int(),
    strict: z.boolean(),
    partial: z.boolean(),
    started_at: z.string(),
    finished_at: z.string(),
    exit_code: z.int(),
  }),
  selection: z.strictObject({
    given: z.record(z.string(), z.unknown()).describe("the run's --rule, --section, --level, --tag, --shard"),
    rules: z.array(z.string()),
  }),
  declared: z.strictObject({
    source: z.enum(['configuration', 'embedded reference server', 'unknown']),
    fixtures: z.array(z.string()).nullable().describe('the fixture keys given (dot paths), not their values'),
    concurrency_limit: z.int().nullable().describe('the §8 limit given (fixtures.concurrency_limit)'),
    note: z.string().optional(),
  }),
  observed: z.strictObject({
    rate_limited: z.record(z.string(), z.object({ answered: z.int(), absorbed: z.int() })),
    listings: z.record(z.string(), z.string()).describe('how each listing answered: a list, pages, or not observed'),
    endpoints: z.array(z.strictObject({ endpoint: z.string(), status: z.string() })),
    not_implemented: z.array(z.string()),
  }),
  accepted_skips: z.array(z.strictObject({ rule: z.string(), reason: z.string() })),
  rules: z.array(RuleVerdict),
  counts: z.strictObject({ total: Counts, MUST: Counts, SHOULD: Counts, INFO: Counts }),
  verdict: z.enum(CLAIM_VERDICTS),
  // Fixed names: a verifier reads these places and no other, whatever a statement says.
  files: z.strictObject({
    report: z.literal(CLAIM_FILES.report),
    har: z.literal(CLAIM_FILES.har),
    config: z.literal(CLAIM_FILES.config).nullable(),
    config_note: z.string().optional(),
    spec: z.literal(CLAIM_FILES.spec),
    badge: z.literal(CLAIM_FILES.badge),
  }),
});
export type Statement = z.output<typeof StatementSchema>;

/** What the statement takes from outside report.json. */
export interface StatementParts {
  suite: Statement['suite'];
  specSha256: string;
  declared: Statement['declared'];
  listings: Statement['observed']['listings'];
  configNote?: string;
  hasConfig: boolean;
  madeAt?: Date;
}

/** The parts of the statement that follow from report.json alone: what verify-claim recomputes and compares. */
export function fromReport(report: Report) {
  const { run, summary } = report;
  return {
    target: { ...report.target },
    run: {
      id: run.id,
      seed: run.seed ?? 0,
      num_runs: run.num_runs ?? 0,
      strict: run.strict,
      partial: run.partial ?? false,
      started_at: run.started_at,
      finished_at: run.finished_at,
      exit_code: summary.exit_code,
    },
    selection: { given: { ...run.selection }, rules: report.rules.map((r) => r.id) },
    observed: {
      rate_limited: { ...(report.http.rate_limited ?? {}) },
      endpoints: report.capabilities.map((c) => ({ endpoint: c.endpoint, status: c.status })),
      not_implemented: [...(summary.not_implemented ?? [])],
    },
    accepted_skips: report.rules
      .filter((r) => r.verdict === 'skip' && r.skip_accepted)
      .map((r) => ({ rule: r.id, reason: r.reason ?? '' })),
    rules: report.rules.map((r) => ({
      id: r.id,
      level: r.level,
      verdict: r.verdict,
      ...(r.reason !== undefined ? { reason: r.reason } : {}),
      ...(r.expected_failure ? { excused_by_baseline: true as const } : {}),
    })),
    counts: { total: { ...summary.counts }, ...summary.by_level },
    verdict: verdictOf(report),
  };
}

export function buildStatement(report: Report, parts: StatementParts): Statement {
  const derived = fromReport(report);
  return {
    claim_version: STATEMENT_VERSION,
    made_at: (parts.madeAt ?? new Date()).toISOString(),
    suite: parts.suite,
    spec: { file: CLAIM_FILES.spec, sha256: parts.specSha256 },
    target: derived.target,
    run: derived.run,
    selection: derived.selection,
    declared: parts.declared,
    observed: { ...derived.observed, listings: parts.listings },
    accepted_skips: derived.accepted_skips,
    rules: derived.rules,
    counts: derived.counts,
    verdict: derived.verdict,
    files: {
      report: CLAIM_FILES.report,
      har: CLAIM_FILES.har,
      config: parts.hasConfig ? CLAIM_FILES.config : null,
      ...(parts.configNote ? { config_note: parts.configNote } : {}),
      spec: CLAIM_FILES.spec,
      badge: CLAIM_FILES.badge,
    },
  };
}
