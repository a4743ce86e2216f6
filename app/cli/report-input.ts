/**
 * An earlier report.json read as input (`merge-reports`, `--rerun-failed`): bounded before it is
 * parsed, since parsing takes several times a file's size in memory and every rule is carried
 * through. A report of the whole suite is a few MB and a few hundred rules; the limits leave room
 * for --full-transcripts and any number of shards, and refuse what no run writes.
 */
import { InputFileError, pathShown, readInputFile } from '../../core/config/input-file.js';
import { shown } from '../../reports/terminal.js';
import { UsageError } from './usage.js';

/** The largest report.json read. */
export const MAX_REPORT_BYTES = 128 * 1024 * 1024;
/** The most rules one report.json may hold. */
export const MAX_REPORT_RULES = 20_000;

export { pathShown };

/** The text of `file`, or a usage error naming it (missing, unreadable, not a regular file, too large). */
export function readReportText(file: string, command: string, prefix = ''): string {
  try {
    return readInputFile(file, MAX_REPORT_BYTES, 'a report.json');
  } catch (error) {
    if (error instanceof InputFileError) throw new UsageError(`${prefix}${error.message}.`, command);
    throw error;
  }
}

/** A parse error's message for one line: V8 quotes a snippet of the input, controls and all. */
export const jsonErrorShown = (error: unknown) => shown((error as Error).message, 200);
