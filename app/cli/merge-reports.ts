/** `conformance merge-reports`: one set of reports from the reports of CI shards. */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { dotPath } from '../../core/spec/paths.js';
import { shown } from '../../reports/terminal.js';
import { MAX_REPORT_BYTES, MAX_REPORT_RULES, jsonErrorShown, pathShown, readReportText } from './report-input.js';
import type { Command } from './usage.js';
import { EXIT, UsageError, parseCommandLine } from './usage.js';

const isDirectory = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

const help = `Usage: conformance merge-reports DIR... [options]

Merges the report.json of several runs — the shards of one run ("--shard 1/3" ... "--shard 3/3") —
into one set of reports: totals, section scores and the capability matrix are recomputed over all
rules. Each DIR is a report directory (or a report.json file). Exits like the run: 0 conformant,
1 MUST failures, 2 usage error.

Each input is read only within bounds: a report.json over ${MAX_REPORT_BYTES / 1024 / 1024} MiB or with more than
${MAX_REPORT_RULES.toLocaleString('en')} rules is refused (exit 2), as is one that is not JSON or not a report of this
tool, naming the file and the field. Reports of another base URL or another configuration (their
recorded config digest) are another run, and are refused too.

Options:
  --report-dir DIR   where to write the merged reports (default conformance-report)
  --reporter FMT     console, json, junit, html, markdown, ctrf, sarif (repeatable; default all
                     but sarif)`;

const options = { 'report-dir': { type: 'string' }, reporter: { type: 'string', multiple: true } } as const;

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, options, 'merge-reports', true);
  if (positionals.length === 0)
    throw new UsageError('Name at least one report directory (or report.json) to merge.', 'merge-reports');
  const [
    { ReportSchema },
    { mergeReports },
    { writeReports },
    { ConsoleReporter },
    { DEFAULT_REPORT_FORMATS, REPORT_FORMATS },
    { ConfigError },
  ] = await Promise.all([
    import('../../core/report/schema.js'),
    import('../../core/report/merge.js'),
    import('../../reports/index.js'),
    import('../../reports/console.js'),
    import('../../core/config/schema.js'),
    import('../../core/config/errors.js'),
  ]);
  const formats = (values.reporter?.flatMap((r) => r.split(',')).map((r) => r.trim()) ?? [
    ...DEFAULT_REPORT_FORMATS,
  ]) as (typeof REPORT_FORMATS)[number][];
  for (const f of formats)
    if (!(REPORT_FORMATS as readonly string[]).includes(f))
      throw new UsageError(
        `--reporter must be one of ${REPORT_FORMATS.join(', ')}, got "${shown(f, 200)}".`,
        'merge-reports',
      );

  const reports = positionals.map((p) => {
    const file = isDirectory(p) ? join(p, 'report.json') : p;
    const text = readReportText(file, 'merge-reports');
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${pathShown(file)} is not JSON: ${jsonErrorShown(error)}`, 'merge-reports');
    }
    // Counted before the schema reads every rule: a report of 500k rules is refused at once.
    const count = (raw as { rules?: unknown } | null)?.rules;
    if (Array.isArray(count) && count.length > MAX_REPORT_RULES)
      throw new UsageError(
        `${pathShown(file)}: rules: ${count.length} rules, more than one report is merged with (${MAX_REPORT_RULES}).`,
        'merge-reports',
      );
    const parsed = ReportSchema.safeParse(raw);
    if (!parsed.success) {
      const [issue] = parsed.error.issues;
      throw new UsageError(
        `${pathShown(file)} is not a report.json of this tool: ${shown(dotPath(issue.path), 200)}: ${shown(issue.message, 200)}`,
        'merge-reports',
      );
    }
    return { file, report: parsed.data };
  });
  let merged: ReturnType<typeof mergeReports>;
  try {
    merged = mergeReports(reports);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message, 'merge-reports');
    throw error;
  }
  const written = await writeReports(merged, values['report-dir'] ?? 'conformance-report', formats);
  if (formats.includes('console')) new ConsoleReporter().summary(merged, written);
  return merged.summary.exit_code === EXIT.UNREACHABLE ? EXIT.UNREACHABLE : merged.summary.exit_code;
}

export const mergeReportsCommand: Command = { help, run };
