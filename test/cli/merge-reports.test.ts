import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN, startReferenceServer } from '../../reference/index.js';
import { embeddedFixtures, embeddedSeed } from '../../app/embedded.js';
import { runConformance } from '../../app/conformance.js';
import { ReportSchema } from '../../core/report/schema.js';
import { runCli } from '../helpers/cli.js';

describe('conformance merge-reports', () => {
  it('merges the reports of shards into the report of the whole run', async () => {
    const server = await startReferenceServer({
      seed: await embeddedSeed({ token: DEFAULT_TOKEN }),
      faults: ['notes.dedup-body-only'],
    });
    try {
      const options = {
        baseUrl: server.url,
        auth: { token: DEFAULT_TOKEN },
        fixtures: await embeddedFixtures(),
        seed: 9,
      };
      const whole = await runConformance(options);
      const dirs = await Promise.all(
        [1, 2, 3].map(async (index) => {
          const report = await runConformance({ ...options, selection: { shard: { index, total: 3 } } });
          const dir = mkdtempSync(join(tmpdir(), `shard-${index}-`));
          writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
          return dir;
        }),
      );
      const out = mkdtempSync(join(tmpdir(), 'merged-'));
      const res = await runCli([
        'merge-reports',
        ...dirs,
        '--report-dir',
        out,
        '--reporter',
        'json',
        '--reporter',
        'junit',
      ]);
      expect(res.code).toBe(1); // the fault makes a MUST rule fail, in one of the shards
      const merged = ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
      const verdicts = (r: typeof merged) => r.rules.map((x) => `${x.id} ${x.verdict}`).sort();
      expect(verdicts(merged)).toEqual(verdicts(ReportSchema.parse(whole)));
      expect(merged.summary.counts).toEqual(whole.summary.counts);
      expect(merged.sections).toEqual(whole.sections);
      expect(merged.capabilities).toEqual(whole.capabilities);
      expect(merged.run.selection.shard).toBeUndefined();
      expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain('notes.dedup.other-created-at-creates');
      // Coverage adds up over the shards: every exchange counted once, a field sent by any shard is sent.
      const shards = dirs.map((d) => ReportSchema.parse(JSON.parse(readFileSync(join(d, 'report.json'), 'utf8'))));
      const coverage = merged.coverage!;
      expect(coverage.exchanges).toBe(shards.reduce((n, r) => n + r.coverage!.exchanges, 0));
      const sent = (r: typeof merged) =>
        new Set(r.coverage!.endpoints.flatMap((e) => e.fields.sent.map((f) => `${e.endpoint} ${f}`)));
      expect(sent(merged)).toEqual(new Set(shards.flatMap((r) => [...sent(r)])));
      expect(coverage.fields.sent).toBe(sent(merged).size);
      const notes = (r: typeof merged) => r.coverage!.endpoints.find((e) => e.endpoint === 'createNotes')!.requests;
      expect(notes(merged)).toBe(shards.reduce((n, r) => n + notes(r), 0));
    } finally {
      await server.close();
    }
  });

  it('refuses overlapping shards and files that are not reports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bad-'));
    writeFileSync(join(dir, 'report.json'), '{"not": "a report"}');
    const notReport = await runCli(['merge-reports', dir]);
    expect(notReport.code).toBe(2);
    expect(notReport.stderr).toMatch(/is not a report\.json of this tool/);
    expect((await runCli(['merge-reports'])).stderr).toMatch(/Name at least one report directory/);
    const server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
    try {
      const report = await runConformance({
        baseUrl: server.url,
        auth: { token: DEFAULT_TOKEN },
        fixtures: await embeddedFixtures(),
        selection: { rules: ['status.*'] },
      });
      const shard = mkdtempSync(join(tmpdir(), 'shard-'));
      writeFileSync(join(shard, 'report.json'), JSON.stringify(report));
      const twice = await runCli(['merge-reports', shard, join(shard, 'report.json')]);
      expect(twice.code).toBe(2);
      expect(twice.stderr).toMatch(/Rule status\.\S+ is in both .* merge the reports of different shards/);
      // The same URL judged with another configuration is another run, not a shard of this one.
      const other = mkdtempSync(join(tmpdir(), 'shard-other-'));
      const elsewhere = { ...report, target: { ...report.target, config_digest: 'sha256:0123456789abcdef' } };
      writeFileSync(join(other, 'report.json'), JSON.stringify({ ...elsewhere, rules: [] }));
      const mixed = await runCli(['merge-reports', shard, other]);
      expect(mixed.code).toBe(2);
      expect(mixed.stderr).toMatch(/different configurations \(config digests sha256:\w+, sha256:0123456789abcdef\)/);
    } finally {
      await server.close();
    }
  });
});
