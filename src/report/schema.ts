/**
 * The shape of report.json — a stable, documented contract (schema_version 1). Every report format
 * is rendered from this one object, and schema/report.schema.json is generated from this schema.
 */
import { z } from 'zod';
import { ERROR_KINDS, LEVELS, VERDICTS } from '../engine/verdict.js';

export const REPORT_SCHEMA_VERSION = 1;

const VerdictSchema = z.enum(VERDICTS);
const LevelSchema = z.enum(LEVELS);

export const Counts = z.object({ pass: z.int(), fail: z.int(), skip: z.int(), error: z.int() });

export const ExchangeSchema = z.object({
  seq: z.int(),
  step: z.string().optional(),
  request: z.object({
    method: z.string(),
    url: z.string().describe('path and query under the base URL; secrets redacted'),
    headers: z.record(z.string(), z.string()).describe('secret-bearing headers keep only their scheme word'),
    body: z.string().optional(),
    body_truncated: z.boolean().optional(),
  }),
  response: z
    .object({
      status: z.int(),
      headers: z.record(z.string(), z.string()),
      body: z.string().optional(),
      body_truncated: z.boolean().optional(),
      bytes: z.int(),
    })
    .optional(),
  error: z
    .object({ kind: z.string(), message: z.string() })
    .optional()
    .describe('set when no complete response arrived'),
  duration_ms: z.number(),
  brief: z
    .boolean()
    .optional()
    .describe(
      'headers and bodies left out: an exchange of a passing or skipped rule, or an early one of a failing rule (--full-transcripts keeps them)',
    ),
});

export const RuleResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  spec: z.string().describe('the spec reference the rule enforces, e.g. "§4.2 notes rule 2"'),
  sections: z.array(z.string()),
  level: LevelSchema,
  why: z.string().optional().describe('why the level is not MUST'),
  tags: z.array(z.string()),
  endpoints: z.array(z.string()),
  property: z.boolean(),
  verdict: VerdictSchema,
  reason: z.string().optional().describe('one line: why it failed, errored or was skipped'),
  failure: z
    .object({
      message: z.string(),
      expected: z.unknown().optional(),
      actual: z.unknown().optional(),
      path: z.string().optional(),
      exchange_seq: z.int().optional(),
    })
    .optional(),
  skip_key: z.string().optional().describe('the config key that would let a skipped rule run'),
  skip_accepted: z
    .boolean()
    .optional()
    .describe('the skip matches --allow-skip / run.allow_skip, so it leaves the run complete'),
  cause: z.string().optional().describe('id of the shared cause (see causes) that stopped or failed this rule'),
  error_kind: z.enum(ERROR_KINDS).optional(),
  observations: z.array(z.string()),
  counterexample: z
    .object({ seed: z.number(), path: z.string(), value: z.unknown(), shrinks: z.int().optional() })
    .optional(),
  expected_failure: z.object({ comment: z.string(), reason: z.string().optional() }).optional(),
  replay: z.string().optional().describe('a command that reruns exactly this rule (and case)'),
  duration_ms: z.number(),
  transcript: z.array(ExchangeSchema),
  transcript_omitted: z
    .int()
    .optional()
    .describe('earlier one-line exchanges left out of transcript (--full-transcripts keeps them)'),
});

export const CauseSchema = z.object({
  id: z
    .string()
    .describe(
      'setup.<step> for a setup step the implementation refused; exchange.<n> for one broken exchange shared by several rules',
    ),
  step: z.string().describe('what could not be done, in words'),
  answer: z.string().describe('what the implementation answered'),
  fix: z.array(z.string()).describe('config keys that would fix it, most likely first'),
  hint: z.string(),
  status: z.int().optional(),
  errors: z
    .array(z.object({ attr: z.string(), code: z.string() }))
    .optional()
    .describe('attr and code of the §7.1 errors items of the refusal'),
  rules: z.array(z.string()).describe('the rules it stopped or failed'),
});

export const SetupSchema = z.object({
  steps: z.array(
    z.object({
      step: z.string(),
      what: z.string(),
      outcome: z.enum(['established', 'refused', 'not configured', 'not attempted']),
      cause: z.string().optional(),
    }),
  ),
  transcript: z.array(ExchangeSchema),
});

