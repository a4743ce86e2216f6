/**
 * One run of the kill matrix: the whole suite against the reference server in one mode (faithful,
 * a variant profile) or with one fault switched on. Runs in a worker thread or in-process.
 */
import { DEFAULT_API_KEY, DEFAULT_TOKEN, profileById, startReferenceServer } from '../../reference/index.js';
import { embeddedFixtures, embeddedPayloads, embeddedSeed } from '../engine/embedded.js';
import { runConformance } from '../conformance.js';
import type { Selection } from '../engine/select.js';

export type Target = { kind: 'faithful' } | { kind: 'variant'; profile: string } | { kind: 'fault'; id: string };

export interface TaskResult {
  target: Target;
  /** MUST and SHOULD rules that failed (the fault was caught by them, or the faithful run is wrong). */
  failed: { rule: string; level: string; reason: string }[];
  /** MUST and SHOULD rules that errored (could not be judged). */
  errored: { rule: string; level: string; reason: string }[];
  /** SHOULD rules a variant profile fails on purpose (it takes the other legal reading), with why. */
  otherReadings?: { rule: string; level: string; reason: string; why: string }[];
  rules: number;
  durationMs: number;
}

export async function runTask(
  target: Target,
  options: { seed: number; numRuns: number; selection?: Selection },
): Promise<TaskResult> {
  const started = performance.now();
  const profile = target.kind === 'variant' ? profileById(target.profile) : undefined;
  if (target.kind === 'variant' && !profile) throw new Error(`unknown variant profile ${target.profile}`);
  const seed = await embeddedSeed({ token: DEFAULT_TOKEN });
  if (profile?.settings) seed.settings = { ...seed.settings, ...profile.settings };
  const server = await startReferenceServer({
    seed,
    ...(profile ? { choices: profile.choices } : {}),
    ...(target.kind === 'fault' ? { faults: [target.id] } : {}),
  });
  try {
    const fixtures = await embeddedFixtures();
    const limit = profile?.settings?.concurrency_limit;
    if (typeof limit === 'number') fixtures.concurrency_limit = limit;
    // A profile puts what the spec leaves to configuration elsewhere, or accepts only payloads of its
    // own: the run is told so, as a user would (payload templates, the contract link, the mutation).
    const payloads = { ...embeddedPayloads(), ...profile?.run.payloads?.() };
    const report = await runConformance({
      baseUrl: server.url,
      // Tokens come from the §5.1 mutation with the seeded API key, as in the embedded run, so the
      // rules on the mutation run too.
      auth: { apiKey: DEFAULT_API_KEY, ...profile?.run.auth },
      fixtures,
      payloads,
      ...(profile?.run.contractPath ? { contractPath: profile.run.contractPath } : {}),
      seed: options.seed,
      numRuns: options.numRuns,
      selection: options.selection,
      // The embedded limit frees a slot within milliseconds; a fault that never frees one needs no longer.
      processRetryBudgetMs: profile?.processRetryBudgetMs ?? 3_000,
    });
    const pick = (verdict: string) =>
      report.rules
        .filter((r) => r.verdict === verdict && r.level !== 'INFO')
        .map((r) => ({ rule: r.id, level: r.level, reason: r.reason ?? '' }));
    const failed = pick('fail');
    const why = (rule: { rule: string; level: string }) =>
      rule.level === 'SHOULD' ? profile?.otherReadings[rule.rule] : undefined;
    return {
      target,
      failed: failed.filter((f) => why(f) === undefined),
      errored: pick('error'),
      ...(profile
        ? { otherReadings: failed.filter((f) => why(f) !== undefined).map((f) => ({ ...f, why: why(f)! })) }
        : {}),
      rules: report.rules.length,
      durationMs: performance.now() - started,
    };
  } finally {
    await server.close();
  }
}
