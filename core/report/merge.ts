/**
 * Merges the reports of CI shards (`--shard i/n`) of one run into one report: the rules of every
 * shard, and totals, scores and the capability matrix recomputed over all of them.
 */
import { ConfigError } from '../config/errors.js';
import { capText, showControls } from '../http/bounds.js';
import { strictBaselineExit, summarize } from './build.js';
import { mergeCoverage } from './coverage.js';
import type { CauseResult, Report, RuleResult } from './schema.js';

/** A value of an input report for a one-line error: controls written out, bounded. */
const quoted = (text: string) => showControls(capText(text, 200));

export function mergeReports(reports: { file: string; report: Report }[]): Report {
  if (reports.length === 0) throw new ConfigError('No reports to merge.');
  const [first] = reports;
  const targets = new Set(reports.map((r) => r.report.target.base_url));
  if (targets.size > 1)
    throw new ConfigError(
      `The reports are of different targets (${[...targets]
        .slice(0, 5)
        .map((u) => quoted(u))
        .join(', ')}${targets.size > 5 ? `, and ${targets.size - 5} more` : ''}); merge the shards of one run.`,
    );

  // Shards of one run share their configuration too: the same URL judged with other fixtures or
  // templates is another run, and its verdicts do not add up with these.
  const digests = new Set(reports.map((r) => r.report.target.config_digest ?? 'none'));
  if (digests.size > 1)
    throw new ConfigError(
      `The reports were run with different configurations (config digests ${[...digests]
        .slice(0, 5)
        .map((d) => quoted(d))
        .join(', ')}); merge the shards of one run.`,
    );

  const seen = new Map<string, string>();
  const rules: RuleResult[] = [];
  // Each shard ran the setup chain itself: its causes merge by id; groups of rules that ended the same
  // way (exchange.<n>, not-judged.<n>) are numbered per shard, so they stay per shard.
  const causes = new Map<string, CauseResult>();
  for (const [index, { report }] of reports.entries()) {
    const rename = (id: string) => {
      const group = /^(exchange|not-judged)\.(.*)$/.exec(id);
      return group && index > 0 ? `${group[1]}.s${index + 1}.${group[2]}` : id;
    };
    for (const rule of report.rules) if (rule.cause) rule.cause = rename(rule.cause);
    for (const cause of report.causes ?? []) {
      const id = rename(cause.id);
      const known = causes.get(id);
      causes.set(id, known ? { ...known, rules: [...new Set([...known.rules, ...cause.rules])] } : { ...cause, id });
    }
  }
  for (const { file, report } of reports) {
    for (const rule of report.rules) {
      const earlier = seen.get(rule.id);
      if (earlier && rule.id !== 'run.preflight')
        throw new ConfigError(
          `Rule ${quoted(rule.id)} is in both ${quoted(earlier)} and ${quoted(file)}; merge the reports of different shards of one run.`,
        );
      seen.set(rule.id, file);
      rules.push(rule);
    }
  }

  const all = reports.map((r) => r.report);
  const strict = all.some((r) => r.run.strict);
  const aborted = all.every((r) => r.aborted);
  // One shard interrupted leaves the merged run interrupted: its rules were not all judged.
  const interrupted = all.find((r) => r.interrupted)?.interrupted;
  const started = all.reduce((t, r) => Math.min(t, Date.parse(r.run.started_at)), Number.POSITIVE_INFINITY);
  const finished = all.reduce((t, r) => Math.max(t, Date.parse(r.run.finished_at)), Number.NEGATIVE_INFINITY);
  const baselines = all.flatMap((r) => (r.baseline ? [r.baseline] : []));
  const baseline = mergedBaseline(baselines, rules);
  const summarized = summarize(rules, strict, aborted, [], !!interrupted && !aborted);
  summarized.summary.exit_code = strictBaselineExit(summarized.summary.exit_code, baseline);
  const { shard: _shard, ...selection } = first.report.run.selection;

  const coverages = all.flatMap((r) => (r.coverage ? [r.coverage] : []));
  // A shard whose target stopped answering: the first to stop is named (its exchange numbers are that
  // shard's own), with every rule any shard lost to it.
  const stops = all.flatMap((r) => (r.stopped_answering ? [r.stopped_answering] : []));
  const [firstStop] = [...stops].sort((a, b) => a.last_answered.at.localeCompare(b.last_answered.at));

  return {
    ...first.report,
    run: {
      ...first.report.run,
      id: [...new Set(all.map((r) => r.run.id))].join('+'),
      strict,
      started_at: new Date(started).toISOString(),
      finished_at: new Date(finished).toISOString(),
      duration_ms: finished - started,
      selection,
      bailed: all.some((r) => r.run.bailed),
    },
    ...summarized,
    causes: [...causes.values()],
    ...(aborted ? { aborted: first.report.aborted } : { aborted: undefined }),
    ...(interrupted && !aborted
      ? {
          interrupted: {
            ...interrupted,
            not_judged: rules.filter((r) => r.error_kind === 'interrupted').length,
          },
        }
      : { interrupted: undefined }),
    rules,
    ...(baseline ? { baseline } : {}),
    created_identifiers: {
      external_account_numbers: all.flatMap((r) => r.created_identifiers.external_account_numbers),
      business_identifiers: all.flatMap((r) => r.created_identifiers.business_identifiers),
      contract_identifiers: all.flatMap((r) => r.created_identifiers.contract_identifiers),
      other: all.reduce((n, r) => n + r.created_identifiers.other, 0),
    },
    ...(coverages.length ? { coverage: mergeCoverage(coverages) } : { coverage: undefined }),
    ...(firstStop
      ? { stopped_answering: { ...firstStop, rules: [...new Set(stops.flatMap((s) => s.rules))] } }
      : { stopped_answering: undefined }),
    http: {
      requests: all.reduce((n, r) => n + r.http.requests, 0),
      failures: all.reduce((n, r) => n + r.http.failures, 0),
      token_renewals: all.reduce((n, r) => n + r.http.token_renewals, 0),
      token_refused_mid_run: all.reduce((n, r) => n + r.http.token_refused_mid_run, 0),
      ...(all.find((r) => r.http.token_renewal_stopped)
        ? { token_renewal_stopped: all.find((r) => r.http.token_renewal_stopped)?.http.token_renewal_stopped }
        : {}),
    },
  };
}

