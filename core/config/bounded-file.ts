/**
 * A small input file read within a size limit: a regular file only, its size checked before a byte
 * is read, and never more than the limit read whatever the file does meanwhile. A FIFO or a device
 * named as a file would otherwise block the run, or feed it without end (`/dev/zero`); a huge file
 * would be read whole and parsed at several times its size.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { ConfigError } from './errors.js';

/** What a refusal names: the file as the user wrote it, and what the file is. */
export interface BoundedRead {
  /** The file as the user named it, for messages. */
  shown: string;
  /** What the file holds, for messages: "the expected-failures file". */
  what: string;
  maxBytes: number;
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

const sizeWords = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : bytes >= 1024 ? `${bytes / 1024} KiB` : `${bytes} bytes`;

function refuseKind(stats: { isFile(): boolean; isDirectory(): boolean }, read: BoundedRead): void {
  if (stats.isFile()) return;
  const kind = stats.isDirectory() ? 'a directory' : 'not a regular file (a FIFO, socket or device)';
  throw new ConfigError(`Cannot read ${read.what} ${read.shown}: it is ${kind}.`);
}

function refuseSize(size: number, read: BoundedRead): void {
  if (size <= read.maxBytes) return;
  throw new ConfigError(
    `${read.what[0].toUpperCase()}${read.what.slice(1)} ${read.shown} is ${size} bytes, more than the ${sizeWords(read.maxBytes)} it may hold.`,
  );
}

/** The text of `file` (UTF-8), or a ConfigError naming it: missing, not a regular file, or over the limit. */
export function readBoundedText(file: string, read: BoundedRead): string {
  // stat, not open: opening a FIFO for reading blocks until a writer comes.
  try {
    const stats = statSync(file);
    refuseKind(stats, read);
    refuseSize(stats.size, read);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`Cannot read ${read.what} ${read.shown}: ${code(error)}`);
  }
  let fd: number;
  try {
    // Non-blocking, so that a file swapped for a FIFO after the stat still cannot hold the open.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw new ConfigError(`Cannot read ${read.what} ${read.shown}: ${code(error)}`);
  }
  try {
    // The file opened is the one judged: checked again on the descriptor.
    const stats = fstatSync(fd);
    refuseKind(stats, read);
    refuseSize(stats.size, read);
    // One byte past the limit tells a file that grew since from one that did not.
    const buffer = Buffer.alloc(read.maxBytes + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > read.maxBytes) refuseSize(length, read);
    }
    return buffer.toString('utf8', 0, length);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`Cannot read ${read.what} ${read.shown}: ${code(error)}`);
  } finally {
    closeSync(fd);
  }
}
