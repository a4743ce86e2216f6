/** A failing model-based property reports its counterexample as the steps (requests) that ran, not fast-check internals. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RuleContext } from '../../core/engine/context.js';
import type { Counterexample } from '../../core/engine/context.js';
import { SHRINK_BUDGET, checkProperty, readable } from '../../core/engine/property.js';

/** 1,000, whose only smaller value is one less: a target failing every case shrinks it a step at a time. */
class Countdown extends fc.Arbitrary<number> {
  generate(): fc.Value<number> {
    return new fc.Value(1000, undefined);
  }
  canShrinkWithoutContext(value: unknown): value is number {
    return typeof value === 'number';
  }
  shrink(value: number): fc.Stream<fc.Value<number>> {
    return value > 0 ? fc.Stream.of(new fc.Value(value - 1, undefined)) : fc.Stream.nil();
  }
}

class Step implements fc.AsyncCommand<object, object> {
  constructor(readonly name: string) {}
  check = () => true;
  run = async () => {
    if (this.name === 'stage(0, valid)') throw new Error('the target answered 500');
  };
  toString = () => this.name;
}

describe('property counterexamples', () => {
  it('show a command sequence as the steps that ran', async () => {
    let recorded: Counterexample | undefined;
    const ctx = {
      property: { numRuns: 50, seed: 42 },
      retry: { times: 0, cause: () => undefined },
      counterexample: (c: Counterexample) => (recorded = c),
      observe: () => undefined,
    } as unknown as RuleContext;
    const commands = fc.commands(
      [
        fc.constant(new Step('validate(0, valid)')),
        fc.constant(new Step('stage(0, valid)')),
        fc.constant(new Step('status(0)')),
      ],
      { maxCommands: 6 },
    );
    await expect(
      checkProperty(ctx, commands, (cmds) => fc.asyncModelRun(() => ({ model: {}, real: {} }), cmds)),
    ).rejects.toThrow(/the target answered 500/);
    expect(recorded?.value).toEqual({ steps: ['stage(0, valid)'] });
    expect(JSON.stringify(recorded?.value)).not.toMatch(/hasRan|"cmd"/);
  });

  it('are shrunk within a budget of cases, counted, so the same seed gives the same one', async () => {
    const run = async (path?: string) => {
      let recorded: Counterexample | undefined;
      const observed: string[] = [];
      let cases = 0;
      const ctx = {
        property: { numRuns: 5, seed: 1, path },
        retry: { times: 0, cause: () => undefined },
        counterexample: (c: Counterexample) => (recorded = c),
        observe: (text: string) => observed.push(text),
      } as unknown as RuleContext;
      await expect(
        checkProperty(ctx, new Countdown(), async () => {
          cases++;
          throw new Error('refused');
        }),
      ).rejects.toThrow(/refused/);
      return { recorded: recorded!, observed, cases };
    };
    const first = await run();
    // The failing case, then one smaller case per step until the budget is spent.
    expect(first.cases).toBe(1 + SHRINK_BUDGET);
    expect(first.recorded.value).toBe(1000 - (SHRINK_BUDGET - 1));
    expect(first.recorded.shrinks).toBe(SHRINK_BUDGET - 1);
    expect(first.observed.join('\n')).toMatch(/shrinking stopped after \d+ cases/);
    expect((await run()).recorded).toEqual(first.recorded);
    // --path replays the counterexample and shrinks on from it, within the budget again.
    const replayed = await run(first.recorded.path);
    expect(replayed.cases).toBe(SHRINK_BUDGET);
    expect(replayed.recorded.value).toBe(1000 - 2 * (SHRINK_BUDGET - 1));
  });

  it('count against the shrink budget only from the first failing case: a replay goes on with the cases after its path', async () => {
    let calls = 0;
    const ctx = {
      property: { numRuns: SHRINK_BUDGET + 100, seed: 1, path: '0' },
      retry: { times: 0, cause: () => undefined },
      counterexample: () => undefined,
      observe: () => undefined,
    } as unknown as RuleContext;
    // Only the case after the budget's worth of passing ones fails: it must still be run.
    await expect(
      checkProperty(ctx, fc.integer(), async () => {
        if (++calls === SHRINK_BUDGET + 50) throw new Error('refused');
      }),
    ).rejects.toThrow(/refused/);
  });

  it('leave a generated payload as it is', () => {
    const payload = { customers: [{ email: 'not-an-email' }] };
    expect(readable(payload)).toBe(payload);
    expect(readable([1, 2])).toEqual([1, 2]);
    expect(readable('x')).toBe('x');
  });
});
