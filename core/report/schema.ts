/**
 * The shape of report.json — a stable, documented contract (schema_version 1). Every report format
 * is rendered from this one object, and schema/report.schema.json is generated from this schema.
 */
import { z } from 'zod';
import { EXCHANGE_ERROR_KINDS, ExchangeSchema } from '../http/exchange.js';
import { DiscoveredLimitSchema, RuleResultSchema } from '../engine/result.js';
import { CauseSchema as CauseFound } from '../engine/verdict.js';
import { CoverageSchema } from './coverage.js';

export { ExchangeSchema, RuleResultSchema };

export const REPORT_SCHEMA_VERSION = 1;

export const Counts = z.object({ pass: z.int(), fail: z.int(), skip: z.int(), error: z.int() });

export const CauseSchema = CauseFound.extend({
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
  counts: Counts.describe(
    'MUST and SHOULD rules judging the endpoint; a failing rule counts only where it was charged',
  ),
  status: z
    .enum(['conforms', 'deviates', 'not implemented', 'could not be checked', 'not checked'])
    .describe(
      'not implemented: the target answered 501, 405, or a 404 where the spec documents none (summary.not_implemented), whatever its rules saw; deviates: a MUST or SHOULD rule failed on an answer of this endpoint (a failure is charged to the endpoint whose exchange broke the rule); conforms: a rule judging its behaviour passed (the §5 401 rules alone do not make an endpoint conform); could not be checked: its rules ended in error; not checked: no rule judged its behaviour',
    ),
});

