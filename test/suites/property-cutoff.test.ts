/**
 * A property rule cut off by its time limit before it ran every case asked for is "not judged"
 * (verdict error), never a pass; the cases it ran are recorded. One that ran them all passes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RuleContext } from '../../core/engine/context.js';
import { executeRule } from '../../core/engine/execute.js';
import { NotJudged } from '../../core/engine/failures.js';
import type { Rule } from '../../core/engine/rule.js';
import { Redactor } from '../../core/http/redact.js';
import { checkProperty } from '../../core/engine/property.js';

const rule: Rule = {
  id: 'properties.test.cutoff',
  spec: '§2.3',
  level: 'MUST',
  title: 'a slow property',
  endpoints: ['validateAccount'],
  property: true,
  check: async () => undefined,
};

function context(numRuns: number, notes: string[]): RuleContext {
  return {
    property: { numRuns, seed: 1 },
    retry: { times: 0, cause: () => undefined },
    observe: (note: string) => void notes.push(note),
    counterexample: () => undefined,
  } as unknown as RuleContext;
}

const slowCase = () => new Promise<void>((resolve) => setTimeout(resolve, 40));

describe('property rules and their time limit', () => {
  it('fewer cases than asked within the limit: not judged, with the cases run recorded', async () => {
    const notes: string[] = [];
    const run = checkProperty(context(100, notes), fc.integer(), slowCase, 300);
    await expect(run).rejects.toBeInstanceOf(NotJudged);
    await expect(run).rejects.toThrow(/only \d+ of the 100 cases asked for ran within/);
    expect(notes.join(' ')).toMatch(/^\d+ of 100 generated case\(s\) ran before the 300 ms time limit/);
  });

  it('the engine reports such a rule as an error, not a pass', async () => {
    const notes: string[] = [];
    const outcome = await executeRule({
      rule,
      run: () => checkProperty(context(100, notes), fc.integer(), slowCase, 300),
      transcript: () => [],
      runSignal: new AbortController().signal,
      timeoutMs: 10_000,
      redactor: new Redactor([]),
    });
    expect(outcome.verdict).toBe('error');
    expect(outcome.reason).toMatch(/^not judged: only \d+ of the 100 cases/);
  });

  it('every case asked for ran: passes, and records the count', async () => {
    const notes: string[] = [];
    await checkProperty(context(5, notes), fc.integer(), slowCase, 60_000);
    expect(notes).toEqual(['5 of 5 generated case(s) ran']);
  });
});
