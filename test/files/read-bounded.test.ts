/** The bounded reader: regular files only, links only when allowed, never past the cap, never blocking. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileRefusedError, readBounded } from '../../core/files/read-bounded.js';

const dir = mkdtempSync(join(tmpdir(), 'read-bounded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const refusal = (path: string, options: Parameters<typeof readBounded>[1]) => {
  try {
    readBounded(path, options);
  } catch (error) {
    if (error instanceof FileRefusedError) return { because: error.because, message: error.message };
    throw error;
  }
  throw new Error('read, not refused');
};

describe('readBounded', () => {
  const file = join(dir, 'plain.txt');
  writeFileSync(file, 'twelve bytes');

  it('reads a regular file up to and at the cap', () => {
    expect(readBounded(file, { maxBytes: 12 }).toString()).toBe('twelve bytes');
  });

  it('refuses a file over the cap before reading it, saying its size and the cap', () => {
    expect(refusal(file, { maxBytes: 11 })).toEqual({
      because: 'too-large',
      message: '12 bytes, more than the 11 bytes it is read at',
    });
    const sparse = join(dir, 'sparse');
    writeFileSync(sparse, '');
    truncateSync(sparse, 3 * 1024 * 1024 * 1024);
    expect(refusal(sparse, { maxBytes: 1024 * 1024 })).toMatchObject({ because: 'too-large' });
  });

  it('refuses a FIFO at once, with no writer to wait for', () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(refusal(fifo, { maxBytes: 1024 })).toEqual({
      because: 'not-regular',
      message: 'a FIFO (named pipe), not a regular file',
    });
  });

  it('refuses a device and a directory', () => {
    expect(refusal('/dev/zero', { maxBytes: 1024 })).toEqual({
      because: 'not-regular',
      message: 'a character device, not a regular file',
    });
    expect(refusal(dir, { maxBytes: 1024 })).toMatchObject({ because: 'not-regular' });
  });

  it('follows a link only when asked to', () => {
    const link = join(dir, 'link');
    symlinkSync(file, link);
    expect(refusal(link, { maxBytes: 1024 })).toMatchObject({ because: 'link' });
    expect(readBounded(link, { maxBytes: 1024, followLinks: true }).toString()).toBe('twelve bytes');
    const toDevice = join(dir, 'to-device');
    symlinkSync('/dev/zero', toDevice);
    expect(refusal(toDevice, { maxBytes: 1024, followLinks: true })).toMatchObject({ because: 'not-regular' });
  });

  it('says a missing file is missing', () => {
    expect(refusal(join(dir, 'none'), { maxBytes: 1 })).toEqual({ because: 'missing', message: 'missing' });
  });
});

describe('jsonDepthExceeds', () => {
  it('counts brackets as they nest, not those inside strings', async () => {
    const { jsonDepthExceeds } = await import('../../core/files/json-depth.js');
    expect(jsonDepthExceeds('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":[{"b":1}]}', 2)).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ s: '[[[[[[[["\\\\' }), 1)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ s: 'a\\"[[[[' }), 1)).toBe(false);
    const deep = `${'['.repeat(3000)}${']'.repeat(3000)}`;
    expect(jsonDepthExceeds(deep, 100)).toBe(true);
    expect(jsonDepthExceeds(deep, 3000)).toBe(false);
  });
});
