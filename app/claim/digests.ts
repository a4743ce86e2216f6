/**
 * SHA256SUMS of a claim directory, in the format `sha256sum -c` checks: one line per file, the hex
 * digest, two spaces, the path relative to the directory (forward slashes), sorted by path.
 */
import { readdirSync, readFileSync, lstatSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { sha256 } from './suite.js';

export const SUMS_FILE = 'SHA256SUMS';

/** The largest file of a claim read (the HAR of a long run is the largest; check-traffic reads as much). */
export const MAX_CLAIM_FILE_BYTES = 256 * 1024 * 1024;

/**
 * The most entries a claim directory is walked to. A claim holds about a dozen files; a directory
 * of thousands is not one, and walking millions would be the reader's cost, not the claim's.
 */
export const MAX_CLAIM_ENTRIES = 1000;

/** A directory with more entries than any claim has. */
export class TooManyEntriesError extends Error {}

/** Every regular file under `dir`, relative, forward slashes, sorted; a link or another kind of entry is named in `odd`. */
export function filesUnder(dir: string): { files: string[]; odd: string[] } {
  const files: string[] = [];
  const odd: string[] = [];
  let entries = 0;
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      if (++entries > MAX_CLAIM_ENTRIES)
        throw new TooManyEntriesError(`more than ${MAX_CLAIM_ENTRIES} files and folders, which no claim has`);
      const path = join(at, name);
      const rel = relative(dir, path).split(sep).join('/');
      const stat = lstatSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) files.push(rel);
      else odd.push(rel);
    }
  };
  walk(dir);
  return { files: files.sort(), odd: odd.sort() };
}

/** The SHA256SUMS text over every file of `dir` but SHA256SUMS itself. */
export function sumsOf(dir: string): string {
  return filesUnder(dir)
    .files.filter((f) => f !== SUMS_FILE)
    .map((f) => `${sha256(readFileSync(join(dir, f)))}  ${f}\n`)
    .join('');
}

/** One line of SHA256SUMS that is not `<64 hex>  <path>`: its number, for the error. */
export class SumsSyntaxError extends Error {}

/** SHA256SUMS read back: path → digest. Text mode (two spaces) and binary mode (space, asterisk) both read. */
export function parseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const [i, line] of lines.entries()) {
    if (line.endsWith('\r'))
      throw new SumsSyntaxError(
        `line ${i + 1} ends with a carriage return (CRLF line ends, as an editor or a checkout on Windows writes them); ${SUMS_FILE} has LF line ends, as sha256sum writes it`,
      );
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (!m) throw new SumsSyntaxError(`line ${i + 1} is not "<sha256>  <file>"`);
    if (sums.has(m[2])) throw new SumsSyntaxError(`line ${i + 1} names ${m[2]} a second time`);
    sums.set(m[2], m[1]);
  }
  return sums;
}
