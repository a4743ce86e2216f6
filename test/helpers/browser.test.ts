import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headlessChromium } from './browser.js';
import { until } from './until.js';

describe('the packaged Chromium', () => {
  // Two browser test files starting together in a fresh temp directory: the package alone lets the second
  // launch the binary while the first is still writing it.
  it('is whole for a caller that asks while another is unpacking it', { timeout: 60_000 }, async () => {
    const before = process.env.TMPDIR;
    const fresh = mkdtempSync(join(tmpdir(), 'chromium-once-'));
    process.env.TMPDIR = fresh;
    try {
      const ask = async () => {
        const { executablePath } = await headlessChromium();
        return { executablePath, size: statSync(executablePath).size };
      };
      const first = ask();
      // The second asks once the first has begun writing the binary, as a second fork would.
      await until(() => existsSync(join(fresh, 'chromium')));
      const seen = await Promise.all([first, ask(), ask()]);
      const whole = statSync(seen[0].executablePath).size;
      expect(whole).toBeGreaterThan(10_000_000);
      for (const { executablePath, size } of seen) {
        expect(executablePath).toBe(join(fresh, 'chromium'));
        expect(size).toBe(whole);
      }
    } finally {
      process.env.TMPDIR = before;
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
