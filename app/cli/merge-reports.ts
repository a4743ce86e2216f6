/** `conformance merge-reports`: one set of reports from the reports of CI shards. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from './usage.js';
import { EXIT, UsageError, parseCommandLine } from './usage.js';
import { dotPath } from '../../core/spec/paths.js';

const help = `Usage: conformance merge-reports DIR... [options]

Merges the report.json of several runs — the shards of one run ("--shard 1/3" ... "--shard 3/3") —
into one set of reports: totals, section scores and the capability matrix are recomputed over all
rules. Each DIR is a report directory (or a report.json file). Exits like the run: 0 conformant,
1 MUST failures, 2 usage error.

Options:
  --report-dir DIR   where to write the merged reports (default conformance-report)
  --reporter FMT     console, json, junit, html, markdown, ctrf (repeatable; default all)`;

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
    { REPORT_FORMATS },
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
    ...REPORT_FORMATS,
  ]) as (typeof REPORT_FORMATS)[number][];
  for (const f of formats)
    if (!(REPORT_FORMATS as readonly string[]).includes(f))
      throw new UsageError(`--reporter must be one of ${REPORT_FORMATS.join(', ')}, got "${f}".`, 'merge-reports');

  const reports = positionals.map((p) => {
    const file = existsSync(p) && statSync(p).isDirectory() ? join(p, 'report.json') : p;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new UsageError(
        `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        'merge-reports',
      );
    }
    const parsed = ReportSchema.safeParse(raw);
    if (!parsed.success)
      throw new UsageError(
        `${file} is not a report.json of this tool: ${dotPath(parsed.error.issues[0].path)}: ${parsed.error.issues[0].message}`,
        'merge-reports',
      );
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
