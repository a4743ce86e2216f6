/**
 * Types of every request field, not only the account payload's: a field outside the account payload
 * whose type is not checked is caught by conventions.types.*, and only by those rules — no earlier
 * rule looked there (refused.validation.*, built beside them, sends one invalid field per request
 * too and may see the same fault) — while the faithful server passes every one of them.
 */
import { describe, expect, it } from 'vitest';
import { runTask } from '../../app/mutation/task.js';
import { typedEndpoints } from '../../suites/conventions-types.js';

const faults: [fault: string, rule: string][] = [
  ['conventions.dry-run-type-unchecked', 'conventions.types.process-account'],
  ['conventions.statement-amount-type-unchecked', 'conventions.types.create-historical-statements'],
];

describe('conventions.types.*', () => {
  it.each(faults)(
    '%s is caught at MUST by %s, and by no rule older than this issue',
    async (fault, rule) => {
      const result = await runTask({ kind: 'fault', id: fault }, { seed: 1, numRuns: 5 });
      expect(result.errored).toEqual([]);
      expect(result.failed.filter((f) => f.level === 'MUST').map((f) => f.rule)).toContain(rule);
      const older = (r: string) => !r.startsWith('conventions.types.') && !r.startsWith('refused.validation.');
      expect(result.failed.map((f) => f.rule).filter(older)).toEqual([]);
    },
    120_000,
  );

  it('pass on the faithful server', async () => {
    const result = await runTask(
      { kind: 'faithful' },
      { seed: 1, numRuns: 1, selection: { rules: ['conventions.types.*'] } },
    );
    // One per endpoint whose driver words a type rule, and the boolean-strings example.
    expect(result.rules).toBe(typedEndpoints().length + 1);
    expect(result.failed).toEqual([]);
    expect(result.errored).toEqual([]);
  }, 60_000);
});
