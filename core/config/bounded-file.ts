/**
 * A small input file the user names (the expected-failures baseline), read through the one bounded
 * reader (core/files/read-bounded.ts: a regular file only, its size checked before a byte is read,
 * never more than the limit read), its refusal said as a ConfigError that names the file.
 */
import { FileRefusedError, readBounded } from '../files/read-bounded.js';
import { ConfigError } from './errors.js';

/** What a refusal names: the file as the user wrote it, and what the file is. */
export interface BoundedRead {
  /** The file as the user named it, for messages. */
  shown: string;
  /** What the file holds, for messages: "the expected-failures file". */
  what: string;
  maxBytes: number;
}

const sizeWords = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : bytes >= 1024 ? `${bytes / 1024} KiB` : `${bytes} bytes`;

/** The text of `file` (UTF-8), or a ConfigError naming it: missing, not a regular file, or over the limit. */
export function readBoundedText(file: string, read: BoundedRead): string {
  try {
    // The user names it: a link to it is theirs to make, and what it points to is judged.
    return readBounded(file, { maxBytes: read.maxBytes, followLinks: true }).toString('utf8');
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error;
    const What = `${read.what[0].toUpperCase()}${read.what.slice(1)}`;
    switch (error.because) {
      case 'too-large':
        throw new ConfigError(
          `${What} ${read.shown} is ${error.detail.size !== undefined ? `${error.detail.size} bytes` : 'growing'}, more than the ${sizeWords(read.maxBytes)} it may hold.`,
        );
      case 'not-regular':
        throw new ConfigError(
          `Cannot read ${read.what} ${read.shown}: it is ${error.message.startsWith('a directory') ? 'a directory' : 'not a regular file (a FIFO, socket or device)'}.`,
        );
      case 'missing':
        throw new ConfigError(`Cannot read ${read.what} ${read.shown}: ENOENT`);
      default:
        throw new ConfigError(`Cannot read ${read.what} ${read.shown}: ${error.message}`);
    }
  }
}