export const SectionSummarySchema = z.object({
  section: z.string(),
  title: z.string(),
  counts: Counts,
  /** Passed / judged (pass + fail + error) among MUST and SHOULD rules; null when none was judged. */
  score: z.number().nullable(),
});

export const CapabilitySchema = z.object({
  endpoint: z.string(),
  method: z.string(),
  path: z.string(),
  counts: Counts,
  status: z
    .enum(['conforms', 'deviates', 'not implemented', 'could not be checked', 'not checked'])
    .describe('not implemented: every request to it was answered 501 or 405'),
});

export const ReportSchema = z.object({
  schema_version: z.literal(REPORT_SCHEMA_VERSION),
  tool: z.object({ name: z.string(), version: z.string() }),
  run: z.object({
    id: z.string(),
    seed: z.number(),
    num_runs: z.int(),
    concurrency: z.int(),
    timeout_ms: z.int(),
    strict: z.boolean(),
    started_at: z.string(),
    finished_at: z.string(),
    duration_ms: z.number(),
    node: z.string(),
    selection: z.object({
      rules: z.array(z.string()).optional(),
      sections: z.array(z.string()).optional(),
      levels: z.array(z.string()).optional(),
      tags: z.array(z.string()).optional(),
      shard: z.object({ index: z.int(), total: z.int() }).optional(),
    }),
    bailed: z.boolean().describe('--bail stopped the run after a MUST failure'),
  }),
  target: z.object({
    base_url: z.string(),
    embedded: z.boolean().describe('true when the run started the embedded reference server'),
    auth: z.enum(['token', 'api_key']),
  }),
  summary: z.object({
    total: z.int(),
    counts: Counts,
    by_level: z.object({ MUST: Counts, SHOULD: Counts, INFO: Counts }),
    must_failures: z.int().describe('MUST rules that failed or errored, not excused by the baseline'),
    should_failures: z.int().describe('SHOULD rules that failed or errored, not excused by the baseline'),
    expected_failures: z.int(),
    conformant: z.boolean().describe('every selected rule that counts was judged and none failed'),
    incomplete: z
      .boolean()
      .describe(
        'no rule that counts failed, but some MUST rules were not judged (skipped) and not accepted by --allow-skip',
      ),
    unjudged_must: z.int().describe('selected MUST rules skipped and not accepted by --allow-skip'),
    accepted_skips: z.array(z.string()).describe('skipped rules accepted by --allow-skip / run.allow_skip'),
    missing_keys: z.array(z.string()).describe('config keys that would let the unjudged MUST rules run'),
    exit_code: z.int(),
  }),
  aborted: z
    .object({ reason: z.string() })
    .optional()
    .describe(
      'set when no rule could run: the target was unreachable or refused the credentials (exit code 3); rules then holds one run.preflight entry',
    ),
  setup: SetupSchema.optional().describe(
    'the setup chain established once before the rules: stage, process, business, contract link',
  ),
  causes: z.array(CauseSchema).describe('reasons shared by several rules, each reported once'),
  sections: z.array(SectionSummarySchema),
  capabilities: z.array(CapabilitySchema),
  rules: z.array(RuleResultSchema),
  baseline: z
    .object({
      file: z.string(),
      entries: z.int(),
      now_passing: z
        .array(z.object({ rule: z.string(), comment: z.string() }))
        .describe('entries whose rule passes now: remove them'),
      unknown_rules: z.array(z.string()).describe('entries that name no rule'),
    })
    .optional(),
  created_identifiers: z.object({
    external_account_numbers: z.array(z.string()),
    business_identifiers: z.array(z.string()),
    contract_identifiers: z.array(z.string()),
    other: z.int(),
  }),
  http: z.object({
    requests: z.int(),
    failures: z.int().describe('requests that got no complete response'),
    token_renewals: z.int().describe('tokens obtained again with the API key after a 401 mid-run'),
    token_refused_mid_run: z
      .int()
      .describe("401s to the run's token that renewing could not cure (no API key, or renewal failed)"),
  }),
});

export type Report = z.output<typeof ReportSchema>;
export type RuleResult = z.output<typeof RuleResultSchema>;
export type CountsT = z.output<typeof Counts>;
export type CauseResult = z.output<typeof CauseSchema>;