export const ReportSchema = z.object({
  schema_version: z.literal(REPORT_SCHEMA_VERSION),
  tool: z.object({ name: z.string(), version: z.string() }),
  run: z.object({
    id: z.string(),
    kind: z
      .literal('traffic')
      .optional()
      .describe(
        'traffic: exchanges someone else made, judged (proxy, check-traffic); no seed, no property runs, and a check the traffic held nothing for is skipped, accepted',
      ),
    seed: z.number().optional().describe('absent in a traffic report'),
    num_runs: z.int().optional().describe('absent in a traffic report'),
    concurrency: z.int().describe('rules at once: the fixed --concurrency, or with auto the most the run had'),
    concurrency_auto: z
      .object({
        backed_off: z
          .boolean()
          .describe('the target answered a 429 the run had to wait out, or a 503: the width went back to 8'),
        median_latency_ms: z.number().optional().describe('median answer time of the last exchanges'),
        runner_busy: z
          .boolean()
          .describe(
            'true: answers were slow enough for more rules at once, and still were at the end, while the runner itself was busy (its event loop working more than half the time): it held the width at 8 then; false otherwise',
          ),
      })
      .optional()
      .describe('set when --concurrency is auto: 8 rules at once, up to 32 while the target answers slowly'),
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
    partial: z
      .boolean()
      .optional()
      .describe('--partial / run.partial: the skips of endpoints not implemented were accepted'),
  }),
  target: z.object({
    base_url: z.string(),
    embedded: z.boolean().describe('true when the run started the embedded reference server'),
    auth: z.enum(['token', 'api_key']),
    config_digest: z
      .string()
      .optional()
      .describe(
        'sha256 (first 16 hex digits) of the settings that decide what is judged at base_url: fixtures (not for the embedded server), payload templates, the contract-link path, the token request address, mutation and token path, header names; never a secret. --rerun-failed re-runs only against the same target',
      ),
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
        'no rule that counts failed, but some MUST rules were not judged (skipped) and not accepted by --allow-skip, or endpoints were not implemented and that was not accepted (--partial)',
      ),
    unjudged_must: z.int().describe('selected MUST rules skipped and not accepted by --allow-skip'),
    accepted_skips: z.array(z.string()).describe('skipped rules accepted by --allow-skip / run.allow_skip'),
    flaky: z
      .array(z.string())
      .optional()
      .describe(
        'rules that passed only when run again after an exchange got no response (--retries); see rules[].flaky',
      ),
    missing_keys: z.array(z.string()).describe('config keys that would let the unjudged MUST rules run'),
    not_implemented: z
      .array(z.string())
      .optional()
      .describe(
        'endpoints (operation ids) the target answered as not implemented (501, 405, an undocumented 404); the rules that needed them are skipped with cause not-implemented.<endpoint>',
      ),
    exit_code: z.int(),
  }),
  aborted: z
    .object({ reason: z.string() })
    .optional()
    .describe(
      'set when no rule could run: the target was unreachable or refused the credentials (exit code 3); rules then holds one run.preflight entry',
    ),
  interrupted: z
    .object({
      signal: z.string().describe('what interrupted the run: SIGINT or SIGTERM (or the words of a library caller)'),
      reason: z.string().describe('in words, as the rules it left not judged say it'),
      not_judged: z.int().describe('rules the interruption left not judged (error_kind interrupted)'),
    })
    .optional()
    .describe(
      'set when a signal (SIGINT, SIGTERM) ended the run early: rules not finished by then are not judged (error_kind interrupted), the verdict is Interrupted and the exit code 130, whatever the rules judged before it said',
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
      expired: z
        .array(z.object({ rule: z.string(), until: z.string(), comment: z.string() }))
        .optional()
        .describe(
          'entries past their until day (UTC) that do not pass now: they excuse nothing, so a failure of their rule counts as new',
        ),
      strict: z
        .boolean()
        .optional()
        .describe(
          '--strict-baseline / run.strict_baseline: an entry whose rule passes now (now_passing) fails the run (exit code 1)',
        ),
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
    token_renewals: z
      .int()
      .describe(
        'tokens obtained again with the API key after a 401 mid-run, as often as the run needed (§5: lifetime not shown)',
      ),
    token_refused_mid_run: z
      .int()
      .describe("401s to the run's token that renewing could not cure (no API key, or renewal failed)"),
    token_renewal_stopped: z
      .string()
      .optional()
      .describe(
        'why the run stopped renewing its token (no API key, obtaining failed, or two newly obtained tokens in a row refused before either was accepted); absent while renewing worked or was never needed',
      ),
    rate_limited: z
      .record(
        z.string(),
        z.object({
          answered: z.int().describe('429s the target answered (those a §8 rule provoked on purpose too)'),
          absorbed: z.int().describe('429s the run waited out (Retry-After, else backoff) and sent again'),
        }),
      )
      .optional()
      .describe('429s per endpoint (catalogue id, or "other")'),
    resent_after_reset: z.int().optional().describe('GET requests sent again once after the connection was reset'),
  }),
  stopped_answering: z
    .object({
      last_answered: numberedRequest().describe('the last request that got an answer'),
      first_unanswered: numberedRequest()
        .extend({ error: z.enum(EXCHANGE_ERROR_KINDS) })
        .describe('of the requests with no answer since, the one sent first'),
      unanswered_requests: z.int().describe('requests refused or reset since the last answer'),
      rules: z.array(z.string()).describe('the rules not judged because of it (an exchange of theirs got no answer)'),
    })
    .optional()
    .describe(
      'set when the target stopped answering mid-run (core/http/answers.ts): the requests since its last answer were all refused or reset',
    ),
  discovered_limits: z
    .array(DiscoveredLimitSchema.extend({ rules: z.array(z.string()).describe('the rules whose cases met it') }))
    .optional()
    .describe(
      'limits the target showed where the spec shows none (§2.3, §8): a §7.1 400 naming exactly the field that carried an edge value, the case replayed inside it. INFO, never a failure; `declare` is the config line that declares it',
    ),
  coverage: CoverageSchema.optional(),
  relations: z
    .array(
      z.object({
        kind: z.string().describe('the relation kind (core/engine/relations.ts), e.g. lookup-near-miss'),
        spec: z.string().describe('the sections of the spec sentence it enforces'),
        covered: z.int().describe('places of the model the registered rules instantiate it at'),
        applies: z
          .int()
          .describe('places of the model it applies to, derived from the spec model and the driver table'),
        missing: z
          .array(z.object({ endpoint: z.string(), field: z.string().optional() }))
          .describe('places it applies to that no rule instantiates'),
      }),
    )
    .optional()
    .describe(
      "relation coverage of the suite's rules: for each relation the spec states, the places of the model it applies to and those the rules instantiate (whatever the run selected)",
    ),
});

/** One request of the run, numbered in the order the run sent them (report.stopped_answering). */
function numberedRequest() {
  return z.object({
    method: z.string(),
    url: z.string().describe('path and query under the base URL; secrets redacted'),
    exchange: z.int().describe("the request's number in the run (1 for the first), in the order they were sent"),
    at: z.string().describe('when it ended (ISO 8601, UTC)'),
  });
}

export type Report = z.output<typeof ReportSchema>;
export type { RuleResult } from '../engine/result.js';
export type CountsT = z.output<typeof Counts>;
export type CauseResult = z.output<typeof CauseSchema>;
