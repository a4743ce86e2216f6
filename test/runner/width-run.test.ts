/**
 * The automatic width in a run (core/engine/width.ts): against a target that answers slowly the run
 * has more rules at once (unless the runner itself is busy) and says so in its report; a fixed
 * --concurrency is kept; a target that rate-limits sends the run back to 8. The verdicts are the
 * same either way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../../app/conformance.js';
import { embeddedFixtures, embeddedSeed } from '../../app/embedded.js';
import { DEFAULT_TOKEN, startReferenceServer, type ReferenceServer } from '../../reference/index.js';
import { faithfulChoices } from '../../reference/choices.js';
import { rateLimited } from '../../reference/rate-limit.js';

const RULES = ['auth.401.*', 'errors.*', 'conventions.*', 'status.*'];

let server: ReferenceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function slowServer(delayMs: number, choices = faithfulChoices) {
  server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }), choices });
  server.store.settings.responseDelayMs = delayMs;
  return server;
}

const run = async (url: string, concurrency?: number) =>
  runConformance({
    baseUrl: url,
    auth: { token: DEFAULT_TOKEN },
    fixtures: await embeddedFixtures(),
    seed: 5,
    selection: { rules: RULES },
    ...(concurrency ? { concurrency } : {}),
  });

describe('rules at once against a slow target', () => {
  it('auto: more than 8 rules at once when every answer takes 100 ms, said in the report', async () => {
    const { url } = await slowServer(100);
    const report = await run(url);
    expect(
      report.summary.exit_code,
      report.rules
        .filter((r) => r.verdict !== 'pass')
        .map((r) => r.id)
        .join(),
    ).toBe(0);
    // More than 8, unless the runner itself was too busy to take more (a loaded machine): the report then says so.
    if (report.run.concurrency_auto?.runner_busy !== true) expect(report.run.concurrency).toBeGreaterThan(8);
    expect(report.run.concurrency).toBeLessThanOrEqual(32);
    expect(report.run.concurrency_auto?.backed_off).toBe(false);
    expect(report.run.concurrency_auto?.median_latency_ms).toBeGreaterThanOrEqual(100);
  }, 120_000);

  it('a --concurrency given is kept, and the report has no auto record', async () => {
    const { url } = await slowServer(100);
    const report = await run(url, 8);
    expect(report.summary.exit_code).toBe(0);
    expect(report.run.concurrency).toBe(8);
    expect(report.run.concurrency_auto).toBeUndefined();
  }, 120_000);

  it('a target that answers 429 on any endpoint sends the width back to 8; the verdicts stay', async () => {
    const { url } = await slowServer(60, rateLimited(faithfulChoices, { every: 10, retryAfterSeconds: 0 }));
    const report = await run(url);
    expect(report.summary.exit_code).toBe(0);
    expect(report.run.concurrency_auto?.backed_off).toBe(true);
    expect(Object.values(report.http.rate_limited ?? {}).some((c) => c.absorbed > 0)).toBe(true);
  }, 120_000);
});
