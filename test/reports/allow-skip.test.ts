/**
 * Accepting skips by what they mean: a configuration key accepts the skips of every rule that asks
 * for it (or a key inside it), an endpoint's operation id those of every rule that judges it, a rule
 * glob those of its rules; a pattern naming nothing is found before the run. A rule skipped for a key
 * while one of its endpoints was found not implemented asks for nothing: it carries that endpoint's cause.
 */
import { describe, expect, it } from 'vitest';
import { skipAcceptor, unmatchedPatterns } from '../../core/report/accept.js';
import { allRules } from '../../suites/index.js';
import { type Case, build } from '../helpers/sample-report.js';

const needs = (key: string) => ({ verdict: 'skip', reason: `needs it: set ${key}`, skip_key: key }) as const;

const CASES: Case[] = [
  {
    rule: { id: 'payments.account.created', level: 'MUST', spec: '§4.2', endpoints: ['createPaymentInstruction'] },
    outcome: needs('fixtures.payment_instruction'),
  },
  {
    rule: {
      id: 'payments.account.persistent-trouble',
      level: 'MUST',
      spec: '§4.2',
      endpoints: ['createPaymentInstruction'],
    },
    outcome: needs('fixtures.payment_instruction.references.persistent_failure'),
  },
  {
    rule: {
      id: 'conventions.types.create-business-payment-instruction',
      level: 'MUST',
      spec: '§2.8',
      endpoints: ['createBusinessPaymentInstruction'],
    },
    outcome: needs('fixtures.payment_instruction'),
  },
  {
    rule: {
      id: 'races.payments.instructions-at-once',
      level: 'MUST',
      spec: '§8',
      endpoints: ['createPaymentInstruction', 'accountTransferStatus'],
    },
    outcome: needs('fixtures.payment_instruction'),
  },
  {
    rule: { id: 'migration.process.refuses-unknown-team', level: 'MUST', spec: '§4.1', endpoints: ['processAccount'] },
    outcome: needs('fixtures.operations_team'),
  },
];

const accepted = (allowSkip: string[]) =>
  build(CASES, { allowSkip })
    .rules.filter((r) => r.skip_accepted)
    .map((r) => r.id);

describe('--allow-skip by meaning', () => {
  it('a configuration key accepts every rule that asks for it or a key inside it, which a rule glob misses', () => {
    expect(accepted(['fixtures.payment_instruction'])).toEqual([
      'payments.account.created',
      'payments.account.persistent-trouble',
      'conventions.types.create-business-payment-instruction',
      'races.payments.instructions-at-once',
    ]);
    expect(accepted(['payments.*'])).toEqual(['payments.account.created', 'payments.account.persistent-trouble']);
    const report = build(CASES, { allowSkip: ['fixtures.payment_instruction'] });
    expect(report.summary.missing_keys).toEqual(['fixtures.operations_team']);
    expect(report.summary.exit_code).toBe(4);
  });

  it('an endpoint accepts every rule that judges it, and only those', () => {
    expect(accepted(['createPaymentInstruction'])).toEqual([
      'payments.account.created',
      'payments.account.persistent-trouble',
      'races.payments.instructions-at-once',
    ]);
  });

  it('a glob over keys, and a rule glob, still work', () => {
    expect(accepted(['fixtures.*'])).toHaveLength(CASES.length);
    expect(accepted(['migration.**'])).toEqual(['migration.process.refuses-unknown-team']);
    expect(
      skipAcceptor(['fixtures.payment'])({ id: 'x', skip_key: 'fixtures.payment_instruction', endpoints: [] }),
    ).toBe(false);
  });

  it('a pattern that names no rule, configuration key or endpoint is found before the run', () => {
    const ids = allRules.map((r) => r.id);
    expect(
      unmatchedPatterns(
        [
          'fixtures.payment_instruction',
          'createPaymentInstruction',
          'payments.*',
          'payloads.agreements',
          'payment.*',
          'fixtures.payment_instructions',
          'createPaymentInstructions',
        ],
        ids,
      ),
    ).toEqual(['payment.*', 'fixtures.payment_instructions', 'createPaymentInstructions']);
  });
});

describe('a rule skipped for a key while its endpoint is not implemented', () => {
  const notImplemented = [
    {
      endpoint: 'createPaymentInstruction' as const,
      status: 501,
      request: 'POST https://staging.example.com/v1/data-import/payment-instruction/create/',
    },
  ];

  it('asks for no key: it is not judged for that endpoint, under its cause', () => {
    const report = build(CASES, { notImplemented });
    const moot = report.rules.filter((r) => r.cause === 'not-implemented.createPaymentInstruction').map((r) => r.id);
    expect(moot).toEqual([
      'payments.account.created',
      'payments.account.persistent-trouble',
      'races.payments.instructions-at-once',
    ]);
    for (const r of report.rules.filter((x) => moot.includes(x.id))) {
      expect(r.skip_key).toBeUndefined();
      expect(r.reason).toMatch(/not implemented \(POST .* answered 501\)$/);
    }
    expect(report.causes.find((c) => c.id === 'not-implemented.createPaymentInstruction')?.rules).toEqual(moot);
    // The business payment endpoint was not found not implemented: that rule still asks for the key.
    expect(report.summary.missing_keys).toEqual(['fixtures.payment_instruction', 'fixtures.operations_team']);
  });

  it('--partial accepts those skips with the other not-implemented ones', () => {
    const report = build(CASES, { notImplemented, partial: true });
    expect(report.rules.filter((r) => r.skip_accepted).map((r) => r.id)).toEqual([
      'payments.account.created',
      'payments.account.persistent-trouble',
      'races.payments.instructions-at-once',
    ]);
  });
});
