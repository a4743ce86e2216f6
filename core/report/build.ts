/** Builds the report object from rule outcomes: totals, sections, capability matrix, baseline, exit code. */
import { excuse, isExpired } from '../engine/baseline.js';
import { DEADLINE_CAUSE } from '../engine/interrupt.js';
import { QUOTE_LIMIT, boundedValue, capText } from '../http/bounds.js';
import { reportTranscript } from './transcripts.js';
import { capabilityMatrix } from './capabilities.js';
import type { RunRecord } from '../engine/record.js';
import { EXIT, type Level, isFailing } from '../engine/verdict.js';
import { notImplementedCause, notImplementedCauseId, notImplementedError } from '../engine/not-implemented.js';
import { skipAcceptor } from './accept.js';
import { model } from '../spec/index.js';
import { compareSections, headingOf, sectionTitle } from '../spec/sections.js';
import { type CauseResult, type CountsT, REPORT_SCHEMA_VERSION, type Report, type RuleResult } from './schema.js';

const zero = (): CountsT => ({ pass: 0, fail: 0, skip: 0, error: 0 });

const NOT_IMPLEMENTED_PREFIX = notImplementedCauseId('');

/**
 * The endpoints the run found not implemented: recorded by the engine (core/engine/not-implemented.ts)
 * and named by the causes of the rules they stopped (so merged shard reports keep them).
 */
function notImplementedEndpoints(rules: RuleResult[], recorded: readonly string[] = []): string[] {
  const found = new Set(recorded);
  for (const r of rules)
    if (r.cause?.startsWith(NOT_IMPLEMENTED_PREFIX)) found.add(r.cause.slice(NOT_IMPLEMENTED_PREFIX.length));
  return Object.values(model.endpoints)
    .map((e) => e.id as string)
    .filter((id) => found.has(id));
}

/** The one entry of an aborted run, so that every report format shows why nothing ran. */
function preflightResult(reason: string): RuleResult {
  return {
    id: 'run.preflight',
    title: 'The target answers, and accepts the credentials, before any rule runs',
    spec: 'preflight',
    sections: [],
    level: 'MUST',
    tags: [],
    endpoints: [],
    property: false,
    verdict: 'error',
    reason,
    error_kind: 'exchange',
    observations: [],
    duration_ms: 0,
    transcript: [],
  };
}

/**
 * Totals, section scores, the capability matrix and the exit code of a set of rule results: what
 * every report says on top of its rules (also used to merge the reports of CI shards).
 */
