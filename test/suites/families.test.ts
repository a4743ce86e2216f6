/**
 * Each rule family fails against a server that breaks the rule it enforces (and passes against the
 * faithful server). The kill matrix (npm run mutation) generalises this to the whole catalogue.
 */
import { describe, expect, it } from 'vitest';
import { runTask } from '../../app/mutation/task.js';

const families: [family: string, rules: string[], fault: string, mustFail: string][] = [
  ['§2.1 conventions', ['conventions.*'], 'conventions.later-items-unvalidated', 'conventions.date.impossible-day'],
  [
    '§2.2 suppliers',
    ['migration.stage.refuses-*', 'migration.process.refuses-*'],
    'migration.stage.paused-allowed-on-update',
    'migration.stage.refuses-update-paused-supplier',
  ],
  ['§4.1 validate', ['migration.validate.*'], 'migration.validate.stages', 'migration.validate.stages-nothing'],
  ['§3 / §4.1 stage', ['migration.stage.*'], 'migration.stage.always-201', 'migration.stage.update-200'],
  ['§3 / §4.1 process', ['migration.process.*'], 'migration.process.dry-run-creates', 'migration.process.dry-run'],
  [
    '§2.3 / §4.4 business link',
    ['business.link.*'],
    'business.contract-link-unchecked',
    'business.link.unknown-contract',
  ],
  ['§4.2 notes', ['notes.*'], 'notes.dedup-within-request-only', 'notes.dedup.same-body-and-created-at'],
  [
    '§4.2 transactions',
    ['transactions.*'],
    'transactions.error-lists-every-failing',
    'transactions.period.refused-without-forcing',
  ],
  [
    '§4.2 / §8 billing documents',
    ['billing.*'],
    'billing.second-import-allowed-for-period',
    'billing.once-per-ledger.item-then-period',
  ],
  ['§4.2 statements', ['statements.*'], 'statements.path-required', 'statements.statement-path.optional'],
  [
    '§4.2 agreements and supply points',
    ['additions.*'],
    'additions.agreements-all-attr',
    'additions.agreements.non-field-errors',
  ],
  [
    '§2.7 payment instructions',
    ['payments.*'],
    'payments.intermittent-as-400',
    'payments.account.intermittent-trouble',
  ],
  ['§4.3 status and listings', ['status.*'], 'status.listings-other-supplier-leak', 'status.listings-per-supplier'],
  [
    '§2.8 / §4.4 business',
    ['business.*'],
    'business.duplicate-creates-another',
    'business.duplicate.not-created-twice',
  ],
  [
    '§5 authentication',
    ['auth.*'],
    'auth.open.create-business-payment-instruction',
    'auth.401.create-business-payment-instruction',
  ],
  ['§7.1 errors', ['errors.*'], 'errors.attr-brackets', 'errors.attr.zero-based-nested'],
  ['§8 limits', ['limits.*'], 'migration.process.429-sticky', 'limits.concurrency.429-then-retry'],
];

/**
 * Against a server that never frees a §8 slot, a process call is retried until this budget ends (the
 * mutation run's is 30 s, for whole runs on a loaded machine): a family's few rules need far less,
 * and the faithful server frees a slot within milliseconds.
 */
const PROCESS_RETRY_BUDGET_MS = 8_000;

describe('every rule family catches a server that breaks its rule', () => {
  it.each(families)('%s', async (_family, rules, fault, mustFail) => {
    const options = { seed: 3, numRuns: 5, selection: { rules }, processRetryBudgetMs: PROCESS_RETRY_BUDGET_MS };
    const faithful = await runTask({ kind: 'faithful' }, options);
    expect(faithful.failed, 'the faithful server passes the family').toEqual([]);
    const broken = await runTask({ kind: 'fault', id: fault }, options);
    expect(broken.failed.map((f) => f.rule)).toContain(mustFail);
  });
});
