/**
 * Expected failures (`--expected-failures FILE`): a baseline of known failures, so a CI gate fails
 * on new failures only. Each entry needs a comment saying why the failure is accepted; an optional
 * `reason` must appear in the failure's reason, so a different failure of the same rule is new.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../config/errors.js';
import { describeIssues } from '../config/load.js';

export const BaselineEntry = z.strictObject({
  rule: z.string().min(1, 'the rule id is required'),
  reason: z.string().min(1).optional(),
  comment: z
    .string({ error: 'a comment is mandatory: say why this failure is accepted' })
    .min(1, 'a comment is mandatory: say why this failure is accepted'),
});
export type BaselineEntry = z.output<typeof BaselineEntry>;

const BaselineFile = z.union([z.array(BaselineEntry), z.strictObject({ expected_failures: z.array(BaselineEntry) })]);

export interface Baseline {
  file: string;
  entries: BaselineEntry[];
}

export function loadBaseline(file: string): Baseline {
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
    raw = parseYaml(text) ?? [];
  } catch (error) {
    throw new ConfigError(`${file} is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = BaselineFile.safeParse(raw);
  if (!parsed.success) {
    // Report against the list form, which is what people write.
    const asList = z
      .array(BaselineEntry)
      .safeParse(Array.isArray(raw) ? raw : (raw as { expected_failures?: unknown })?.expected_failures);
    throw new ConfigError(
      `${file} has problems:`,
      describeIssues((asList.success ? parsed.error : asList.error).issues),
    );
  }
  return { file, entries: Array.isArray(parsed.data) ? parsed.data : parsed.data.expected_failures };
}

/** The entry that excuses a failing rule, if one does. */
export function excuse(
  baseline: Baseline | undefined,
  ruleId: string,
  reason: string | undefined,
): BaselineEntry | undefined {
  return baseline?.entries.find(
    (e) => e.rule === ruleId && (e.reason === undefined || (reason ?? '').includes(e.reason)),
  );
}

/** A ready-to-paste baseline entry for an unexpected failure. */
export function baselineEntryFor(ruleId: string): string {
  return `- rule: ${ruleId}\n  comment: "TODO: why this failure is accepted (ticket, date)"`;
}
