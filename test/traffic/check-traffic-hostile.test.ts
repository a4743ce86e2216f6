/**
 * `conformance check-traffic` against hostile HAR files: a malformed field is a usage error (exit
 * 2) of one line naming the file and the field, never a stack trace; no control character of the
 * file or its name reaches the terminal raw; a status no HTTP response has is recorded as an
 * exchange with an error, so the report stays one merge-reports reads; and a HAR larger than a
 * call's arguments can hold is judged (its first and last times without a spread).
 */
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syntheticHar } from '../../bench/offline.js';
import { runCli } from '../helpers/cli.js';

/** Raw terminal control: C0 but the line feeds between lines, DEL, C1, line separators, bidi overrides. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const workspace = (files: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-har-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};

const entries = (har: string) => JSON.parse(har) as { log: { entries: Record<string, any>[] } };

describe('check-traffic on a malformed HAR', () => {
  const fields: [string, (e: Record<string, any>) => void, string][] = [
    ['request.headers', (e) => (e.request.headers = { Authorization: 'x' }), 'expected an array'],
    ['response.status', (e) => (e.response.status = '200'), 'expected a number'],
    ['startedDateTime', (e) => (e.startedDateTime = 'not-a-date'), 'expected a date-time'],
    ['request.postData.text', (e) => (e.request.postData = { text: 12 }), 'expected a string'],
  ];
  for (const [field, edit, expected] of fields)
    it(`${field}: exit 2, one line naming the file and the field`, async () => {
      const doc = entries(syntheticHar(5));
      edit(doc.log.entries[3]);
      const dir = workspace({ 'session.har': JSON.stringify(doc) });
      const res = await runCli(['check-traffic', 'session.har', '--report-dir', 'out'], { cwd: dir });
      expect(res.code).toBe(2);
      expect(res.stderr.split('\n')).toEqual([
        `conformance: session.har: log.entries[3].${field}: ${expected}`,
        'Run "conformance check-traffic --help" for usage.',
        '',
      ]);
      expect(res.stdout).toBe('');
    });

  it('the file name and the JSON error snippet reach the terminal with their controls written out', async () => {
    const name = 'evil\u001b]0;pwned\u0007\u202e\u2028name.har';
    const dir = workspace({ [name]: '\u001b[2J\u001b]52;c;Y2xpcA==\u0007\nFIXED  all.rules\r' });
    const res = await runCli(['check-traffic', name], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr).not.toMatch(RAW_CONTROL);
    const lines = res.stderr.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^conformance: evil\\x1b\]0;pwned\\x07\\u202e\\u2028name\.har: not JSON: /);
  });

  it('a file over the size limit is refused before it is read', async () => {
    const dir = workspace({ 'huge.har': '' });
    // Sparse: the size is there, the disk space is not used.
    truncateSync(join(dir, 'huge.har'), 256 * 1024 * 1024 + 1);
    const res = await runCli(['check-traffic', 'huge.har'], { cwd: dir });
    expect(res.code).toBe(2);
    expect(res.stderr.split('\n')[0]).toBe(
      'conformance: huge.har: 268435457 bytes, more than check-traffic reads (256 MiB); split the recording.',
    );
  });
});

describe('check-traffic on statuses no response has', () => {
  it('records them as malformed exchanges, and merge-reports reads the report it writes', async () => {
    const doc = entries(syntheticHar(4));
    doc.log.entries[1].response.status = 1.5;
    doc.log.entries[2].response.status = 1e308;
    const dir = workspace({ 'odd.har': JSON.stringify(doc) });
    const res = await runCli(['check-traffic', 'odd.har', '--reporter', 'json', '--report-dir', 'out'], { cwd: dir });
    expect(res.code).toBe(0);
    const text = readFileSync(join(dir, 'out', 'report.json'), 'utf8');
    expect(text).not.toMatch(/"status":\s*(1\.5|1e\+?308)/);
    const statuses = (JSON.parse(text).coverage.endpoints as { undocumented?: { status: number }[] }[]).flatMap(
      (e) => e.undocumented ?? [],
    );
    expect(statuses).toEqual([]);
    const merged = await runCli(['merge-reports', 'out', '--reporter', 'json', '--report-dir', 'merged'], { cwd: dir });
    expect(merged.stderr).toBe('');
    expect(merged.code).toBe(0);
  });
});

describe('check-traffic on a HAR of 130,000 entries', () => {
  it('judges every entry and writes the reports, dated by the first and last entry', async () => {
    const dir = workspace({ 'big.har': syntheticHar(130_000) });
    const res = await runCli(['check-traffic', 'big.har', '--reporter', 'json', '--report-dir', 'out'], { cwd: dir });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    expect(report.run.started_at).toBe('2026-01-01T00:00:00.000Z');
    expect(report.run.finished_at).toBe(new Date(Date.parse('2026-01-01T00:00:00Z') + 129_999_000).toISOString());
    expect(report.http.requests).toBe(130_000);
  });
});
