/** A failing model-based property reports its counterexample as the steps (requests) that ran, not fast-check internals. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RuleContext } from '../../core/engine/context.js';
import type { Counterexample } from '../../core/engine/context.js';
import { checkProperty, readable } from '../../core/engine/property.js';

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

  it('leave a generated payload as it is', () => {
    const payload = { customers: [{ email: 'not-an-email' }] };
    expect(readable(payload)).toBe(payload);
    expect(readable([1, 2])).toEqual([1, 2]);
    expect(readable('x')).toBe('x');
  });
});
