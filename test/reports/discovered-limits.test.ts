/** Discovered limits (§2.3, §8: not shown): one per endpoint, field and kind, in every report, with the line that declares each. */
import { describe, expect, it } from 'vitest';
import { ReportSchema } from '../../core/report/schema.js';
import { renderHtml } from '../../reports/html.js';
import { renderMarkdown } from '../../reports/markdown.js';
import { capturedConsole } from '../helpers/console.js';
import { type Case, build } from '../helpers/sample-report.js';

const NOTE_LIMIT = {
  endpoint: 'validateAccount',
  field: 'notes.*.body',
  kind: 'length',
  refused: '300 characters',
  code: 'max_length',
  accepted: '150 characters',
  declare: 'limits: { fields: { "notes.*.body": { max_length: 150 } } }',
};
const BATCH_LIMIT = {
  endpoint: 'createNotes',
  field: 'notes',
  kind: 'items',
  refused: '120 items',
  code: 'max_items',
  accepted: '60 items',
  declare: 'limits: { fields: { "notes": { max_items: 60 } } }',
};

const passing = (id: string, limits: object[]): Case => ({
  rule: { id, level: 'MUST', spec: '§2.3, §8', endpoints: [] },
  outcome: { verdict: 'pass', discovered_limits: limits } as never,
});

const report = build([
  passing('properties.account.valid-accepted', [NOTE_LIMIT]),
  passing('properties.account.other', [NOTE_LIMIT]),
  passing('notes.create.success-is-stored', [BATCH_LIMIT]),
  passing('notes.other', []),
]);

describe('discovered limits in the reports', () => {
  it('report.json lists each once, with the rules that met it, and stays valid', () => {
    expect(report.discovered_limits).toEqual([
      { ...NOTE_LIMIT, rules: ['properties.account.valid-accepted', 'properties.account.other'] },
      { ...BATCH_LIMIT, rules: ['notes.create.success-is-stored'] },
    ]);
    expect(ReportSchema.safeParse(report).success).toBe(true);
    expect(report.summary.counts.fail).toBe(0);
  });

  it('the console, the Markdown and the HTML show each with the line that declares it', () => {
    const { reporter, text } = capturedConsole();
    reporter.summary(report);
    const out = text();
    expect(out).toContain('Discovered limits (2, INFO');
    expect(out).toContain(
      'createNotes notes: 120 items refused (max_items), 60 items accepted — declare: limits: { fields: { "notes": { max_items: 60 } } }',
    );
    const md = renderMarkdown(report);
    expect(md).toContain('## Discovered limits (2, INFO)');
    expect(md).toContain('max_items: 60');
    const html = renderHtml(report);
    expect(html).toContain('id="discovered-limits"');
    expect(html).toContain('notes.*.body');
  });

  it('a run that discovered none says nothing of them', () => {
    const none = build([passing('notes.other', [])]);
    expect(none.discovered_limits).toBeUndefined();
    expect(renderMarkdown(none)).not.toContain('Discovered limits');
  });
});
