/**
 * Expected failures (`--expected-failures FILE`): a baseline of known failures, so a CI gate fails
 * on new failures only. Each entry needs a comment saying why the failure is accepted; an optional
 * `reason` must appear in what the rule expected, in the suite's own words (expectationOf), so a
 * different failure of the same rule is new — and text the target sent, which failure messages
 * quote, can never make it match.
 * A baseline must not rot: an entry may carry `until: YYYY-MM-DD`, after which it excuses nothing
 * (the failure counts as new), and an entry whose rule passes now is always listed — with
 * `--strict-baseline` it fails the run.
 */
import { readBoundedText } from '../config/bounded-file.js';
import { yaml } from '../config/yaml.js';
import { z } from 'zod';
import { ConfigError } from '../config/errors.js';
import { describeIssues } from '../config/load.js';
import { capText, showControls } from '../http/bounds.js';
import type { RuleResult } from './result.js';

/**
 * The largest baseline read, and the most entries it may hold. The suite has some 300 rules, and a
 * baseline one entry or a few per failing rule with a line of comment (300 entries: 30–100 KB):
 * these are far above any real one, and keep a hostile or generated file from costing minutes and
 * gigabytes (a million entries, 51 MB, did: 115 s, 3.6 GB). The size bounds the YAML parse, the
 * costly part (some 4 s for 1 MiB of the smallest entries on a loaded 2-core machine); the entries
 * bound what the run compares and lists.
 */
export const MAX_BASELINE_BYTES = 1024 * 1024;
export const MAX_BASELINE_ENTRIES = 10_000;
/** Problems listed when a baseline is refused; the rest are counted. */
const MAX_PROBLEMS_SHOWN = 20;

const DAY_FORMAT = 'write the last day the entry excuses as YYYY-MM-DD, e.g. until: 2026-03-31';

/** A day of the calendar written YYYY-MM-DD: 2026-02-30 is refused, not rolled over into March. */
const isCalendarDay = (text: string) => {
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
};

/**
 * `until` as YAML gives it: the text as written, or a Date (a caller building entries itself). A
 * Date is the day it falls on in UTC. The file's own timestamps never become Dates (timestampAsWritten),
 * since a YAML 1.1 parser rolls 2026-02-30 over into March.
 */
const dayText = (value: unknown) => (value instanceof Date && !Number.isNaN(value.getTime()) ? utcDay(value) : value);

export const BaselineEntry = z.strictObject({
  rule: z.string().min(1, 'the rule id is required'),
  reason: z.string().min(1).optional(),
  comment: z
    .string({ error: 'a comment is mandatory: say why this failure is accepted' })
    .min(1, 'a comment is mandatory: say why this failure is accepted'),
  until: z
    .preprocess(
      dayText,
      z
        .string({ error: `not a date: ${DAY_FORMAT}` })
        .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `not a date: ${DAY_FORMAT}`, abort: true })
        .refine(isCalendarDay, `no such day: ${DAY_FORMAT}`),
    )
    .optional(),
});
export type BaselineEntry = z.output<typeof BaselineEntry>;

/**
 * YAML 1.1 (a file starting `%YAML 1.1`) reads `until: 2026-12-31` as a timestamp, and `!!timestamp`
 * asks for one in any version; the yaml package then makes a Date, silently rolling an impossible day
 * over (2026-02-30 becomes March 2). Read as the text written, the day is checked like any other.
 */
const timestampAsWritten = {
  tag: 'tag:yaml.org,2002:timestamp',
  test: /^\d{4}-\d\d?-\d\d?(?:(?:t|T|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d+)?(?:[ \t]*(?:Z|[-+]\d\d?(?::\d\d)?))?)?$/,
  resolve: (text: string) => text,
};

const ENTRY_KEYS = Object.keys(BaselineEntry.shape);

const BaselineFile = z.union([z.array(BaselineEntry), z.strictObject({ expected_failures: z.array(BaselineEntry) })]);

export interface Baseline {
  file: string;
  entries: BaselineEntry[];
  /** The run's day (YYYY-MM-DD, UTC) that each `until` is held against; unset: the day it is asked. */
  today?: string;
  /** --strict-baseline / run.strict_baseline: an entry whose rule passes now fails the run. */
  strict?: boolean;
}

/** A day as `until` writes it, in UTC so that a run's verdict does not depend on the machine's zone. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/** Whether an entry's `until` day has passed: it excuses nothing any more. */
export function isExpired(entry: BaselineEntry, baseline: Pick<Baseline, 'today'>): boolean {
  return entry.until !== undefined && entry.until < (baseline.today ?? utcDay(new Date()));
}

/**
 * The problems of a baseline file, each naming the entry (by its place and rule) and the field:
 * `entry 2 (rule notes.x), until: no such day: …`.
 */
