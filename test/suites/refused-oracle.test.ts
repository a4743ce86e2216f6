/**
 * A refusal judged only where one rule looked lets a fault elsewhere through: each "refused means
 * nothing happened" family (suites/refused-*.ts,
 * judged by the oracle of core/engine/observe.ts) fails on a fault placed where no rule looked
 * before — another endpoint, another moment (once the account exists), another read (the all
 * listing) — and no older rule catches that fault: each such fault carries its placement, which the
 * kill matrix checks with the whole suite on every CI run. Each family's faults sit on at least two endpoints.
 */
import { describe, expect, it } from 'vitest';
import { runTask } from '../../app/mutation/task.js';
import { faultById } from '../../reference/faults/catalogue.js';

const CASES: { family: string; fault: string; caughtBy: string[]; level?: 'SHOULD' }[] = [
  {
    // Keeping the valid notes of a refused request breaks a strong reading only (the fault says why).
    family: 'refused.validation.*',
    fault: 'notes.valid-notes-stored-on-400',
    caughtBy: ['refused.validation.valid-items-not-kept.create-notes'],
    level: 'SHOULD',
  },
  {
    family: 'refused.validation.*',
    fault: 'business.created-on-400',
    caughtBy: ['refused.validation.create-business'],
  },
  {
    family: 'refused.unknown-account.*',
    fault: 'transactions.kept-for-staged-account',
    caughtBy: ['refused.unknown-account.create-transactions'],
  },
  {
    family: 'refused.unknown-account.*',
    fault: 'billing.ledger-billed-by-refused-request',
    caughtBy: ['refused.unknown-account.create-historical-billing-documents'],
  },
  { family: 'refused.stage.*', fault: 'migration.stage.skipped-listed-on-400', caughtBy: ['refused.stage.skipped'] },
  {
    family: 'refused.process.*',
    fault: 'migration.process.refused-dry-run-stamps-created-at',
    // The real-process rules see it too when a dry-run rule runs between their two reads (the fixture
    // account is shared); the dry-run rules see it always.
    caughtBy: ['refused.process.paused-supplier-dry-run', 'refused.process.complete-supplier-dry-run'],
  },
];

describe('the refused.* families catch faults the older rules miss', () => {
  it('each family has faults on at least two endpoints, and every fault is in the catalogue', () => {
    const byFamily = new Map<string, Set<string>>();
    for (const c of CASES) {
      expect(faultById(c.fault), c.fault).toBeDefined();
      const family =
        c.family.startsWith('refused.stage') || c.family.startsWith('refused.process') ? 'migration' : c.family;
      const set = byFamily.get(family) ?? new Set<string>();
      for (const id of c.caughtBy) set.add(id.split('.').slice(0, 3).join('.'));
      byFamily.set(family, set);
    }
    for (const [family, rules] of byFamily) expect(rules.size, family).toBeGreaterThanOrEqual(2);
  });

  it.each([...new Set(CASES.map((c) => c.family))])('%s passes on the faithful server', async (family) => {
    const faithful = await runTask({ kind: 'faithful' }, { seed: 20, numRuns: 5, selection: { rules: [family] } });
    expect(faithful.failed).toEqual([]);
    expect(faithful.errored).toEqual([]);
  });

  // The whole suite against each fault is the kill matrix's job (`npm run mutation`, in CI): it
  // fails when a placed fault is missed by these rules or caught by any rule outside them and the
  // families built beside them (refused.*, and conventions.types.* and relations.defect.*, which also
  // refuse one field at a time and look for a trace). Here: each fault carries that placement, at its level.
  it.each(CASES)('$fault is placed to be caught at its level by $caughtBy only', (c) => {
    const fault = faultById(c.fault)!;
    expect(fault.level ?? 'MUST').toBe(c.level ?? 'MUST');
    expect(fault.placement?.by).toEqual(c.caughtBy);
    expect(fault.placement?.beside).toEqual(['refused.', 'conventions.types.', 'relations.defect.']);
  });
});
