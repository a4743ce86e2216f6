/**
 * Vitest's global setup: every temporary file of a test run goes under one directory of the run's own,
 * removed when the run ends. The tests, and the CLI children they start, write configs, reports and
 * HAR files under os.tmpdir() (which reads TMPDIR), and most of them never removed theirs: one
 * `npm test` left some 220 directories and 0.8 GB behind (one proxy test's HAR file alone holds
 * 360 MB of 15 MiB exchanges), so that repeated runs filled this machine's disk. Chromium, which
 * the browser tests unpack into the temp directory on first use, is unpacked once a run as a result.
 *
 * The forks that run the test files are started after this, with this process's environment, so
 * they and their children inherit TMPDIR.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const before = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'conformance-tests-'));
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    // A child a failed test left behind may still be writing: a few tries, and never a failed run for it.
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
