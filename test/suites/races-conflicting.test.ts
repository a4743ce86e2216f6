/**
 * Issue 20 item 3: races beyond identical bursts of the old rules — simultaneous first stagings of one
 * account, and the same transaction id in simultaneous requests. Each rule catches its
 * check-then-act fault in at least 19 of 20 runs, and never fails the faithful server in 50 runs.
 */
import { describe, expect, it } from 'vitest';
import { runTask } from '../../app/mutation/task.js';

const RULES = ['races.stage.one-first-staging', 'races.transactions.one-transaction'];
const races: [fault: string, rule: string][] = [
  ['races.first-staging-twice', 'races.stage.one-first-staging'],
  ['races.transaction-twice', 'races.transactions.one-transaction'],
];

describe('conflicting race rules', () => {
  it.each(races)(
    '%s is caught by %s in at least 19 of 20 runs',
    async (fault, rule) => {
      let caught = 0;
      for (let run = 0; run < 20; run++) {
        const result = await runTask(
          { kind: 'fault', id: fault },
          { seed: run, numRuns: 1, selection: { rules: [rule] } },
        );
        expect(result.errored, `run ${run}: the rule could be judged`).toEqual([]);
        if (result.failed.some((f) => f.rule === rule)) caught++;
      }
      expect(caught).toBeGreaterThanOrEqual(19);
    },
    120_000,
  );

  it('never fail the faithful server in 50 runs', async () => {
    for (let run = 0; run < 50; run++) {
      const result = await runTask({ kind: 'faithful' }, { seed: run, numRuns: 1, selection: { rules: RULES } });
      expect(result.failed, `run ${run}`).toEqual([]);
      expect(result.errored, `run ${run}`).toEqual([]);
    }
  }, 300_000);
});
