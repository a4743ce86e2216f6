/**
 * An earlier report.json read as input (`merge-reports`, `--rerun-failed`): bounded before it is
 * parsed, since parsing takes several times a file's size in memory and every rule is carried
 * through. A report of the whole suite is a few MB and a few hundred rules; the limits leave room
 * for --full-transcripts and any number of shards, and refuse what no run writes.
 */
import { readFileSync, statSync } from 'node:fs';
import { shown } from '../../reports/terminal.js';
import { UsageError } from './usage.js';

/** The largest report.json read. */
export const MAX_REPORT_BYTES = 128 * 1024 * 1024;
/** The most rules one report.json may hold. */
export const MAX_REPORT_RULES = 20_000;

/** A path for a message: controls written out, bounded. */
export const pathShown = (file: string) => shown(file, 512);

/** The text of `file`, or a usage error naming it (missing, unreadable, a directory, too large). */
export function readReportText(file: string, command: string, prefix = ''): string {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    throw new UsageError(`${prefix}cannot read ${pathShown(file)} (${codeOf(error)}).`, command);
  }
  if (size > MAX_REPORT_BYTES)
    throw new UsageError(
      `${prefix}${pathShown(file)} is ${size} bytes, more than a report.json is read at (${MAX_REPORT_BYTES / 1024 / 1024} MiB).`,
      command,
    );
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${prefix}cannot read ${pathShown(file)} (${codeOf(error)}).`, command);
  }
}

/** A parse error's message for one line: V8 quotes a snippet of the input, controls and all. */
export const jsonErrorShown = (error: unknown) => shown((error as Error).message, 200);

const codeOf = (error: unknown) => shown((error as NodeJS.ErrnoException).code ?? (error as Error).message, 200);