export function summarize(
  rules: RuleResult[],
  strict: boolean,
  aborted: boolean,
  recordedNotImplemented: readonly string[] = [],
  interrupted = false,
): Pick<Report, 'summary' | 'sections' | 'capabilities'> {
  const notImplemented = notImplementedEndpoints(rules, recordedNotImplemented);
  const counts = zero();
  const byLevel: Record<Level, CountsT> = { MUST: zero(), SHOULD: zero(), INFO: zero() };
  let mustFailures = 0;
  let shouldFailures = 0;
  let expectedFailures = 0;
  for (const r of rules) {
    counts[r.verdict]++;
    byLevel[r.level][r.verdict]++;
    if (!isFailing(r.verdict)) continue;
    if (r.expected_failure) expectedFailures++;
    else if (r.level === 'MUST') mustFailures++;
    else if (r.level === 'SHOULD') shouldFailures++;
  }
  // A MUST rule that was not judged leaves the run incomplete, unless its skip was accepted.
  const unjudged = rules.filter((r) => r.level === 'MUST' && r.verdict === 'skip' && !r.skip_accepted);
  // An endpoint found not implemented whose skips were not all accepted (--partial, --allow-skip)
  // leaves the run incomplete, whatever the level of the rules it stopped: answering 501 never
  // makes a run conformant unless the user accepted it.
  const missing = notImplemented.filter((id) =>
    rules.some((r) => r.verdict === 'skip' && r.cause === notImplementedCauseId(id) && !r.skip_accepted),
  );
  const failed = mustFailures > 0 || (strict && shouldFailures > 0);
  // An interrupted run is never conformant nor merely incomplete: it says so, with its own exit code.
  const incomplete = !failed && !aborted && !interrupted && (unjudged.length > 0 || missing.length > 0);
  const conformant = !failed && !aborted && !interrupted && !incomplete;

  // One pass over the rules: a merged report may carry many rules and sections.
  const sectionCounts = new Map<string, CountsT>();
  const sectionJudged = new Map<string, { judged: number; passed: number }>();
  for (const r of rules) {
    for (const s of new Set(r.sections.map(headingOf))) {
      const c = sectionCounts.get(s) ?? zero();
      c[r.verdict]++;
      sectionCounts.set(s, c);
      if (r.level === 'INFO' || r.verdict === 'skip') continue;
      const j = sectionJudged.get(s) ?? { judged: 0, passed: 0 };
      j.judged++;
      if (r.verdict === 'pass') j.passed++;
      sectionJudged.set(s, j);
    }
  }
  const judgedScore = (section: string) => {
    const j = sectionJudged.get(section);
    return j ? j.passed / j.judged : null;
  };
  const sections = [...sectionCounts.keys()].sort(compareSections).map((section) => ({
    section,
    title: sectionTitle(section),
    counts: sectionCounts.get(section)!,
    score: judgedScore(section),
  }));

  const capabilities = capabilityMatrix(rules, notImplemented);

  return {
    summary: {
      total: rules.length,
      counts,
      by_level: byLevel,
      must_failures: mustFailures,
      should_failures: shouldFailures,
      expected_failures: expectedFailures,
      conformant,
      incomplete,
      unjudged_must: unjudged.length,
      accepted_skips: rules.filter((r) => r.verdict === 'skip' && r.skip_accepted).map((r) => r.id),
      flaky: rules.filter((r) => r.verdict === 'pass' && r.flaky !== undefined).map((r) => r.id),
      missing_keys: [
        ...new Set(
          unjudged
            .filter((r) => !r.cause?.startsWith(NOT_IMPLEMENTED_PREFIX))
            .map((r) => r.skip_key ?? r.reason ?? 'unknown'),
        ),
      ],
      not_implemented: notImplemented,
      exit_code: aborted
        ? EXIT.UNREACHABLE
        : interrupted
          ? EXIT.INTERRUPTED
          : failed
            ? EXIT.MUST_FAILURES
            : incomplete
              ? EXIT.INCOMPLETE
              : EXIT.OK,
    },
    sections,
    capabilities,
  };
}

/**
 * What a reason says once the run's own identifiers, numbers and quoted values are taken out: two
 * rules whose exchanges broke the same way read the same.
 */
export function reasonShape(reason: string): string {
  return reason
    .replace(/\b[A-Za-z][A-Za-z0-9]{0,7}-[a-z0-9]{6}-[A-Z]\d+\b/g, '<id>')
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+/g, 'N');
}

/**
 * The causes shared by several rules: the setup steps the implementation refused (each with the
 * rules it stopped), and exchanges that broke the same way in two or more rules.
 */
