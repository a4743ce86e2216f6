/**
 * Files the user names (a CA, a client certificate and key, an earlier report) read within bounds.
 * `readFileSync` alone trusts the path: a FIFO blocks the process forever (opening one for reading
 * waits for a writer), and a device such as /dev/zero reports size 0 and then never ends, so a
 * mistyped path or a hostile config hangs the run or fills its memory. Here only a regular file is
 * read, its size is checked before a byte of it is, and nothing past the cap is ever held.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { capText, showControls } from '../http/bounds.js';

/** Why a named file was not read; the caller prefixes the flag or config key it came from. */
export class InputFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputFileError';
  }
}

/** A path for a message: control characters written out, bounded. */
export const pathShown = (file: string) => showControls(capText(file, 512));

/** What a file that is not a regular one is, in words. */
function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Read at a time: a certificate in one go, a large report in a few dozen. */
const CHUNK_BYTES = 4 * 1024 * 1024;

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 100) / 100} MiB`;

function checked(path: string, stats: Stats, maxBytes: number, what: string): void {
  if (!stats.isFile())
    throw new InputFileError(`${pathShown(path)} is ${kindOf(stats)}; ${what} is read only from a regular file`);
  if (stats.size > maxBytes)
    throw new InputFileError(
      `${pathShown(path)} is ${stats.size} bytes, more than ${what} is read at (${mib(maxBytes)})`,
    );
}

const unreadable = (path: string, error: unknown) =>
  new InputFileError(
    `cannot read ${pathShown(path)} (${showControls(capText((error as NodeJS.ErrnoException).code ?? (error as Error).message, 200))})`,
  );

/**
 * The text (UTF-8) of the regular file at `path`, at most `maxBytes` long, or an InputFileError that
 * says what is wrong: missing, unreadable, not a regular file (a FIFO, a device, a directory, a
 * socket), or too large. `what` names the contents for the message ("a certificate").
 *
 * Symbolic links are followed (stat, not lstat): certificates are commonly links (/etc/ssl/certs, a
 * Kubernetes secret's `..data`), and what matters is what the link leads to. The path is checked
 * before it is opened, so a FIFO is never opened; it is opened non-blocking all the same and checked
 * again through the descriptor, so one swapped in between cannot block either; and at most one byte
 * past the cap is read, so a file that grows while it is read is refused, never held whole.
 */
export function readInputFile(path: string, maxBytes: number, what: string): string {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    throw unreadable(path, error);
  }
  checked(path, stats, maxBytes, what);
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer. It is
    // undefined on Windows, which has no such files.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch (error) {
    throw unreadable(path, error);
  }
  try {
    checked(path, fstatSync(fd), maxBytes, what);
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      // Never more than one byte past the cap: enough to tell a file that grew while it was read.
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - length));
      let n: number;
      try {
        n = readSync(fd, chunk, 0, chunk.length, null);
      } catch (error) {
        throw unreadable(path, error);
      }
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      length += n;
      if (length > maxBytes)
        throw new InputFileError(`${pathShown(path)} grew past ${mib(maxBytes)} while it was read`);
    }
    return Buffer.concat(chunks, length).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
