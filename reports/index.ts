/**
 * Writes the report in the formats asked for. Each writer loads lazily, so a run that writes only
 * JSON never loads the XML or HTML code.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ReportFormat } from '../core/config/schema.js';
import type { Report } from '../core/report/schema.js';

export const REPORT_FILES: Record<Exclude<ReportFormat, 'console'>, string> = {
  json: 'report.json',
  junit: 'junit.xml',
  html: 'report.html',
  markdown: 'summary.md',
  ctrf: 'ctrf.json',
};

async function render(format: Exclude<ReportFormat, 'console'>, report: Report): Promise<string> {
  switch (format) {
    case 'json':
      return (await import('./json.js')).renderJson(report);
    case 'junit':
      return (await import('./junit.js')).renderJunit(report);
    case 'html':
      return (await import('./html.js')).renderHtml(report);
    case 'markdown':
      return (await import('./markdown.js')).renderMarkdown(report);
    case 'ctrf':
      return `${JSON.stringify((await import('./ctrf.js')).renderCtrf(report), null, 2)}\n`;
  }
}

export interface WrittenReport {
  format: ReportFormat;
  file?: string;
  /** What could not be written besides the file (the GitHub step summary), in words. */
  warning?: string;
}

/**
 * The summary appended to $GITHUB_STEP_SUMMARY as well. The report files are what the run owes; a
 * step summary that cannot be written is said, not allowed to lose the run's verdict or its exit code.
 */
function stepSummary(text: string, env: NodeJS.ProcessEnv): { warning?: string } {
  if (!env.GITHUB_STEP_SUMMARY) return {};
  try {
    appendFileSync(resolve(env.GITHUB_STEP_SUMMARY), `${text}\n`);
    return {};
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { warning: `could not append the summary to GITHUB_STEP_SUMMARY (${why})` };
  }
}

/** Writes every file format of `formats` into `dir`; the Markdown summary also goes to $GITHUB_STEP_SUMMARY. */
export async function writeReports(
  report: Report,
  dir: string,
  formats: readonly ReportFormat[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<WrittenReport[]> {
  const files = formats.filter((f): f is Exclude<ReportFormat, 'console'> => f !== 'console');
  if (files.length) mkdirSync(dir, { recursive: true });
  const written: WrittenReport[] = [];
  for (const format of new Set(files)) {
    const text = await render(format, report);
    const file = join(dir, REPORT_FILES[format]);
    writeFileSync(file, text);
    written.push({ format, file, ...(format === 'markdown' ? stepSummary(text, env) : {}) });
  }
  return written;
}
