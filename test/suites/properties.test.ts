/**
 * Each property fails against a server with a matching fault, with a shrunk counterexample, and the
 * printed --seed/--path replays exactly that case.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN, startReferenceServer } from '../../reference/index.js';
import { embeddedFixtures, embeddedSeed } from '../../app/embedded.js';
import { runConformance } from '../../app/conformance.js';

async function runProperty(fault: string, rule: string, extra: { seed?: number; replayPath?: string } = {}) {
  const server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }), faults: [fault] });
  try {
    const report = await runConformance({
      baseUrl: server.url,
      auth: { token: DEFAULT_TOKEN },
      fixtures: await embeddedFixtures(),
      selection: { rules: [rule] },
      seed: extra.seed ?? 1,
      replayPath: extra.replayPath,
    });
    return report.rules[0];
  } finally {
    await server.close();
  }
}

describe('a property fails against the fault it is about, with a shrunk counterexample', () => {
  it('1-based attr indexes: the single-defect property shrinks to a defect inside an array', async () => {
    const result = await runProperty('errors.attr-one-based', 'properties.account.single-defect-refused');
    expect(result.verdict).toBe('fail');
    const example = result.counterexample!;
    expect(example.path).toMatch(/^\d+(:\d+)*$/);
    const attr = (example.value as { attr: string }).attr;
    expect(attr).toMatch(/(^|\.)\d+(\.|$)/); // only paths with an index tell one-based from zero-based
    expect(result.reason).toMatch(/an errors item must point at/);
    expect(result.replay).toContain(`--seed ${example.seed} --path ${example.path}`);
  });

  it('dedup ignoring created_at: the notes property shrinks to two one-note requests with the same body', async () => {
    const result = await runProperty('notes.dedup-body-only', 'properties.notes.dedup');
    expect(result.verdict).toBe('fail');
    const requests = result.counterexample!.value as { body: number; createdAt?: string }[][];
    expect(requests).toHaveLength(2);
    expect(requests.map((r) => r.length)).toEqual([1, 1]);
    expect(requests[0][0].body).toBe(requests[1][0].body);
    expect(requests[1][0].createdAt).toBeDefined();
  });

  it('check_previously_added ignored: the transactions property shrinks to a repeat with the check off', async () => {
    const result = await runProperty('transactions.check-flag-ignored', 'properties.transactions.dedup');
    expect(result.verdict).toBe('fail');
    const requests = result.counterexample!.value as { ids: number[]; check?: string }[];
    expect(requests).toHaveLength(2);
    expect(requests[1].check).toBe('false');
  });

  it.each([
    ['migration.process.dry-run-creates', /process\(\d, dry-run\)/],
    ['status.listings-pending-keeps-imported', /list\(pending\)/],
  ])('%s: the state machine shrinks to a short command sequence that shows it', async (fault, shows) => {
    // A random search finds the sequence with high probability per seed, not certainty: a few seeds.
    let result = await runProperty(fault, 'stateful.state-machine', { seed: 1 });
    for (let seed = 2; result.verdict !== 'fail' && seed <= 5; seed++)
      result = await runProperty(fault, 'stateful.state-machine', { seed });
    expect(result.verdict).toBe('fail');
    // The steps that ran, as the transcript names their requests (not fast-check's command wrappers).
    const commands = (result.counterexample!.value as { steps: string[] }).steps.join(', ');
    expect(commands.match(/[a-z]+\(/g)!.length).toBeLessThanOrEqual(4);
    expect(commands).toMatch(shows);
  });

  it('the printed seed and path replay exactly the failing case', async () => {
    const failed = await runProperty('notes.dedup-body-only', 'properties.notes.dedup', { seed: 7 });
    const { seed, path, value } = failed.counterexample!;
    const replayed = await runProperty('notes.dedup-body-only', 'properties.notes.dedup', { seed, replayPath: path });
    expect(replayed.verdict).toBe('fail');
    expect(replayed.counterexample!.value).toEqual(value);
    // One case, not a search: the replay makes a handful of requests.
    expect(replayed.transcript.length).toBeLessThan(failed.transcript.length);
    expect(replayed.transcript.length).toBeLessThanOrEqual(12);
  });
});