function sharedCauses(rules: RuleResult[], input: RunRecord): CauseResult[] {
  // The setup steps refused, then the endpoints not implemented (one cause each, like a setup step).
  const found = [...(input.setup?.causes ?? []), ...(input.notImplemented ?? []).map(notImplementedCause)];
  const causes: CauseResult[] = found.map((cause) => ({
    ...cause,
    answer: capText(cause.answer, MESSAGE_LIMIT),
    rules: rules.filter((r) => r.cause === cause.id).map((r) => r.id),
  }));
  // The run's own deadline (--max-time): one cause for every rule it ended, saying the run ran out of time.
  const cut = rules.filter((r) => r.cause === DEADLINE_CAUSE);
  if (cut.length)
    causes.push({
      id: DEADLINE_CAUSE,
      step: "the run's time limit (--max-time)",
      answer: (cut[0].reason ?? '').replace(/^not judged: /, ''),
      fix: ['run.max_time_s'],
      hint: `the run ran out of time before ${cut.length === 1 ? 'this rule was' : `these ${cut.length} rules were`} judged: this says nothing of the target; give the run more time (--max-time / run.max_time_s) or select fewer rules`,
      rules: cut.map((r) => r.id),
    });
  // Rules that ended the same way: a broken exchange (or a timed-out rule) points at the target; a rule
  // not judged (not-judged) at the fact it could not read, which several rules may stand on.
  const same = new Map<string, RuleResult[]>();
  for (const r of rules) {
    if (r.verdict !== 'error' || r.cause || !GROUPED.has(r.error_kind)) continue;
    const key = `${r.error_kind === 'not-judged' ? 'not-judged' : 'exchange'} ${reasonShape(r.reason ?? '')}`;
    same.set(key, [...(same.get(key) ?? []), r]);
  }
  const n = { exchange: 0, 'not-judged': 0 };
  for (const group of same.values()) {
    if (group.length < 2) continue;
    const kind = group[0].error_kind === 'not-judged' ? 'not-judged' : 'exchange';
    const id = `${kind}.${++n[kind]}`;
    for (const r of group) r.cause = id;
    causes.push({
      id,
      ...(kind === 'exchange'
        ? {
            step: 'exchange with the target',
            hint: `the same exchange broke in ${group.length} rules: the target, not these rules, is the problem (see the first rule's transcript)`,
          }
        : {
            step: 'the same reason left several rules not judged',
            hint: `${group.length} rules could not be judged for the same reason (see the first rule's reason and transcript)`,
          }),
      answer: group[0].reason ?? '',
      fix: [],
      rules: group.map((r) => r.id),
    });
  }
  return causes;
}

/** The error kinds whose rules, ending the same way, share one cause. */
const GROUPED: ReadonlySet<string | undefined> = new Set(['exchange', 'timeout', 'not-judged']);

/** The exchanges the report keeps of a result (see transcripts.ts). */
function trimmed(result: RuleResult, full: boolean): Pick<RuleResult, 'transcript' | 'transcript_omitted'> {
  const { transcript, omitted } = reportTranscript(
    result.transcript,
    result.verdict,
    result.failure?.exchange_seq,
    full,
  );
  return { transcript, ...(omitted ? { transcript_omitted: omitted } : {}) };
}

/** A reason or a failure message: the runner's words with the target's quoted within them. */
const MESSAGE_LIMIT = 4 * 1024;
/** Observations a report keeps of one rule (the rule keeps no more either, context.ts). */
const MAX_OBSERVATIONS = 51;

/**
 * A result as no target can make it large: whatever a rule or the engine recorded, a report quotes
 * at most MESSAGE_LIMIT of a message, QUOTE_LIMIT of a value or an observation, each with its size
 * said (docs/design.md §6). Results within the bounds are returned as they are.
 */
function bounded(result: RuleResult): RuleResult {
  const f = result.failure;
  return {
    ...result,
    ...(result.reason !== undefined ? { reason: capText(result.reason, MESSAGE_LIMIT) } : {}),
    ...(f
      ? {
          failure: {
            ...f,
            message: capText(f.message, MESSAGE_LIMIT),
            ...(f.expectation !== undefined ? { expectation: capText(f.expectation, QUOTE_LIMIT) } : {}),
            ...('expected' in f ? { expected: boundedValue(f.expected) } : {}),
            ...('actual' in f ? { actual: boundedValue(f.actual) } : {}),
            ...(f.path !== undefined ? { path: capText(f.path, QUOTE_LIMIT) } : {}),
          },
        }
      : {}),
    observations: result.observations.slice(0, MAX_OBSERVATIONS).map((o) => capText(o, QUOTE_LIMIT)),
  } as RuleResult;
}

/**
 * A rule skipped for a configuration key while one of its endpoints was found not implemented asks
 * for a value it could not use: setting the key would only get it skipped as not implemented. It is
 * not judged for that endpoint, one shared cause with the rules that met it (and --partial accepts it).
 */
