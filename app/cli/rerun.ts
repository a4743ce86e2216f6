/**
 * `--rerun-failed report.json`: the rules an earlier report left failing or not judged (fail,
 * error, or a skip not accepted), run again with the seed that report recorded against the target
 * it recorded (base URL, auth mode, configuration digest), and each one's outcome said as FIXED,
 * STILL FAILING or STILL NOT JUDGED. A pass against another target fixes nothing: such a re-run is
 * refused unless asked for on purpose (--rerun-target-changed), and its passes never read FIXED.
 */
import { type DigestInput, targetConfigDigest } from '../../core/config/digest.js';
import type { Report } from '../../core/report/schema.js';
import { currentRuleId } from '../../core/engine/renamed.js';
import { shown } from '../../reports/terminal.js';
import { MAX_REPORT_RULES, pathShown, readReportText } from './report-input.js';
import { UsageError } from './usage.js';

/** What an earlier report left to judge again. */
export interface Rerun {
  /** The report's path as printed: its control characters written out. */
  file: string;
  /** The seed the report recorded. */
  seed: number;
  /** The rules to run again, with their verdict then. */
  rules: { id: string; was: 'fail' | 'error' | 'skip' }[];
  /** Rules of the report no suite has now (renamed or removed): named, not run. */
  unknown: { id: string; was: 'fail' | 'error' | 'skip' }[];
  /** The target the report recorded; unset for a report made before reports recorded their configuration. */
  target?: RecordedTarget;
  /** Set when this run judges another target than the report's, on purpose: no outcome is FIXED. */
  otherTarget?: boolean;
}

/** A target as a report records it (its base URL with any credentials redacted). */
export interface RecordedTarget {
  base_url: string;
  embedded: boolean;
  auth: 'token' | 'api_key';
  config_digest: string;
}

/** The recorded target when the report has one in full, else undefined (an older report). */
function recordedTarget(target: unknown): RecordedTarget | undefined {
  const t = target as Partial<RecordedTarget> | undefined;
  if (
    typeof t?.base_url !== 'string' ||
    typeof t.embedded !== 'boolean' ||
    (t.auth !== 'token' && t.auth !== 'api_key') ||
    typeof t.config_digest !== 'string'
  )
    return undefined;
  return { base_url: t.base_url, embedded: t.embedded, auth: t.auth, config_digest: t.config_digest };
}

/** A base URL without credentials and trailing slashes, so the same server compares equal however written. */
function sameUrl(a: string, b: string): boolean {
  const plain = (u: string) => {
    try {
      const url = new URL(u);
      url.username = '';
      url.password = '';
      return url.href.replace(/\/+$/, '');
    } catch {
      return u.replace(/\/+$/, '');
    }
  };
  return plain(a) === plain(b);
}

/** Whether a recorded base URL carries (redacted) credentials: it cannot be reused as it stands. */
export function hasCredentials(baseUrl: string): boolean {
  try {
    const url = new URL(baseUrl);
    return url.username !== '' || url.password !== '';
  } catch {
    return true;
  }
}

/**
 * How the target of this run differs from the recorded one, in words ("" when it is the same).
 * The embedded reference server is one target whatever port it was given.
 */
export function targetDifference(
  was: RecordedTarget,
  now: { baseUrl?: string; auth: 'token' | 'api_key'; configDigest: string },
): string {
  const where = (embedded: boolean, url?: string) =>
    embedded ? 'the embedded reference server' : shown(url ?? '', 200);
  const differences: string[] = [];
  const embeddedNow = now.baseUrl === undefined;
  if (was.embedded !== embeddedNow || (!embeddedNow && !sameUrl(was.base_url, now.baseUrl!)))
    differences.push(`${where(was.embedded, was.base_url)}, now ${where(embeddedNow, now.baseUrl)}`);
  if (was.auth !== now.auth) differences.push(`auth ${was.auth}, now ${now.auth}`);
  if (was.config_digest !== now.configDigest)
    differences.push(
      `configuration ${shown(was.config_digest, 80)}, now ${now.configDigest} (fixtures, payloads, account or auth settings differ)`,
    );
  return differences.join('; ');
}

type OldRule = { id?: unknown; verdict?: unknown; skip_accepted?: unknown };

