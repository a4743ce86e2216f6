/** summary.md: structure, escaping of server-controlled text, and the size cap for step summaries. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeReports } from '../../reports/index.js';
import { renderMarkdown } from '../../reports/markdown.js';
import type { Report } from '../../core/report/schema.js';
import {
  conformantReport,
  incompleteReport,
  hugeReport,
  RAW_SECRET,
  REPLAY,
  sampleReport,
} from '../helpers/sample-report.js';

const report = sampleReport();
const md = renderMarkdown(report);
const lines = md.split('\n');

/** The cells of a table row, split as GFM does: on pipes not escaped with a backslash. */
const cells = (row: string) =>
  row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

/** The rows of the table that follows a line starting with `heading` (or the first table when it is null). */
function table(markdown: string, heading: string | null): string[][] {
  const all = markdown.split('\n');
  const from = heading === null ? 0 : all.findIndex((l) => l.startsWith(heading));
  expect(from).toBeGreaterThanOrEqual(0);
  const start = all.findIndex((l, i) => i > from && l.startsWith('|'));
  const rows: string[] = [];
  for (let i = start; i < all.length && all[i].startsWith('|'); i++) rows.push(all[i]);
  return rows.map(cells);
}

describe('renderMarkdown', () => {
  it('opens with the overall result and the run it describes', () => {
    expect(lines[0]).toBe(
      '# ❌ Not conformant: 2 MUST failures and 1 MUST rule not judged (error); 1 MUST failure excused by the baseline; 1 MUST rule not judged (skipped): set fixtures.concurrency\\_limit, or accept the skips with --allow-skip; 1 SHOULD failure, not counted without --strict',
    );
    expect(renderMarkdown(conformantReport()).split('\n')[0]).toBe('# ✅ Conformant');
    expect(renderMarkdown(incompleteReport()).split('\n')[0]).toMatch(
      /^# ⚠️ Incomplete: no MUST rule failed, but 1 MUST rule not judged \(skipped\): set fixtures\.concurrency\\_limit/,
    );
    expect(renderMarkdown(sampleReport({ strict: true })).split('\n')[0]).toBe(
      '# ❌ Not conformant: 2 MUST failures and 1 MUST rule not judged (error) and 1 SHOULD failure; 1 MUST failure excused by the baseline; 1 MUST rule not judged (skipped): set fixtures.concurrency\\_limit, or accept the skips with --allow-skip',
    );
    expect(lines[2]).toBe(
      '**Target** `https://staging.example.com` · **Run** `k3x9q2` · **Seed** `4242` · **Duration** 1 min 23 s · **Exit code** 1',
    );
    expect(md).toContain('1 failure is excused by the baseline.');
  });

  it('has a table of totals by level', () => {
    expect(table(md, null)).toEqual([
      ['Level', 'Pass', 'Fail', 'Error', 'Skip'],
      [':--', '--:', '--:', '--:', '--:'],
      ['MUST', '2', '3', '1', '1'],
      ['SHOULD', '1', '1', '0', '1'],
      ['INFO', '1', '0', '1', '1'],
      ['**All**', '4', '4', '2', '3'],
    ]);
  });

  it('has a table of section scores and the capability matrix', () => {
    const sections = table(md, '## Sections');
    expect(sections).toHaveLength(report.sections.length + 2);
    expect(sections).toContainEqual(['§4.1 Account migration', '1', '2', '0', '1', '33 %']);
    expect(sections).toContainEqual(['§2.7 Payment instruction', '0', '0', '0', '1', '—']);
    const capabilities = table(md, '## Capabilities');
    expect(capabilities).toHaveLength(report.capabilities.length + 2);
    expect(capabilities).toContainEqual([
      'stageAccount',
      'POST',
      '`/v1/data-import/account-import-process/create-or-update/`',
      '1',
      '1',
      '0',
      '0',
      '**deviates**',
    ]);
  });

  it('lists failures and errors, unexcused MUST first and baselined last, each with its replay command', () => {
    const start = lines.indexOf('## Failures and errors (6)');
    const items = lines.slice(start + 2).filter((l) => l.startsWith('- '));
    expect(items.slice(0, 6).map((l) => /`([^`]+)`/.exec(l)![1])).toEqual([
      'conventions.date.impossible-day',
      'properties.account.single-defect-refused',
      'status.listing-imported-excludes-pending',
      'migration.validate.echoes-data',
      'auth.api-key.unknown-key-no-token',
      'notes.dedup.same-body-and-created-at',
    ]);
    expect(items[1]).toBe(
      '- **fail** `properties.account.single-defect-refused` (MUST, §7.1): attr was "customers.email", expected "customers.0.email"',
    );
    expect(lines[lines.indexOf(items[1]) + 1]).toBe(`  \`${REPLAY.property}\``);
    expect(items[2]).toBe(
      '- **error** `status.listing-imported-excludes-pending` (MUST, §4.3, §3): timeout: no response within 10 s',
    );
    expect(items[5]).toMatch(/— \*expected failure: TICKET-17: dedup ignores created\\_at until release 2\.4\*$/);
  });

  it('writes server-controlled text as literal text on one line', () => {
    const item = lines.find((l) => l.includes('`conventions.date.impossible-day`'))!;
    expect(item).toBe(
      '- **fail** `conventions.date.impossible-day` (MUST, §4.1, §2.3): expected status 400, got 201: body said \\<script\\>alert(1)\\</script\\> \\]\\]\\> "quotes" \\|pipes\\| ñandú second line \\\\u0000\\\\u001b\\[31m',
    );
    expect(md).not.toContain('<script>');
    expect(md).not.toMatch(/[\u0000\u001b]/);
  });

  it('escapes pipes and line breaks in table cells', () => {
    const odd: Report = structuredClone(report);
    odd.sections[0].title = 'Account | payload\nsecond line';
    odd.capabilities[0].path = '/v1/a|b/';
    odd.capabilities[1].endpoint = 'stage|Account';
    const out = renderMarkdown(odd);
    const sections = table(out, '## Sections');
    for (const row of sections) expect(row).toHaveLength(6);
    expect(sections[2][0]).toBe('§2.3 Account \\| payload second line');
    const capabilities = table(out, '## Capabilities');
    for (const row of capabilities) expect(row).toHaveLength(8);
    expect(capabilities[2][2]).toBe('`/v1/a\\|b/`');
    expect(capabilities[3][0]).toBe('stage\\|Account');
  });

  it('groups skipped rules by the configuration key that would run them', () => {
    expect(md).toContain(
      '- `fixtures.concurrency_limit`: 2 rules — `limits.concurrency.429-then-retry`, `races.process.one-account`\n- `fixtures.payment_instruction.references.persistent_failure`: 1 rule — `payments.account.persistent-trouble`',
    );
  });

  it('names baseline entries to remove and entries that name no rule', () => {
    expect(md).toContain('- Now passing, remove: `migration.validate.accepts-valid`');
    expect(md).toContain('- Name no rule: `retired.rule.that-no-longer-exists`');
  });

  it('stays under 60 KB for a 5,000-rule report, capping the failure list at 50', () => {
    const huge = hugeReport(5000);
    const out = renderMarkdown(huge);
    expect(Buffer.byteLength(out)).toBeLessThan(60_000);
    const failing = huge.summary.counts.fail;
    expect(failing).toBe(4000);
    expect(out.split('\n').filter((l) => l.startsWith('- **fail**'))).toHaveLength(50);
    expect(out).toContain(`- …and ${failing - 50} more (see report.html)`);
    expect(out).toMatch(/- `fixtures\.key_\d`: \d+ rules — (`bulk\.rule-\d{5}`, ){4}`bulk\.rule-\d{5}` and \d+ more/);
  });

  it('contains the redacted placeholder and never the secret', () => {
    expect(md).toContain('Token \\*\\*\\*');
    expect(md).not.toContain(RAW_SECRET);
  });
});