/** The shards' baseline (the same file): what passes in any shard passes; unknown only if no shard knew the rule. */
function mergedBaseline(baselines: NonNullable<Report['baseline']>[], rules: Report['rules']): Report['baseline'] {
  if (!baselines.length) return undefined;
  const nowPassing = [...new Map(baselines.flatMap((b) => b.now_passing).map((e) => [e.rule, e])).values()];
  const known = baselines.map((b) => new Set(b.unknown_rules));
  const passing = new Set(nowPassing.map((e) => e.rule));
  // A shard lists an expired entry of a rule another shard ran and saw pass: that one is stale, not
  // expired; nor is one of a rule another shard saw excused by a live entry (build.ts baselineSummary).
  const excused = new Set(rules.filter((r) => r.expected_failure).map((r) => r.id));
  const expired = [
    ...new Map(baselines.flatMap((b) => b.expired ?? []).map((e) => [`${e.rule} ${e.until}`, e])).values(),
  ].filter((e) => !passing.has(e.rule) && !excused.has(e.rule));
  return {
    file: baselines[0].file,
    entries: baselines[0].entries,
    now_passing: nowPassing,
    unknown_rules: baselines[0].unknown_rules.filter((id) => known.every((s) => s.has(id))),
    ...(expired.length ? { expired } : {}),
    ...(baselines.some((b) => b.strict) ? { strict: true } : {}),
  };
}
