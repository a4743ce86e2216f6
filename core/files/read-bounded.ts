/**
 * Reading a file that someone else may have put in place: a claim handed over for checking, a
 * certificate path from a config. Only a regular file is read — opening a FIFO for reading blocks
 * until a writer comes, and a device such as /dev/zero never ends — and never more than a cap,
 * checked on the open descriptor (so what is read is what was checked) and again while reading (a
 * file that grows meanwhile is cut off at the cap, not read to its end). Links are followed only
 * where the caller says a link is legitimate.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

export type RefusedBecause = 'missing' | 'link' | 'not-regular' | 'too-large' | 'unreadable';

/** A file that was not read, and why, in words a message can end with. */
export class FileRefusedError extends Error {
  constructor(
    readonly path: string,
    readonly because: RefusedBecause,
    why: string,
    readonly detail: {
      /** The size seen, for a file refused as too large before it was read. */
      size?: number;
      /** What stands at the path, for one refused as not a regular file: "a FIFO (named pipe)". */
      kind?: string;
      /** The system's error code, for one that could not be opened or read. */
      code?: string;
    } = {},
  ) {
    super(why);
  }
}

export interface BoundedRead {
  /** The most bytes read; a larger file is refused before its first byte is read. */
  maxBytes: number;
  /** Follow a symbolic link at the path (a user's own --ca-cert may be one); default false. */
  followLinks?: boolean;
}

/** What a file that is not a regular one is, in words. */
const kindOf = (stat: ReturnType<typeof fstatSync>) =>
  stat.isFIFO()
    ? 'a FIFO (named pipe)'
    : stat.isCharacterDevice()
      ? 'a character device'
      : stat.isBlockDevice()
        ? 'a block device'
        : stat.isDirectory()
          ? 'a directory'
          : stat.isSocket()
            ? 'a socket'
            : 'not a regular file';

const mib = (bytes: number) => (bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${bytes} bytes`);

/** The bytes of `path`, or a FileRefusedError saying why not. Never blocks on a FIFO, never reads past the cap. */
export function readBounded(path: string, { maxBytes, followLinks = false }: BoundedRead): Buffer {
  // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one; O_NOCTTY:
  // a terminal named as a file never becomes the process's. Neither exists on Windows (no FIFOs).
  const flags =
    constants.O_RDONLY |
    (constants.O_NONBLOCK ?? 0) |
    (constants.O_NOCTTY ?? 0) |
    (followLinks ? 0 : (constants.O_NOFOLLOW ?? 0));
  let fd: number;
  try {
    fd = openSync(path, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new FileRefusedError(path, 'missing', 'missing');
    if (code === 'ELOOP' && !followLinks)
      throw new FileRefusedError(path, 'link', 'a symbolic link, which is not followed');
    throw new FileRefusedError(path, 'unreadable', `cannot be read (${code ?? (error as Error).message})`, {
      code: code ?? (error as Error).message,
    });
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      const kind = kindOf(stat);
      throw new FileRefusedError(path, 'not-regular', `${kind}, not a regular file`, { kind });
    }
    if (stat.size > maxBytes)
      throw new FileRefusedError(
        path,
        'too-large',
        `${stat.size} bytes, more than the ${mib(maxBytes)} it is read at`,
        { size: stat.size },
      );
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes)
        throw new FileRefusedError(path, 'too-large', `grew past the ${mib(maxBytes)} it is read at while being read`);
      chunks.push(chunk.subarray(0, n));
    }
    return Buffer.concat(chunks, total);
  } catch (error) {
    if (error instanceof FileRefusedError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new FileRefusedError(path, 'unreadable', `cannot be read (${code})`, { code });
  } finally {
    closeSync(fd);
  }
}
