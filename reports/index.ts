/**
 * Writes the report in the formats asked for. Each writer loads lazily, so a run that writes only
 * JSON never loads the XML or HTML code.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ReportFormat } from '../core/config/schema.js';
import type { Report } from '../core/report/schema.js';

export const REPORT_FILES: Record<Exclude<ReportFormat, 'console'>, string> = {
  json: 'report.json',
  junit: 'junit.xml',
  html: 'report.html',
  markdown: 'summary.md',
  ctrf: 'ctrf.json',
  sarif: 'report.sarif',
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
    case 'sarif':
      return `${JSON.stringify((await import('./sarif.js')).renderSarif(report), null, 2)}\n`;
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

/**
 * Writes `text` to `file` through a new file beside it, then renames it into place: a reader never
 * sees half a report, and whatever stands at `file` — a symlink someone planted in the report
 * directory — is replaced, never followed (rename(2) replaces the link itself).
 */
export function writeFileSafely(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    // `wx`: the temporary name must not exist yet, so it cannot be a link either.
    writeFileSync(temporary, text, { flag: 'wx', mode: 0o644 });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * Writes every file format of `formats` into `dir`; the Markdown summary also goes to
 * $GITHUB_STEP_SUMMARY. `redact` is the last pass over each file's final text (docs/design.md §6):
 * whatever a writer re-serialised (a JSON body indented again decodes `\u` escapes) is redacted as written.
 */
export async function writeReports(
  report: Report,
  dir: string,
  formats: readonly ReportFormat[],
  env: NodeJS.ProcessEnv = process.env,
  redact: (text: string) => string = (text) => text,
): Promise<WrittenReport[]> {
  const files = formats.filter((f): f is Exclude<ReportFormat, 'console'> => f !== 'console');
  if (files.length) mkdirSync(dir, { recursive: true });
  const written: WrittenReport[] = [];
  for (const format of new Set(files)) {
    const text = redact(await render(format, report));
    const file = join(dir, REPORT_FILES[format]);
    writeFileSafely(file, text);
    written.push({ format, file, ...(format === 'markdown' ? stepSummary(text, env) : {}) });
  }
  return written;
}
