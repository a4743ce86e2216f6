/**
 * Two legal readings that used to fail rules, a false failure each. The imported listing (§4.3:
 * "response body: not shown") may come in pages, and a body-less note's result may omit `body`
 * (§2.1: "An optional field that carries no data is omitted from the payload entirely"). Each case
 * shows the server really takes the reading before it checks the rules pass.
 */
import { describe, expect, it } from 'vitest';
import { runAgainstReference } from '../../app/against-reference.js';
import type { Report } from '../../core/report/schema.js';
import { type Choices, DEFAULT_TOKEN } from '../../reference/index.js';
import { paginatedChoices } from '../../reference/profiles.js';
import { client } from '../helpers/http.js';
import { PATHS, SUPPLIER, account, importAccount } from '../helpers/reference.js';

const LISTING_RULES = [
  'migration.process.listed-as-imported',
  'status.listing-imported-200',
  'status.listing-imported-excludes-pending',
  'status.listings-per-supplier',
  'migration.validate.stages-nothing',
];

/** Runs `rules` against a server making `choices`, after importing `before` accounts (so the run's own are on later pages). */
async function run(choices: Partial<Choices>, rules: string[], before = 6): Promise<Report> {
  const { report } = await runAgainstReference(
    { choices, auth: 'token' },
    { selection: { rules }, seed: 20, numRuns: 3, fullTranscripts: true },
    async (server) => {
      const call = client(server.url, DEFAULT_TOKEN);
      for (let i = 0; i < before; i++) await importAccount(call, account());
    },
  );
  return report;
}

const verdicts = (report: Report) =>
  Object.fromEntries(report.rules.map((r) => [r.id, r.verdict === 'pass' ? 'pass' : `${r.verdict}: ${r.reason}`]));
const urls = (report: Report, id: string) =>
  report.rules.find((r) => r.id === id)!.transcript.map((e) => e.request.url);

describe('a paginated imported listing is read whole', () => {
  for (const links of ['absolute', 'relative'] as const) {
    it(`follows ${links} next links and finds the account on a later page`, async () => {
      const report = await run({ importedListingPages: { size: 2, links } }, LISTING_RULES);
      expect(verdicts(report)).toEqual(Object.fromEntries(LISTING_RULES.map((id) => [id, 'pass'])));
      const read = urls(report, 'migration.process.listed-as-imported').filter((u) => u.includes('imported-account'));
      // Six accounts imported before, one by the setup chain, one by the rule: four pages of two.
      expect(read.length).toBeGreaterThanOrEqual(4);
      expect(read.slice(1).every((u) => /\?page=\d+$/.test(u))).toBe(true);
      const rule = report.rules.find((r) => r.id === 'migration.process.listed-as-imported')!;
      const ext = JSON.parse(rule.transcript[0].request.body ?? '{}').external_account_number as string;
      // The witness: the first page does not show the account; a later page does. Not necessarily the
      // last: the other selected rules import accounts while this one reads, which can add a page.
      const pages = rule.transcript.filter((e) => e.request.url.includes('imported-account'));
      expect(pages[0].response?.body).not.toContain(ext);
      expect(pages.slice(1).some((page) => page.response?.body?.includes(ext))).toBe(true);
    });
  }

  it('a next link that leads back to a page already read leaves the rule not judged, never failed', async () => {
    const report = await run(
      {
        present: (answer, endpoint) =>
          endpoint === 'importedAccountImportProcesses' && answer.status === 200
            ? { ...answer, body: { count: 1, next: '?', previous: null, results: [] } }
            : answer,
      },
      ['migration.process.listed-as-imported'],
      0,
    );
    expect(report.rules[0].verdict).toBe('error');
  });
});

describe("a body-less note's result may omit body (§2.1)", () => {
  it('notes.content.document-only passes a server that omits it', async () => {
    const { report } = await runAgainstReference(
      { profile: 'paginated', auth: 'token' },
      { selection: { rules: ['notes.content.document-only'] }, seed: 20, fullTranscripts: true },
    );
    expect(verdicts(report)).toEqual({ 'notes.content.document-only': 'pass' });
    const notes = report.rules[0].transcript.filter((e) => e.request.url === PATHS.notes);
    const results = JSON.parse(notes.at(-1)?.response?.body ?? '[]') as Record<string, unknown>[];
    expect(results).toHaveLength(1);
    expect('body' in results[0]).toBe(false);
  });

  it('the paginated profile pages the imported listing of the embedded supplier', async () => {
    const { report } = await runAgainstReference(
      { profile: 'paginated', auth: 'token' },
      { selection: { rules: ['migration.process.listed-as-imported'] }, seed: 20, fullTranscripts: true },
      async (server) => {
        const call = client(server.url, DEFAULT_TOKEN);
        // A page's worth imported first: whatever the run imports then lands on the second page.
        const page = paginatedChoices.importedListingPages?.size ?? 0;
        for (let i = 0; i < page; i++) await importAccount(call, account());
      },
    );
    expect(verdicts(report)).toEqual({ 'migration.process.listed-as-imported': 'pass' });
    expect(
      urls(report, 'migration.process.listed-as-imported').some((u) => u.startsWith(PATHS.imported(SUPPLIER))),
    ).toBe(true);
    expect(urls(report, 'migration.process.listed-as-imported').some((u) => u.endsWith('?page=2'))).toBe(true);
  });
});
