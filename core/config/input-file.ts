/**
 * Files the user names (a CA, a client certificate and key, an earlier report, the config) read
 * within bounds, through the one bounded reader (core/files/read-bounded.ts): a regular file only
 * (a FIFO would block the process, /dev/zero never ends), its size checked before a byte is read,
 * nothing past the cap held. Symbolic links are followed: certificates are commonly links
 * (/etc/ssl/certs, a Kubernetes secret's `..data`), and what matters is what the link leads to.
 */
import { FileRefusedError, readBounded } from '../files/read-bounded.js';
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

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 100) / 100} MiB`;

/**
 * The text (UTF-8) of the regular file at `path`, at most `maxBytes` long, or an InputFileError that
 * says what is wrong: missing, unreadable, not a regular file (a FIFO, a device, a directory, a
 * socket), or too large. `what` names the contents for the message ("a certificate").
 */
export function readInputFile(path: string, maxBytes: number, what: string): string {
  try {
    return readBounded(path, { maxBytes, followLinks: true }).toString('utf8');
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error;
    const shown = pathShown(path);
    switch (error.because) {
      case 'not-regular':
        throw new InputFileError(`${shown} is ${error.detail.kind}; ${what} is read only from a regular file`);
      case 'too-large':
        throw new InputFileError(
          error.detail.size !== undefined
            ? `${shown} is ${error.detail.size} bytes, more than ${what} is read at (${mib(maxBytes)})`
            : `${shown} grew past ${mib(maxBytes)} while it was read`,
        );
      case 'missing':
        throw new InputFileError(`cannot read ${shown} (ENOENT)`);
      default:
        throw new InputFileError(
          `cannot read ${shown} (${showControls(capText(error.detail.code ?? error.message, 200))})`,
        );
    }
  }
}
