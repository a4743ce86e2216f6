/**
 * The bounded reader of files the user names (core/config/input-file.ts): only a regular file is
 * read, its size is checked before it is, and a symbolic link is followed to what it names. A FIFO
 * is refused in test/cli/tls-files.test.ts, in a child process: were it ever opened here, the test
 * worker itself would block.
 */
import { mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputFileError, readInputFile } from '../../core/config/input-file.js';

const dir = () => mkdtempSync(join(tmpdir(), 'input-file-'));

/** The InputFileError `read` throws (failing the test when it returns or throws anything else). */
function refusal(read: () => unknown): InputFileError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(InputFileError);
    return error as InputFileError;
  }
  throw new Error('expected the read to be refused');
}

describe('readInputFile', () => {
  it('reads a regular file, and one exactly at the cap', () => {
    const d = dir();
    writeFileSync(join(d, 'ca.pem'), '-----BEGIN CERTIFICATE-----\nçà\n');
    expect(readInputFile(join(d, 'ca.pem'), 1024, 'a certificate')).toBe('-----BEGIN CERTIFICATE-----\nçà\n');
    writeFileSync(join(d, 'full.pem'), 'x'.repeat(1024));
    expect(readInputFile(join(d, 'full.pem'), 1024, 'a certificate')).toHaveLength(1024);
    writeFileSync(join(d, 'empty.pem'), '');
    expect(readInputFile(join(d, 'empty.pem'), 1024, 'a certificate')).toBe('');
  });

  it('follows a symbolic link to the file it names (certificates are often links)', () => {
    const d = dir();
    writeFileSync(join(d, 'real.pem'), 'pem text');
    symlinkSync(join(d, 'real.pem'), join(d, 'link.pem'));
    expect(readInputFile(join(d, 'link.pem'), 1024, 'a certificate')).toBe('pem text');
  });

  it('refuses a file over the cap before reading it, saying its size and the cap', () => {
    const d = dir();
    writeFileSync(join(d, 'big.pem'), '');
    truncateSync(join(d, 'big.pem'), 1024 * 1024 + 1); // sparse: no disk used
    expect(refusal(() => readInputFile(join(d, 'big.pem'), 1024 * 1024, 'a certificate')).message).toBe(
      `${join(d, 'big.pem')} is ${1024 * 1024 + 1} bytes, more than a certificate is read at (1 MiB)`,
    );
  });

  it('refuses a directory and a missing file, naming the path', () => {
    const d = dir();
    expect(refusal(() => readInputFile(d, 1024, 'a certificate')).message).toBe(
      `${d} is a directory; a certificate is read only from a regular file`,
    );
    expect(refusal(() => readInputFile(join(d, 'nowhere.pem'), 1024, 'a certificate')).message).toBe(
      `cannot read ${join(d, 'nowhere.pem')} (ENOENT)`,
    );
  });

  it('refuses a device such as /dev/zero without reading it', () => {
    expect(refusal(() => readInputFile('/dev/zero', 1024, 'a certificate')).message).toBe(
      '/dev/zero is a character device; a certificate is read only from a regular file',
    );
  });

  it('writes control characters of a path out, so a path cannot drive the terminal', () => {
    const message = refusal(() => readInputFile('/nowhere/\u001b]0;title\u0007.pem', 1024, 'a certificate')).message;
    expect(message).not.toMatch(/[\u0000-\u001f]/);
  });
});
