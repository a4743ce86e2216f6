/**
 * A usage error quotes what it was given (a command word, a path, a parser's snippet of a file):
 * printed, its controls are written out, so a hostile argument or file can neither drive the
 * terminal nor forge a line of its own.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/** Raw terminal control: C0 but the line feeds between lines, DEL, C1, line separators, bidi overrides. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const FORGED = '\u001b]0;pwned\u0007\u001b[2J\u202e\u2028\nconformance: all good\r\u009b';

describe('usage errors on the terminal', () => {
  it('an unknown command word is quoted with its controls written out, on one line', async () => {
    const res = await runCli([`x${FORGED}`]);
    expect(res.code).toBe(2);
    expect(res.stderr).not.toMatch(RAW_CONTROL);
    const lines = res.stderr.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      /^conformance: Unknown command "x\\x1b\]0;pwned\\x07\\x1b\[2J\\u202e\\u2028\\nconformance: all good\\r\\x9b"/,
    );
  });

  it("V8's snippet of a file that is not JSON is written out", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'usage-terminal-'));
    writeFileSync(join(dir, 'session.har'), `{"log": ${FORGED}}`);
    const res = await runCli(['check-traffic', 'session.har'], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).not.toMatch(RAW_CONTROL);
    expect(res.stderr.split('\n')).toHaveLength(3);
    expect(res.stderr).toMatch(/^conformance: session\.har: not JSON: .*\\x1b/);
  });
});
