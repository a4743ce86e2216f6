/**
 * `conformance merge-reports` against hostile inputs: each input is bounded (bytes and rules) and
 * refused past the bounds with one line naming the file; no control character of a file's name,
 * its JSON or its values reaches the terminal raw; and merging is one pass over the rules, so
 * inputs at the rule limit whose every rule names a section of its own still merge.
 */
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_REPORT_BYTES, MAX_REPORT_RULES } from '../../app/cli/report-input.js';
import type { Report } from '../../core/report/schema.js';
import { runCli } from '../helpers/cli.js';
import { conformantReport } from '../helpers/sample-report.js';

/** Raw terminal control: C0 but the line feeds between lines, DEL, C1, line separators, bidi overrides. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const FORGED = 'evil\u001b]0;pwned\u0007\u001b[2J\u202e\u2028\nFIXED  all.rules\r';

const workspace = () => mkdtempSync(join(tmpdir(), 'hostile-merge-'));

/** A report of `count` passing rules named `<prefix><i>`, each with its own section when `sections`. */
function reportOf(count: number, prefix: string, sections = false): Report {
  const template = conformantReport();
  const [rule] = template.rules;
  const rules = Array.from({ length: count }, (_, i) => ({
    ...rule,
    id: `${prefix}${i}`,
    ...(sections ? { sections: [`§${prefix.replace(/\W/g, '')}${i}`] } : {}),
  }));
  return { ...template, rules };
}

/** stderr of a usage error: the message line and the pointer to --help, nothing raw. */
function usageLine(res: { code: number | null; stderr: string; stdout: string }): string {
  expect(res.code).toBe(2);
  expect(res.stderr).not.toMatch(RAW_CONTROL);
  const lines = res.stderr.split('\n');
  expect(lines.slice(1)).toEqual(['Run "conformance merge-reports --help" for usage.', '']);
  return lines[0];
}

describe('merge-reports bounds what it reads', () => {
  it(`refuses a report of more than ${MAX_REPORT_RULES} rules, naming the file`, async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'many.json'), JSON.stringify(reportOf(MAX_REPORT_RULES + 1, 'r.')));
    const res = await runCli(['merge-reports', 'many.json', '--report-dir', 'out'], { cwd: dir });
    expect(usageLine(res)).toBe(
      `conformance: many.json: rules: ${MAX_REPORT_RULES + 1} rules, more than one report is merged with (${MAX_REPORT_RULES}).`,
    );
  });

  it(`refuses a file over ${MAX_REPORT_BYTES / 1024 / 1024} MiB before reading it`, async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'huge.json'), '');
    truncateSync(join(dir, 'huge.json'), MAX_REPORT_BYTES + 1); // sparse: no disk used
    const res = await runCli(['merge-reports', 'huge.json'], { cwd: dir });
    expect(usageLine(res)).toBe(
      `conformance: huge.json is ${MAX_REPORT_BYTES + 1} bytes, more than a report.json is read at (${MAX_REPORT_BYTES / 1024 / 1024} MiB).`,
    );
  });

  it('says so in --help', async () => {
    const res = await runCli(['merge-reports', '--help']);
    expect(res.stdout).toContain(`over ${MAX_REPORT_BYTES / 1024 / 1024} MiB or with more than`);
    expect(res.stdout).toContain(`${MAX_REPORT_RULES.toLocaleString('en')} rules is refused (exit 2)`);
  });
});

describe('merge-reports writes no raw control character', () => {
  it("from a file's name and V8's snippet of its JSON", async () => {
    const dir = workspace();
    const name = `${FORGED.replace(/\n/g, '')}.json`;
    writeFileSync(join(dir, name), `\u001b]52;c;Y2xpcA==\u0007\nFIXED all\r\u009b2J`);
    const line = usageLine(await runCli(['merge-reports', name], { cwd: dir }));
    expect(line).toMatch(
      /^conformance: evil\\x1b\]0;pwned\\x07\\x1b\[2J\\u202e\\u2028FIXED {2}all\.rules\\r\.json is not JSON: /,
    );
  });

  it('from a rule id and a file name in the overlap error', async () => {
    const dir = workspace();
    const shard = reportOf(1, FORGED);
    writeFileSync(join(dir, 'a.json'), JSON.stringify(shard));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(shard));
    const line = usageLine(await runCli(['merge-reports', 'a.json', 'b.json'], { cwd: dir }));
    expect(line).toBe(
      'conformance: Rule evil\\x1b]0;pwned\\x07\\x1b[2J\\u202e\\u2028\\nFIXED  all.rules\\r0 is in both a.json and b.json; merge the reports of different shards of one run.',
    );
  });

  it('from a field of the schema and a --reporter value', async () => {
    const dir = workspace();
    const bad = { ...conformantReport(), [FORGED]: 1 } as Record<string, unknown>;
    bad.summary = FORGED;
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(bad));
    expect(usageLine(await runCli(['merge-reports', 'bad.json'], { cwd: dir }))).toMatch(
      /^conformance: bad\.json is not a report\.json of this tool: summary: /,
    );
    const reporter = usageLine(await runCli(['merge-reports', 'bad.json', '--reporter', FORGED], { cwd: dir }));
    expect(reporter).toContain('got "evil\\x1b]0;pwned\\x07');
  });
});

describe('merge-reports is one pass over the rules', () => {
  it('merges two inputs at the rule limit whose every rule has a section of its own', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'a.json'), JSON.stringify(reportOf(MAX_REPORT_RULES, 'a.', true)));
    writeFileSync(join(dir, 'b.json'), JSON.stringify(reportOf(MAX_REPORT_RULES, 'b.', true)));
    const res = await runCli(['merge-reports', 'a.json', 'b.json', '--reporter', 'json', '--report-dir', 'out'], {
      cwd: dir,
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const merged = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as Report;
    expect(merged.summary.total).toBe(2 * MAX_REPORT_RULES);
    expect(merged.sections).toHaveLength(2 * MAX_REPORT_RULES);
    expect(merged.sections.every((s) => s.score === 1)).toBe(true);
  });
});