function describeEntryIssues(issues: readonly z.core.$ZodIssue[], list: unknown): string[] {
  const entries = Array.isArray(list) ? list : [];
  return issues.flatMap((issue) => {
    const [index, ...field] = issue.path;
    if (typeof index !== 'number') return describeIssues([issue]);
    const rule = (entries[index] as { rule?: unknown } | null)?.rule;
    const entry = `entry ${index + 1}${typeof rule === 'string' && rule ? ` (rule ${rule})` : ''}`;
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => `${entry}, ${key}: unknown field; allowed: ${ENTRY_KEYS.join(', ')}`);
    return [`${entry}${field.length ? `, ${field.map(String).join('.')}` : ''}: ${issue.message}`];
  });
}

/** A file name for a message: control characters written out, bounded. */
const shownPath = (file: string) => showControls(capText(file, 512));

/**
 * Reads a baseline file. `now` is the run's clock (injectable for tests): `until` days are held
 * against its day in UTC. The file is read within MAX_BASELINE_BYTES and MAX_BASELINE_ENTRIES.
 */
export function loadBaseline(file: string, options: { now?: Date; strict?: boolean } = {}): Baseline {
  const shown = shownPath(file);
  const text = readBoundedText(file, { shown, what: 'the expected-failures file', maxBytes: MAX_BASELINE_BYTES });
  let raw: unknown;
  try {
    raw =
      yaml().parse(text, {
        customTags: (tags) => [
          ...tags.filter((t) => (typeof t === 'string' ? t !== 'timestamp' : t.tag !== timestampAsWritten.tag)),
          timestampAsWritten,
        ],
        logLevel: 'error',
      }) ?? [];
  } catch (error) {
    throw new ConfigError(`${shown} is not valid YAML: ${showControls((error as Error).message.split('\n')[0])}`);
  }
  // Counted before validating: every entry's problems would be listed, one line each.
  const list = Array.isArray(raw) ? raw : (raw as { expected_failures?: unknown } | null)?.expected_failures;
  if (Array.isArray(list) && list.length > MAX_BASELINE_ENTRIES)
    throw new ConfigError(
      `${shown} has ${list.length} entries, more than the ${MAX_BASELINE_ENTRIES} an expected-failures file may hold.`,
    );
  const parsed = BaselineFile.safeParse(raw);
  if (!parsed.success) {
    // Report against the list form, which is what people write.
    const asList = z.array(BaselineEntry).safeParse(list);
    const problems = asList.success
      ? describeIssues(parsed.error.issues)
      : describeEntryIssues(asList.error.issues, list);
    // The first problems, then how many more: a generated file may get one wrong on every entry.
    const shownProblems =
      problems.length > MAX_PROBLEMS_SHOWN
        ? [...problems.slice(0, MAX_PROBLEMS_SHOWN), `and ${problems.length - MAX_PROBLEMS_SHOWN} more problems`]
        : problems;
    throw new ConfigError(
      `${shown} has problems:`,
      shownProblems.map((p) => showControls(capText(p, 512))),
    );
  }
  return {
    file,
    entries: Array.isArray(parsed.data) ? parsed.data : parsed.data.expected_failures,
    today: utcDay(options.now ?? new Date()),
    ...(options.strict ? { strict: true } : {}),
  };
}

/**
 * What a baseline's `reason` is matched against: what the rule expected, in the suite's own words —
 * a failure's `expectation` (its label and the expected status or shape, expect.ts), or for a rule
 * not judged its error kind and shared cause. Never the failure's message, which quotes the target:
 * a target could otherwise write a reason into its answer and have a different failure excused.
 * Undefined for a failure whose rule states no expectation apart from what it found (expect.that):
 * only an entry without `reason` excuses it.
 */
export function expectationOf(
  result: Pick<RuleResult, 'verdict' | 'failure' | 'error_kind' | 'cause'>,
): string | undefined {
  if (result.verdict === 'fail') return result.failure?.expectation;
  if (result.verdict === 'error') return `${result.error_kind}${result.cause ? ` (${result.cause})` : ''}`;
  return undefined;
}

/** The entry that excuses a failing rule, if one does: one past its `until` day excuses nothing. */
export function excuse(
  baseline: Baseline | undefined,
  result: Pick<RuleResult, 'id' | 'verdict' | 'failure' | 'error_kind' | 'cause'>,
): BaselineEntry | undefined {
  if (!baseline) return undefined;
  const expected = expectationOf(result);
  return baseline.entries.find(
    (e) =>
      e.rule === result.id &&
      (e.reason === undefined || expected?.includes(e.reason) === true) &&
      !isExpired(e, baseline),
  );
}

/** A ready-to-paste baseline entry for an unexpected failure. */
export function baselineEntryFor(ruleId: string): string {
  return `- rule: ${ruleId}\n  comment: "TODO: why this failure is accepted (ticket, date)"`;
}
