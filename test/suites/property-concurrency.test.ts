/**
 * Property cases run several at once (core/engine/property.ts), yet a seed means what it meant when
 * they ran one after another: the same cases, and on a failure the same counterexample, path and
 * shrinks as a sequential `fc.check` with that seed. Cases finish out of order here on purpose
 * (each waits a number of event-loop turns drawn from its value), never on a clock.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Counterexample, RuleContext } from '../../core/engine/context.js';
import { RuleFailure } from '../../core/engine/failures.js';
import { checkProperty } from '../../core/engine/property.js';

const SEED = 20261123;

function context(numRuns: number, concurrency: number, path?: string) {
  const notes: string[] = [];
  const found: { counterexample?: Counterexample } = {};
  const ctx = {
    property: { numRuns, seed: SEED, concurrency, ...(path ? { path } : {}) },
    retry: { times: 0, cause: () => undefined },
    observe: (note: string) => void notes.push(note),
    counterexample: (c: Counterexample) => (found.counterexample = c),
  } as unknown as RuleContext;
  return { ctx, notes, found };
}

/** Waits `turns` turns of the event loop: later cases overtake earlier ones. */
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

const account = fc.record({
  supply: fc.constantFrom('electricity', 'gas', 'dual'),
  customers: fc.array(fc.record({ name: fc.string(), age: fc.nat({ max: 120 }) }), { maxLength: 4 }),
});

/** What a sequential fc.check with the seed runs, in order. */
async function sequentialCases<T>(arbitrary: fc.Arbitrary<T>, numRuns: number): Promise<string[]> {
  const seen: string[] = [];
  await fc.check(
    fc.asyncProperty(arbitrary, async (v) => void seen.push(JSON.stringify(v))),
    { seed: SEED, numRuns },
  );
  return seen;
}

describe('property cases run concurrently, determined by the seed', () => {
  it('run exactly the cases a sequential run makes, several at once', async () => {
    const { ctx, notes } = context(40, 8);
    const seen: string[] = [];
    let inFlight = 0;
    let most = 0;
    await checkProperty(ctx, account, async (value) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await turns(value.customers.length * 3 + (value.supply === 'gas' ? 5 : 0));
      seen.push(JSON.stringify(value));
      inFlight--;
    });
    expect(most).toBe(8);
    expect([...seen].sort()).toEqual([...(await sequentialCases(account, 40))].sort());
    expect(notes).toEqual(['40 of 40 generated case(s) ran']);
  });

  it('report the counterexample, path and shrinks a sequential fc.check reports', async () => {
    // Fails for some cases, not the first (case 19 of this seed): later cases finish before earlier ones.
    const fails = (v: { supply: string; customers: { age: number }[] }) =>
      v.supply === 'gas' && v.customers.some((c) => c.age > 100);
    const predicate = async (v: { supply: string; customers: { name: string; age: number }[] }) => {
      await turns(10 - v.customers.length * 2);
      if (fails(v)) throw new RuleFailure({ message: `an age over 100 in ${v.customers.length} customers` });
    };
    const sequential = await fc.check(
      fc.asyncProperty(account, async (v) => {
        if (fails(v)) throw new RuleFailure({ message: 'x' });
      }),
      { seed: SEED, numRuns: 50 },
    );
    expect(sequential.failed).toBe(true);
    expect(sequential.counterexamplePath).toMatch(/^[1-9]\d*:/); // not the first case, and shrunk

    for (const concurrency of [1, 3, 8]) {
      const { ctx, notes, found } = context(50, concurrency);
      await expect(checkProperty(ctx, account, predicate)).rejects.toThrow(
        `(seed ${SEED}, path ${sequential.counterexamplePath}, ${sequential.numShrinks} shrinks)`,
      );
      expect(found.counterexample).toEqual({
        seed: SEED,
        path: sequential.counterexamplePath,
        value: sequential.counterexample?.[0],
        shrinks: sequential.numShrinks,
      });
      expect(notes).toEqual([`${sequential.numRuns} of 50 generated case(s) ran`]);
    }
  });

  it('replay the printed path as fast-check does', async () => {
    const fails = (v: { supply: string; customers: { age: number }[] }) =>
      v.supply === 'gas' && v.customers.some((c) => c.age > 100);
    const first = context(50, 8);
    await expect(
      checkProperty(first.ctx, account, async (v) => {
        if (fails(v)) throw new RuleFailure({ message: 'old' });
      }),
    ).rejects.toBeInstanceOf(RuleFailure);
    const printed = first.found.counterexample!;
    const replay = context(50, 8, printed.path);
    const replayed: unknown[] = [];
    await expect(
      checkProperty(replay.ctx, account, async (v) => {
        replayed.push(v);
        if (fails(v)) throw new RuleFailure({ message: 'old' });
      }),
    ).rejects.toBeInstanceOf(RuleFailure);
    expect(replayed[0]).toEqual(printed.value);
    expect(replay.found.counterexample?.value).toEqual(printed.value);
  });
});
