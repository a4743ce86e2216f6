/**
 * "Refused means nothing happened", checked where no rule looked before, since a fault placed
 * beside the old probes went unseen.
 * Each fault below is placed away from the old probes (a request performed and only then answered
 * 401 on endpoints other than staging; a dry run that leaves a trace the old dry-run rule never
 * read). The whole suite runs against each: the new rules catch it at the fault's level, and no
 * other rule does — which shows the old rules did not.
 */
import { describe, expect, it } from 'vitest';
import { runAgainstReference } from '../../app/against-reference.js';
import { model } from '../../core/spec/index.js';
import { allRules } from '../../suites/index.js';
import { createFaults } from '../../reference/faults/catalogue.js';

const CASES: { fault: string; caughtBy: string[]; level: 'MUST' | 'SHOULD' }[] = [
  { fault: 'auth.notes-stored-on-401', caughtBy: ['auth.refused-has-no-effect.createNotes'], level: 'MUST' },
  {
    fault: 'auth.transactions-added-on-401',
    caughtBy: ['auth.refused-has-no-effect.createTransactions'],
    level: 'MUST',
  },
  { fault: 'auth.business-created-on-401', caughtBy: ['auth.refused-has-no-effect.createBusiness'], level: 'MUST' },
  {
    fault: 'migration.process.dry-run-leaves-notes-open',
    caughtBy: ['migration.process.dry-run-no-trace'],
    level: 'MUST',
  },
  {
    fault: 'migration.process.dry-run-listed-as-imported',
    caughtBy: ['migration.process.dry-run-not-listed-as-imported'],
    level: 'SHOULD',
  },
];

describe('refused requests leave no trace: the new rules catch faults the old ones missed', () => {
  it('every POST endpoint of the model has its 401-has-no-effect rule', () => {
    const ids = new Set(allRules.map((r) => r.id));
    const post = Object.values(model.endpoints).filter((e) => e.method === 'POST');
    expect(post.length).toBeGreaterThanOrEqual(12);
    for (const { id: e } of post) expect(ids.has(`auth.refused-has-no-effect.${e}`), e).toBe(true);
  });

  it('the 401 family has faults on at least two endpoints', () => {
    const endpoints = new Set(
      CASES.filter((c) => c.fault.startsWith('auth.')).flatMap((c) =>
        c.caughtBy.map((id) => id.split('.').at(-1) ?? ''),
      ),
    );
    expect(endpoints.size).toBeGreaterThanOrEqual(2);
  });

  for (const c of CASES) {
    it(`${c.fault} is caught by ${c.caughtBy.join(', ')} at ${c.level}, and by no other rule`, async () => {
      expect(() => createFaults([c.fault])).not.toThrow();
      const { report } = await runAgainstReference({ fault: c.fault }, { seed: 20 });
      // The history.* rules, built later, judge the whole run and may see the trace too.
      const failed = report.rules.filter((r) => r.verdict === 'fail' && !r.id.startsWith('history.'));
      expect(failed.map((r) => r.id).sort()).toEqual([...c.caughtBy].sort());
      expect(failed.every((r) => r.level === c.level)).toBe(true);
      expect(report.rules.filter((r) => r.verdict === 'error').map((r) => r.id)).toEqual([]);
    });
  }
});