function withoutMootNeed(result: RuleResult, input: RunRecord): RuleResult {
  // Only the target's data (fixtures, payload templates): a key of the run's own (auth.api_key) is asked for still.
  if (result.verdict !== 'skip' || !/^(fixtures|payloads)\./.test(result.skip_key ?? '') || result.cause) return result;
  const missing = (input.notImplemented ?? []).find((e) => result.endpoints.includes(e.endpoint));
  if (!missing) return result;
  const { skip_key: _, ...rest } = result;
  return {
    ...rest,
    reason: `not judged: ${notImplementedError(missing.endpoint, missing.status).message}`,
    cause: notImplementedCauseId(missing.endpoint),
  } as RuleResult;
}

/**
 * What the run adds to a result: whether its skip was accepted, whether the baseline excuses its
 * failure; and the transcript the report keeps.
 */
function annotated(found: RuleResult, accepted: ReturnType<typeof skipAcceptor>, input: RunRecord): RuleResult {
  const result = withoutMootNeed(found, input);
  const transcript = trimmed(result, input.fullTranscripts ?? false);
  if (result.verdict === 'skip') {
    // --allow-skip (rule globs, configuration keys, endpoints) accepts any skip; --partial the skips of endpoints not implemented.
    const ok =
      accepted(result) || (input.partial === true && result.cause?.startsWith(NOT_IMPLEMENTED_PREFIX) === true);
    return { ...result, ...(ok ? { skip_accepted: true } : {}), ...transcript };
  }
  if (result.verdict === 'pass') return { ...result, ...transcript };
  const excused = excuse(input.baseline, result);
  return {
    ...result,
    ...(excused
      ? { expected_failure: { comment: excused.comment, ...(excused.reason ? { reason: excused.reason } : {}) } }
      : {}),
    ...transcript,
  };
}

export function buildReport(input: RunRecord): Report {
  const accepted = skipAcceptor(input.allowSkip ?? []);
  const rules: RuleResult[] = input.aborted
    ? [preflightResult(input.aborted)]
    : input.results.map((result) => annotated(bounded(result), accepted, input));

  const causes = sharedCauses(rules, input);
  const stopped = stoppedAnswering(input);
  const { summary, sections, capabilities } = summarize(
    rules,
    input.run.strict,
    !!input.aborted,
    (input.notImplemented ?? []).map((e) => e.endpoint),
    !!input.interrupted && !input.aborted,
  );

  const baseline = input.baseline && baselineSummary(input.baseline, rules);
  if (baseline) summary.exit_code = strictBaselineExit(summary.exit_code, baseline);

  const { run } = input;
  return {
    schema_version: REPORT_SCHEMA_VERSION,
    tool: input.tool,
    run: {
      id: run.id,
      ...(run.kind === 'traffic' ? { kind: run.kind } : { seed: run.seed, num_runs: run.numRuns }),
      concurrency: run.concurrency,
      ...(run.concurrencyAuto
        ? {
            concurrency_auto: {
              backed_off: run.concurrencyAuto.backedOff,
              ...(run.concurrencyAuto.medianLatencyMs !== undefined
                ? { median_latency_ms: run.concurrencyAuto.medianLatencyMs }
                : {}),
              runner_busy: run.concurrencyAuto.runnerBusy,
            },
          }
        : {}),
      timeout_ms: run.timeoutMs,
      strict: run.strict,
      started_at: run.startedAt.toISOString(),
      finished_at: run.finishedAt.toISOString(),
      duration_ms: run.finishedAt.getTime() - run.startedAt.getTime(),
      node: process.version,
      selection: run.selection,
      bailed: run.bailed,
      ...(input.partial ? { partial: true } : {}),
    },
    target: {
      base_url: input.target.baseUrl,
      embedded: input.target.embedded,
      auth: input.target.auth,
      ...(input.target.configDigest ? { config_digest: input.target.configDigest } : {}),
    },
    summary,
    ...(input.aborted ? { aborted: { reason: input.aborted } } : {}),
    ...(input.interrupted && !input.aborted
      ? {
          interrupted: {
            signal: input.interrupted.by,
            reason: input.interrupted.reason,
            not_judged: rules.filter((r) => r.error_kind === 'interrupted').length,
          },
        }
      : {}),
    ...(input.setup ? { setup: { steps: input.setup.steps, transcript: input.setup.transcript } } : {}),
    causes,
    sections,
    capabilities,
    rules,
    ...(baseline ? { baseline } : {}),
    created_identifiers: input.created,
    http: input.http,
    ...(stopped ? { stopped_answering: stopped } : {}),
    ...discoveredLimits(rules),
  };
}

