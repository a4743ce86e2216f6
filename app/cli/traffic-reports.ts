/**
 * What `conformance proxy` and `conformance check-traffic` share: both judge exchanges someone else
 * made (a supplier's client, staging traffic) with the same checks (app/traffic/checks.ts) and write
 * the same reports as a run.
 */
import type { ReportFormat } from '../../core/config/schema.js';
import type { Report } from '../../core/report/schema.js';
import { shown } from '../../reports/terminal.js';
import { UsageError } from './usage.js';

export const reportOptions = {
  'report-dir': { type: 'string' },
  reporter: { type: 'string', multiple: true },
} as const;

export async function formatsOf(reporter: string[] | undefined, command: string): Promise<ReportFormat[]> {
  const { DEFAULT_REPORT_FORMATS, REPORT_FORMATS } = await import('../../core/config/schema.js');
  const formats = (reporter?.flatMap((r) => r.split(',')).map((r) => r.trim()) ?? [
    ...DEFAULT_REPORT_FORMATS,
  ]) as ReportFormat[];
  for (const f of formats)
    if (!(REPORT_FORMATS as readonly string[]).includes(f))
      throw new UsageError(`--reporter must be one of ${REPORT_FORMATS.join(', ')}, got "${shown(f, 200)}".`, command);
  return formats;
}

/** Writes the reports (the console summary included when asked) and returns the exit code. */
export async function publish(report: Report, dir: string, formats: ReportFormat[]): Promise<number> {
  const [{ writeReports }, { ConsoleReporter }] = await Promise.all([
    import('../../reports/index.js'),
    import('../../reports/console.js'),
  ]);
  const written = await writeReports(report, dir, formats);
  if (formats.includes('console')) new ConsoleReporter().summary(report, written);
  return report.summary.exit_code;
}
