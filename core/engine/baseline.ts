/**
 * Expected failures (`--expected-failures FILE`): a baseline of known failures, so a CI gate fails
 * on new failures only. Each entry needs a comment saying why the failure is accepted; an optional
 * `reason` must appear in the failure's reason, so a different failure of the same rule is new.
 * A baseline must not rot: an entry may carry `until: YYYY-MM-DD`, after which it excuses nothing
 * (the failure counts as new), and an entry whose rule passes now is always listed — with
 * `--strict-baseline` it fails the run.
 */
import { readFileSync } from 'node:fs';
import { yaml } from '../config/yaml.js';
import { z } from 'zod';
import { ConfigError } from '../config/errors.js';
import { describeIssues } from '../config/load.js';

const DAY_FORMAT = 'write the last day the entry excuses as YYYY-MM-DD, e.g. until: 2026-03-31';

/** A day of the calendar written YYYY-MM-DD: 2026-02-30 is refused, not rolled over into March. */
const isCalendarDay = (text: string) => {
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
};

export const BaselineEntry = z.strictObject({
  rule: z.string().min(1, 'the rule id is required'),
  reason: z.string().min(1).optional(),
  comment: z
    .string({ error: 'a comment is mandatory: say why this failure is accepted' })
    .min(1, 'a comment is mandatory: say why this failure is accepted'),
  until: z
    .string({ error: `not a date: ${DAY_FORMAT}` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `not a date: ${DAY_FORMAT}`, abort: true })
    .refine(isCalendarDay, `no such day: ${DAY_FORMAT}`)
    .optional(),
});
export type BaselineEntry = z.output<typeof BaselineEntry>;

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

/**
 * Reads a baseline file. `now` is the run's clock (injectable for tests): `until` days are held
 * against its day in UTC.
 */
export function loadBaseline(file: string, options: { now?: Date; strict?: boolean } = {}): Baseline {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `Cannot read the expected-failures file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let raw: unknown;
  try {
    raw = yaml().parse(text) ?? [];
  } catch (error) {
    throw new ConfigError(`${file} is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = BaselineFile.safeParse(raw);
  if (!parsed.success) {
    // Report against the list form, which is what people write.
    const list = Array.isArray(raw) ? raw : (raw as { expected_failures?: unknown })?.expected_failures;
    const asList = z.array(BaselineEntry).safeParse(list);
    throw new ConfigError(
      `${file} has problems:`,
      asList.success ? describeIssues(parsed.error.issues) : describeEntryIssues(asList.error.issues, list),
    );
  }
  return {
    file,
    entries: Array.isArray(parsed.data) ? parsed.data : parsed.data.expected_failures,
    today: utcDay(options.now ?? new Date()),
    ...(options.strict ? { strict: true } : {}),
  };
}

/** The entry that excuses a failing rule, if one does: one past its `until` day excuses nothing. */
export function excuse(
  baseline: Baseline | undefined,
  ruleId: string,
  reason: string | undefined,
): BaselineEntry | undefined {
  return baseline?.entries.find(
    (e) =>
      e.rule === ruleId && (e.reason === undefined || (reason ?? '').includes(e.reason)) && !isExpired(e, baseline),
  );
}

/** A ready-to-paste baseline entry for an unexpected failure. */
export function baselineEntryFor(ruleId: string): string {
  return `- rule: ${ruleId}\n  comment: "TODO: why this failure is accepted (ticket, date)"`;
}
