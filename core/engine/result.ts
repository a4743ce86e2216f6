/**
 * The one result shape: what running a rule yields, as the engine returns it, as progress events
 * carry it, as every reporter reads it and as report.json holds it (`rules[]`). It is named the way
 * report.json names it, because that JSON is the published contract (schema_version 1): nothing
 * between the engine and a file converts it or copies it field by field. The run only annotates it
 * (accepted skip, baseline excuse, replay command) and trims its transcript.
 *
 * One member per verdict, so a pass carries no failure, a failure no skip key, a skip no error kind
 * (fields a verdict cannot have are declared absent, which report.schema.json says too).
 */
import { z } from 'zod';
import { ExchangeSchema } from '../http/exchange.js';
import { ERROR_KINDS, LEVELS } from './verdict.js';

/** What a failing rule found: the statement it broke, with the difference when there is one. */
export const FailureSchema = z.object({
  message: z.string(),
  expectation: z
    .string()
    .optional()
    .describe(
      "what the rule expected, in the suite's own words (its label and the expected status or shape), never text the target sent: a baseline entry's reason is matched against it",
    ),
  expected: z.unknown().optional(),
  actual: z.unknown().optional(),
  path: z.string().optional().describe('JSON path of the first difference, e.g. body.results[0].status'),
  exchange_seq: z.int().optional().describe('the transcript entry the failure is about'),
});
export type Failure = z.output<typeof FailureSchema>;

/** A generated case that failed, by which the rule replays it (--seed, --path). */
export const CounterexampleSchema = z.object({
  seed: z.number(),
  path: z.string(),
  value: z.unknown(),
  shrinks: z.int().optional().describe('shrinks fast-check performed'),
});
export type Counterexample = z.output<typeof CounterexampleSchema>;

/**
 * A limit the target showed where the spec shows none (§2.3, §8; core/engine/limits.ts): a §7.1 400
 * naming exactly the field that carried an edge value. Recorded, never failed.
 */
export const DiscoveredLimitSchema = z.object({
  endpoint: z.string().describe("the endpoint's operation id"),
  field: z.string().describe('the field, array indexes written as * (empty for the body as a whole: a 413)'),
  kind: z.enum(['length', 'integer', 'items', 'bytes']),
  refused: z.string().describe('the value refused, with its size: "300 characters", "2147483648", "120 items"'),
  code: z.string().describe('the errors[].code the target gave (413 for the body as a whole)'),
  accepted: z.string().optional().describe('the value accepted when the case was replayed inside the limit'),
  declare: z.string().describe('the conformance.config.yaml line that declares the limit'),
});
export type DiscoveredLimit = z.output<typeof DiscoveredLimitSchema>;

const absent = z.never().optional();

/** What the rule declares about itself, copied from its declaration. */
const declared = {
  id: z.string(),
  title: z.string(),
  spec: z.string().describe('the spec reference the rule enforces, e.g. "§4.2 notes rule 2"'),
  sections: z.array(z.string()),
  level: z.enum(LEVELS),
  why: z.string().optional().describe('why the level is not MUST'),
  tags: z.array(z.string()),
  endpoints: z.array(z.string()),
  property: z.boolean(),
};

/** What every run of a rule records, whatever its verdict. */
const recorded = {
  observations: z.array(z.string()),
  counterexample: CounterexampleSchema.optional(),
  discovered_limits: z
    .array(DiscoveredLimitSchema)
    .optional()
    .describe('limits the target showed by refusing edge values (INFO: the cases were replayed inside them)'),
  duration_ms: z.number(),
  transcript: z.array(ExchangeSchema),
  attempts: z
    .int()
    .optional()
    .describe('set when the rule was run again after an exchange got no response (--retries): how many runs it took'),
  transcript_omitted: z
    .int()
    .optional()
    .describe('earlier one-line exchanges left out of transcript (--full-transcripts keeps them)'),
};

/** How a failing or errored rule is followed up: excused by the baseline, replayed by a command. */
const followUp = {
  expected_failure: z.object({ comment: z.string(), reason: z.string().optional() }).optional(),
  replay: z.string().optional().describe('a command that reruns exactly this rule (and case)'),
};

const reason = z.string().describe('one line: why it failed, errored or was skipped');

export const PassSchema = z.object({
  verdict: z.literal('pass'),
  reason: absent,
  flaky: z
    .string()
    .optional()
    .describe(
      'set when the rule passed only when run again (--retries): why its first run was not judged (an exchange got no response)',
    ),
  failure: absent,
  skip_key: absent,
  skip_accepted: absent,
  error_kind: absent,
  transient: absent,
  cause: absent,
  expected_failure: absent,
  replay: absent,
});

export const FailSchema = z.object({
  flaky: absent,
  verdict: z.literal('fail'),
  reason,
  failure: FailureSchema,
  skip_key: absent,
  skip_accepted: absent,
  error_kind: absent,
  cause: absent,
  ...followUp,
});

export const SkipSchema = z.object({
  flaky: absent,
  verdict: z.literal('skip'),
  reason,
  failure: absent,
  skip_key: z.string().optional().describe('the config key that would let a skipped rule run'),
  skip_accepted: z
    .boolean()
    .optional()
    .describe('the skip matches --allow-skip / run.allow_skip, so it leaves the run complete'),
  error_kind: absent,
  cause: z
    .string()
    .optional()
    .describe('id of the shared cause (see causes) that left this rule not judged: not-implemented.<endpoint>'),
  expected_failure: absent,
  replay: absent,
});

export const ErrorSchema = z.object({
  flaky: absent,
  verdict: z.literal('error'),
  reason,
  failure: absent,
  skip_key: absent,
  skip_accepted: absent,
  error_kind: z
    .enum(ERROR_KINDS)
    .describe(
      "why the rule could not be judged: exchange (an exchange broke), precondition (a setup step it stands on was refused), timeout (the rule's time limit or the run's --max-time ran out), not-judged (it saw too little to judge; the reason says why), internal (a bug in the suite), interrupted (SIGINT, SIGTERM)",
    ),
  transient: z
    .literal(true)
    .optional()
    .describe(
      'the exchange that ended the rule got no answer from the implementation (a reset, a timeout, a refused connection, or 502–504 from a gateway): the rule is run again (--retries)',
    ),
  cause: z.string().optional().describe('id of the shared cause (see causes) that stopped this rule'),
  ...followUp,
});

/** How a rule ended, one member per verdict: what `executeRule` decides. */
export const EndingSchema = z.discriminatedUnion('verdict', [PassSchema, FailSchema, SkipSchema, ErrorSchema]);
export type Ending = z.output<typeof EndingSchema>;

export const RuleResultSchema = z.discriminatedUnion('verdict', [
  PassSchema.extend({ ...declared, ...recorded }),
  FailSchema.extend({ ...declared, ...recorded }),
  SkipSchema.extend({ ...declared, ...recorded }),
  ErrorSchema.extend({ ...declared, ...recorded }),
]);
export type RuleResult = z.output<typeof RuleResultSchema>;