/** Reads the report; a missing, unreadable or oversized one is a usage error that says what is wrong. */
export function loadRerun(file: string, known: ReadonlySet<string>): Rerun {
  const name = pathShown(file);
  const text = readReportText(file, 'run', '--rerun-failed: ');
  let doc: { run?: { seed?: unknown; kind?: unknown }; rules?: unknown; aborted?: unknown; target?: unknown };
  try {
    doc = JSON.parse(text);
  } catch {
    throw new UsageError(`--rerun-failed: ${name} is not JSON; give the report.json of an earlier run.`, 'run');
  }
  // A traffic report judged exchanges someone else sent: there is no request of ours to send again.
  if (typeof doc === 'object' && doc !== null && doc.run?.kind === 'traffic')
    throw new UsageError(
      `--rerun-failed: ${name} is the report of recorded traffic (check-traffic or proxy), which judged requests a client sent; there is nothing of the suite's to re-run. Record the client's traffic again and judge it with check-traffic.`,
      'run',
    );
  if (typeof doc !== 'object' || doc === null || !Array.isArray(doc.rules) || typeof doc.run?.seed !== 'number')
    throw new UsageError(
      `--rerun-failed: ${name} is not a conformance report.json (no rules array or run.seed); give the report.json of an earlier run.`,
      'run',
    );
  if (doc.rules.length > MAX_REPORT_RULES)
    throw new UsageError(
      `--rerun-failed: ${name} has ${doc.rules.length} rules, more than a report.json is read with (${MAX_REPORT_RULES}).`,
      'run',
    );
  if (doc.aborted)
    throw new UsageError(
      `--rerun-failed: no rule ran in ${name} (the run was aborted before the first rule); run the suite in full instead.`,
      'run',
    );
  // Each id once: a report naming a rule twice runs it once.
  const left = new Map<string, Rerun['rules'][number]>();
  for (const r of doc.rules as OldRule[]) {
    if (typeof r?.id !== 'string') continue;
    // A report from before one name per endpoint names its rules by their old ids (core/engine/renamed.ts).
    const id = currentRuleId(r.id, known) ?? r.id;
    if (left.has(id)) continue;
    const v = r.verdict;
    if (v === 'fail' || v === 'error' || (v === 'skip' && r.skip_accepted !== true)) left.set(id, { id, was: v });
  }
  const all = [...left.values()];
  const target = recordedTarget(doc.target);
  return {
    file: name,
    seed: doc.run.seed,
    rules: all.filter((r) => known.has(r.id)),
    unknown: all.filter((r) => !known.has(r.id)),
    ...(target ? { target } : {}),
  };
}

/** The settings of this run that name its target: as resolved, credentials in them never shown. */
export interface TargetNow extends DigestInput {
  baseUrl?: string;
  auth?: DigestInput['auth'] & { token?: string };
  transport?: { headers?: Record<string, string> };
}

/**
 * Aims the re-run at the report's target: its base URL when none is given now (not for the embedded
 * server, which is started anew), then compares. Another target (base URL, auth mode, configuration
 * digest) is a usage error unless `changed` (--rerun-target-changed) says it is meant; so is a report
 * that recorded no configuration (made by an earlier version): nothing shows it is the same target.
 * Returns the base URL to use when it came from the report, and marks `rerun.otherTarget`.
 */
export function aimRerun(rerun: Rerun, now: TargetNow, changed: boolean): { adopted?: string; note?: string } {
  const was = rerun.target;
  if (!was) {
    if (!changed)
      throw new UsageError(
        `--rerun-failed: ${rerun.file} records no target configuration (made by an earlier version), so nothing shows this run judges the same target; give the target (--base-url, --config) and --rerun-target-changed to judge it there (its passes are then not called FIXED), or run the suite in full.`,
        'run',
      );
    rerun.otherTarget = true;
    return { note: `${rerun.file} records no target configuration: its rules are judged against this target.` };
  }
  let adopted: string | undefined;
  if (now.baseUrl === undefined && !was.embedded) {
    if (hasCredentials(was.base_url))
      throw new UsageError(
        `--rerun-failed: ${rerun.file} was made against a base URL with credentials in it (not recorded); give it again with --base-url.`,
        'run',
      );
    adopted = was.base_url;
  }
  const baseUrl = adopted ?? now.baseUrl;
  const embedded = baseUrl === undefined;
  const difference = targetDifference(was, {
    baseUrl,
    auth: embedded || !now.auth?.token ? 'api_key' : 'token',
    configDigest: targetConfigDigest({ ...now, headerNames: Object.keys(now.transport?.headers ?? {}) }, embedded),
  });
  if (difference && !changed)
    throw new UsageError(
      `--rerun-failed: ${rerun.file} was made against another target (${difference}); give its target, or add --rerun-target-changed to judge this one on purpose (its passes are then not called FIXED).`,
      'run',
    );
  if (difference) rerun.otherTarget = true;
  return {
    ...(adopted ? { adopted } : {}),
    ...(adopted ? { note: `Re-run against ${shown(adopted, 200)}, the target ${rerun.file} recorded.` } : {}),
    ...(difference ? { note: `Re-run against another target than ${rerun.file}'s, on purpose: ${difference}.` } : {}),
  };
}

