import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import setup from './temp-root.js';

describe("the test run's temporary directory", () => {
  it('is where this file and the children it starts write', () => {
    expect(basename(tmpdir())).toMatch(/^conformance-tests-/);
    const childs = execFileSync(process.execPath, ['-p', "require('node:os').tmpdir()"], { encoding: 'utf8' });
    expect(childs.trim()).toBe(tmpdir());
  });

  it('is removed with everything in it when the run ends, and TMPDIR is given back', () => {
    const before = process.env.TMPDIR;
    const teardown = setup();
    const root = tmpdir();
    try {
      expect(root).not.toBe(before);
      expect(basename(root)).toMatch(/^conformance-tests-/);
      const nested = mkdtempSync(join(root, 'left-behind-'));
      writeFileSync(join(nested, 'session.har'), '{}');
    } finally {
      teardown();
    }
    expect(existsSync(root)).toBe(false);
    expect(process.env.TMPDIR).toBe(before);
  });
});