/**
 * The limits every rule discovered, one per endpoint, field and kind (as the first rule to meet it
 * recorded it), with the rules that met it.
 */
function discoveredLimits(rules: readonly RuleResult[]): Pick<Report, 'discovered_limits'> {
  const found = new Map<string, NonNullable<Report['discovered_limits']>[number]>();
  for (const rule of rules)
    for (const limit of rule.discovered_limits ?? []) {
      const key = JSON.stringify([limit.endpoint, limit.field, limit.kind]);
      const seen = found.get(key);
      if (!seen) found.set(key, { ...limit, rules: [rule.id] });
      else if (!seen.rules.includes(rule.id)) seen.rules.push(rule.id);
    }
  return found.size ? { discovered_limits: [...found.values()] } : {};
}

/** What the run says of its baseline: entries that pass now, name no rule, or are past their day. */
function baselineSummary(baseline: NonNullable<RunRecord['baseline']>, rules: RuleResult[]): Report['baseline'] {
  const byId = new Map(rules.map((r) => [r.id, r]));
  const passes = (e: { rule: string }) => byId.get(e.rule)?.verdict === 'pass';
  // An expired entry is said only where its rule's failure counts: beside a live entry that excuses
  // the rule, "expired" would contradict "excused" for one failure.
  const excused = (e: { rule: string }) => byId.get(e.rule)?.expected_failure !== undefined;
  const expired = baseline.entries
    .filter((e) => isExpired(e, baseline) && !passes(e) && !excused(e))
    .map((e) => ({ rule: e.rule, until: e.until!, comment: e.comment }));
  return {
    file: baseline.file,
    entries: baseline.entries.length,
    now_passing: baseline.entries.filter(passes).map((e) => ({ rule: e.rule, comment: e.comment })),
    unknown_rules: baseline.entries.filter((e) => !byId.has(e.rule)).map((e) => e.rule),
    ...(expired.length ? { expired } : {}),
    ...(baseline.strict ? { strict: true } : {}),
  };
}

/**
 * The gate under --strict-baseline: a run that would pass fails (exit code 1) while baseline entries
 * pass now, so a baseline cannot keep excusing failures that are gone. The verdict stays what the
 * rules say; the console and summary.md say why the exit code is 1.
 */
export function strictBaselineExit(exitCode: number, baseline: Report['baseline']): number {
  return exitCode === EXIT.OK && baseline?.strict && baseline.now_passing.length ? EXIT.MUST_FAILURES : exitCode;
}

/**
 * The target stopped answering mid-run (core/http/answers.ts), named once with the rules it left
 * not judged: those that ended in error on an exchange that got no answer after the last answer.
 */
function stoppedAnswering(input: RunRecord): Report['stopped_answering'] {
  const { silence } = input;
  if (!silence || input.aborted) return undefined;
  // Transcripts are trimmed copies by now (core/engine/transcripts.ts): an exchange is known by its
  // request and the error it got, which the trimming keeps.
  const key = (x: { request: { method: string; url: string }; error?: { kind: string; message: string } }) =>
    `${x.request.method} ${x.request.url} ${x.error?.kind} ${x.error?.message}`;
  const silent = new Set(silence.exchanges.map(key));
  const request = (r: { method: string; url: string; n: number; at: Date }) => ({
    method: r.method,
    url: r.url,
    exchange: r.n,
    at: r.at.toISOString(),
  });
  return {
    last_answered: request(silence.lastAnswered),
    first_unanswered: { ...request(silence.firstUnanswered), error: silence.firstUnanswered.error },
    unanswered_requests: silence.unanswered,
    rules: input.results
      .filter((r) => r.verdict === 'error' && r.transcript.some((x) => x.error && silent.has(key(x))))
      .map((r) => r.id),
  };
}