export type RerunOutcome =
  | 'FIXED'
  | 'STILL FAILING'
  | 'STILL NOT JUDGED'
  | 'NOW FAILING'
  | 'NOT RUN'
  | 'PASSES HERE'
  | 'FAILS HERE'
  | 'NOT JUDGED HERE';

/**
 * What became of each rule run again: by its verdict now (an accepted skip counts as judged nothing).
 * Against another target than the report's, a verdict says what this target does, never FIXED.
 */
export function rerunOutcomes(rerun: Rerun, report: Report): { id: string; was: string; outcome: RerunOutcome }[] {
  const now = new Map(report.rules.map((r) => [r.id, r]));
  return rerun.rules.map(({ id, was }) => {
    const r = now.get(id);
    const outcome: RerunOutcome = !r
      ? 'NOT RUN'
      : rerun.otherTarget
        ? r.verdict === 'pass'
          ? 'PASSES HERE'
          : r.verdict === 'fail'
            ? 'FAILS HERE'
            : 'NOT JUDGED HERE'
        : r.verdict === 'pass'
          ? 'FIXED'
          : r.verdict === 'fail'
            ? was === 'fail'
              ? 'STILL FAILING'
              : 'NOW FAILING'
            : 'STILL NOT JUDGED';
    return { id, was, outcome };
  });
}

const WAS: Record<string, string> = { fail: 'failed', error: 'error, not judged', skip: 'skipped, not judged' };

/** The lines printed before the reports: one per rule, then the unknown ones, then the tally. */
export function rerunLines(rerun: Rerun, report: Report): string[] {
  const outcomes = rerunOutcomes(rerun, report);
  const width = outcomes.reduce((w, o) => Math.max(w, o.outcome.length), 0);
  const tally = new Map<string, number>();
  for (const o of outcomes) tally.set(o.outcome, (tally.get(o.outcome) ?? 0) + 1);
  return [
    `Re-run of ${outcomes.length} rule${outcomes.length === 1 ? '' : 's'} left failing or not judged in ${rerun.file} (seed ${report.run.seed})${rerun.otherTarget ? ', against another target than its own (--rerun-target-changed): each says what this target does, not what was fixed' : ''}:`,
    ...outcomes.map((o) => `  ${o.outcome.padEnd(width)}  ${o.id}  (was ${WAS[o.was]})`),
    ...unknownLines(rerun),
    `Re-run: ${[...tally].map(([k, n]) => `${n} ${k}`).join(', ') || 'nothing run'}${rerun.unknown.length ? `, ${rerun.unknown.length} unknown` : ''}.`,
  ];
}

/** Unknown rule ids named one per line; the rest are counted. */
export const UNKNOWN_NAMED = 20;

/**
 * The rules of the old report no rule answers to now: the first UNKNOWN_NAMED one line each, the
 * rest counted. An id is the old report's text, so it is shown with its controls written out and
 * cut short: it can neither drive the terminal nor forge a line.
 */
export function unknownLines(rerun: Rerun): string[] {
  const named = rerun.unknown
    .slice(0, UNKNOWN_NAMED)
    .map(
      (u) =>
        `  UNKNOWN RULE  ${shown(u.id, 200)}  (was ${WAS[u.was]}; no rule has this id now: renamed or removed, not run)`,
    );
  const rest = rerun.unknown.length - named.length;
  return rest > 0 ? [...named, `  … and ${rest} more unknown rule ids, not run`] : named;
}
