/**
 * One run of the kill matrix: the whole suite against the reference server in one mode (faithful,
 * variant) or with one fault switched on. Runs in a worker thread or in-process.
 */
import { DEFAULT_API_KEY, DEFAULT_TOKEN, startReferenceServer, variantChoices, variantRunConfig } from '../../reference/index.js';
import { embeddedFixtures, embeddedPayloads, embeddedSeed } from '../engine/embedded.js';
import { runConformance } from '../conformance.js';
import type { Selection } from '../engine/select.js';

export type Target = { kind: 'faithful' } | { kind: 'variant' } | { kind: 'fault'; id: string };

export interface TaskResult {
  target: Target;
  /** MUST and SHOULD rules that failed (the fault was caught by them, or the faithful run is wrong). */
  failed: { rule: string; level: string; reason: string }[];
  /** MUST and SHOULD rules that errored (could not be judged). */
  errored: { rule: string; level: string; reason: string }[];
  rules: number;
  durationMs: number;
}

export async function runTask(target: Target, options: { seed: number; numRuns: number; selection?: Selection }): Promise<TaskResult> {
  const started = performance.now();
  const server = await startReferenceServer({
    seed: await embeddedSeed({ token: DEFAULT_TOKEN }),
    ...(target.kind === 'variant' ? { choices: variantChoices } : {}),
    ...(target.kind === 'fault' ? { faults: [target.id] } : {}),
  });
  try {
    const fixtures = await embeddedFixtures();
    // The variant puts what the spec leaves to configuration elsewhere; the run is told so, as a user would.
    const payloads = { ...embeddedPayloads(), ...(target.kind === 'variant' ? { agreements: variantRunConfig.agreementsPayload } : {}) };
    const report = await runConformance({
      baseUrl: server.url,
      // Tokens come from the §5.1 mutation with the seeded API key, as in the embedded run, so the
      // rules on the mutation run too.
      auth: { apiKey: DEFAULT_API_KEY, ...(target.kind === 'variant' ? variantRunConfig.auth : {}) },
      fixtures,
      payloads,
      ...(target.kind === 'variant' ? { contractPath: variantRunConfig.contractPath } : {}),
      seed: options.seed,
      numRuns: options.numRuns,
      selection: options.selection,
      // The embedded limit frees a slot within milliseconds; a fault that never frees one needs no longer.
      processRetryBudgetMs: 3_000,
    });
    const pick = (verdict: string) =>
      report.rules.filter((r) => r.verdict === verdict && r.level !== 'INFO').map((r) => ({ rule: r.id, level: r.level, reason: r.reason ?? '' }));
    return { target, failed: pick('fail'), errored: pick('error'), rules: report.rules.length, durationMs: performance.now() - started };
  } finally {
    await server.close();
  }
}
