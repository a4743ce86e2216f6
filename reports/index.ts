/**
 * Writes the report in the formats asked for. Each writer loads lazily, so a run that writes only
 * JSON never loads the XML or HTML code.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ReportFormat } from '../src/config/schema.js';
import type { Report } from '../src/report/schema.js';

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
    written.push({ format, file });
    if (format === 'markdown' && env.GITHUB_STEP_SUMMARY) appendFileSync(resolve(env.GITHUB_STEP_SUMMARY), `${text}\n`);
  }
  return written;
}
