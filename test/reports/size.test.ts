/**
 * Reports of a badly broken target stay small: failing rules keep their last exchanges with bodies
 * cut, passing ones a line per exchange, so a run with dozens of failures writes a few MB at most.
 */
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN, startReferenceServer, type ReferenceServer } from '../../reference/index.js';
import { writeReports } from '../../reports/index.js';
import { runConformance } from '../../app/conformance.js';
import { embeddedFixtures, embeddedPayloads, embeddedSeed } from '../../app/embedded.js';
import { type Upstream, startProxy } from '../helpers/proxy.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
});
afterAll(() => server.close());

/** Every 400 loses its §7.1 errors list and every answer of the data endpoints gets a long body. */
const breakage = async (req: { path: string }, forward: () => Promise<Upstream>): Promise<Upstream | undefined> => {
  if (req.path.includes('/_operator/')) return undefined;
  const up = await forward();
  if (up.status === 400) return { ...up, body: JSON.stringify({ detail: 'x'.repeat(30_000) }) };
  if (/\/(notes|transactions|historical-statements|historical-billing-documents)\/create\/$/.test(req.path))
    return { ...up, status: 202, body: `${up.body}${' '.repeat(20_000)}` };
  return up;
};

const sizeOf = (dir: string) => readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);

describe('report size', () => {
  it('a run with 75+ failures writes under 3.5 MB of reports; --full-transcripts keeps every exchange', async () => {
    const proxy = await startProxy(server.url, breakage);
    try {
      const options = {
        baseUrl: proxy.url,
        auth: { token: DEFAULT_TOKEN },
        fixtures: await embeddedFixtures(),
        payloads: embeddedPayloads(),
        seed: 3,
      };
      const report = await runConformance(options);
      const failing = report.rules.filter((r) => r.verdict === 'fail' || r.verdict === 'error');
      expect(failing.length).toBeGreaterThanOrEqual(75);
      const dir = mkdtempSync(join(tmpdir(), 'size-'));
      await writeReports(report, dir, ['json', 'junit', 'html', 'markdown', 'ctrf'], {});
      // Under 3.5 MB for 75 failures: this run has more, so its size is scaled to 75. (3 MB until the
      // relation rules came: a failing one names the places and the edge of each request in its
      // steps, some 42 KB a failure over the five formats; the transcript policy is unchanged.)
      expect((sizeOf(dir) * 75) / failing.length).toBeLessThan(3.5 * 1024 * 1024);
      // A failing rule still shows the exchange its failure is about, in full but cut.
      const failed = report.rules.find((r) => r.verdict === 'fail' && r.failure?.exchange_seq)!;
      const culprit = failed.transcript.find((x) => x.seq === failed.failure!.exchange_seq)!;
      expect(culprit.brief).toBeUndefined();
      expect(culprit.response?.status).toBeGreaterThan(0);
      // A passing rule keeps one line per exchange.
      const passed = report.rules.find((r) => r.verdict === 'pass' && r.transcript.length > 0)!;
      expect(
        passed.transcript.every(
          (x) => x.brief && x.request.body === undefined && Object.keys(x.request.headers).length === 0,
        ),
      ).toBe(true);
      // A property rule's hundreds of exchanges are left out but counted.
      const property = report.rules.find((r) => r.id === 'properties.account.single-defect-refused')!;
      expect(property.transcript.length + (property.transcript_omitted ?? 0)).toBeGreaterThan(
        property.transcript.length,
      );

      const full = await runConformance({ ...options, fullTranscripts: true, selection: { rules: [passed.id] } });
      expect(full.rules[0].transcript.some((x) => !x.brief && x.request.headers.authorization)).toBe(true);
    } finally {
      await proxy.close();
    }
  });
});