describe('the GitHub step summary', () => {
  it('gets the summary appended, after what an earlier step wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'step-summary-'));
    const summary = join(dir, 'step-summary.md');
    writeFileSync(summary, '# earlier step\n');
    const written = await writeReports(report, join(dir, 'out'), ['markdown'], { GITHUB_STEP_SUMMARY: summary });
    expect(written).toEqual([{ format: 'markdown', file: join(dir, 'out', 'summary.md') }]);
    expect(readFileSync(summary, 'utf8')).toBe(`# earlier step\n${renderMarkdown(report)}\n`);
  });

  it('that cannot be written is a warning: the report files are still written and nothing throws', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'step-summary-'));
    // A directory where the file should be: appending fails (EISDIR), as on a runner with a broken path.
    const written = await writeReports(report, join(dir, 'out'), ['json', 'markdown'], { GITHUB_STEP_SUMMARY: dir });
    expect(written.map((w) => w.file)).toEqual([join(dir, 'out', 'report.json'), join(dir, 'out', 'summary.md')]);
    expect(written[1].warning).toMatch(/^could not append the summary to GITHUB_STEP_SUMMARY \(.*EISDIR/);
    expect(readFileSync(join(dir, 'out', 'summary.md'), 'utf8')).toBe(renderMarkdown(report));
  });
});
