/**
 * "Refused means nothing happened", checked where no rule looked before, since a fault placed
 * beside the old probes went unseen.
 * Each fault below is placed away from the old probes (a request performed and only then answered
 * 401 on endpoints other than staging; a dry run that leaves a trace the old dry-run rule never
 * read). Each carries its placement, which the kill matrix checks with the whole suite on every CI
 * run: the new rules catch it at the fault's level, and no other rule does — which shows the old rules did not.
 */
import { describe, expect, it } from 'vitest';
import { endpointSlug, model } from '../../core/spec/index.js';
import { allRules } from '../../suites/index.js';
import { createFaults, faultById } from '../../reference/faults/catalogue.js';

const CASES: { fault: string; caughtBy: string[]; level: 'MUST' | 'SHOULD' }[] = [
  { fault: 'auth.notes-stored-on-401', caughtBy: ['auth.refused-has-no-effect.create-notes'], level: 'MUST' },
  {
    fault: 'auth.transactions-added-on-401',
    caughtBy: ['auth.refused-has-no-effect.create-transactions'],
    level: 'MUST',
  },
  { fault: 'auth.business-created-on-401', caughtBy: ['auth.refused-has-no-effect.create-business'], level: 'MUST' },
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
    for (const { id: e } of post) expect(ids.has(`auth.refused-has-no-effect.${endpointSlug(e)}`), e).toBe(true);
  });

  it('the 401 family has faults on at least two endpoints', () => {
    const endpoints = new Set(
      CASES.filter((c) => c.fault.startsWith('auth.')).flatMap((c) =>
        c.caughtBy.map((id) => id.split('.').at(-1) ?? ''),
      ),
    );
    expect(endpoints.size).toBeGreaterThanOrEqual(2);
  });

  // The whole suite against each fault is the kill matrix's job (`npm run mutation`, in CI): it fails
  // when a placed fault is missed by its rules or caught by any other rule. Here: each carries that placement.
  it.each(CASES)('$fault is placed to be caught at $level by $caughtBy, and by no other rule', (c) => {
    expect(() => createFaults([c.fault])).not.toThrow();
    const fault = faultById(c.fault)!;
    expect(fault.level ?? 'MUST').toBe(c.level);
    expect(fault.placement).toEqual({ by: c.caughtBy });
  });
});
