/**
 * A server that trims the keys it is sent (Django REST framework trims every string it reads) holds
 * `" E1"` as account `E1` everywhere: the spec, showing keys only as strings, does not rule it out,
 * so the near-miss rules record it and pass. A server whose lookup alone is looser than its key
 * (the notes endpoint trims, staging does not) still fails: staging the near miss makes another
 * account. And the run's history does not read a near miss's answer as another account's fact.
 */
import { describe, expect, it } from 'vitest';
import { runAgainstReference } from '../../app/against-reference.js';
import { faithfulChoices } from '../../reference/choices.js';

const RULES = [
  'relations.lookup-near-miss.create-notes',
  'relations.lookup-near-miss.stage-account',
  'relations.lookup-near-miss.create-business',
  'relations.lookup-near-miss.process-account',
  'relations.lookup-near-miss.create-business-payment-instruction',
  'history.ids.unique',
];

async function run(target: Parameters<typeof runAgainstReference>[0]) {
  const { report } = await runAgainstReference(target, { selection: { rules: RULES }, seed: 7, numRuns: 3 });
  return report;
}

describe('near misses of a key a server normalizes', () => {
  it('keys trimmed on input everywhere: every near-miss rule passes, the near misses found recorded', async () => {
    const report = await run({ choices: { ...faithfulChoices, keysTrimmedOnInput: true }, auth: 'token' });
    for (const id of RULES) expect(report.rules.find((r) => r.id === id)?.verdict, id).toBe('pass');
    const notes = report.rules.find((r) => r.id === 'relations.lookup-near-miss.create-notes')!;
    expect(JSON.stringify(notes)).toContain('the server normalizes keys on input');
  });

  it('the faithful server keeps spaces: nothing is found, nothing recorded', async () => {
    const report = await run({ auth: 'token' });
    const notes = report.rules.find((r) => r.id === 'relations.lookup-near-miss.create-notes')!;
    expect(notes.verdict).toBe('pass');
    expect(JSON.stringify(notes)).not.toContain('the server normalizes keys on input');
  });

  it('a lookup looser than its key elsewhere (only the notes endpoint trims) fails, named by what staging answered', async () => {
    const report = await run({ fault: 'relations.notes-trimmed-external-number', auth: 'token' });
    const notes = report.rules.find((r) => r.id === 'relations.lookup-near-miss.create-notes')!;
    expect(notes.verdict).toBe('fail');
    expect(notes.reason).toMatch(/server holds it as another key: staging under it answered 201/);
  });

  it('staging that folds the letter case of the key while the status read does not fails, named by what the status answered', async () => {
    const report = await run({ fault: 'relations.stage-folds-key-case', auth: 'token' });
    const stage = report.rules.find((r) => r.id === 'relations.lookup-near-miss.stage-account')!;
    expect(stage.verdict).toBe('fail');
    expect(stage.reason).toMatch(
      /answered 200, a re-stage of the existing account .*but the status of that key answered 404/,
    );
  });

  it('staging and the status read that both fold the letter case hold the key the same: the staging rule passes', async () => {
    const report = await run({
      fault: ['relations.stage-folds-key-case', 'relations.lookup-case-insensitive.account-transfer-status'],
      auth: 'token',
    });
    expect(report.rules.find((r) => r.id === 'relations.lookup-near-miss.stage-account')?.verdict).toBe('pass');
  });

  it('creating a business that folds the letter case of its identifier while the instruction lookup does not fails, named by what the lookup answered', async () => {
    const report = await run({ fault: 'relations.business-folds-identifier-case', auth: 'token' });
    const business = report.rules.find((r) => r.id === 'relations.lookup-near-miss.create-business')!;
    expect(business.verdict).toBe('fail');
    expect(business.reason).toMatch(
      /naming the existing business \d+ .*but POST \/v1\/data-import\/business-payment-instruction\/create\/ by that identifier answered 4\d\d, and then by the exact one 201/,
    );
  });

  it('creating a business and looking one up that both fold the letter case hold the identifier the same: the business rule passes', async () => {
    const report = await run({
      fault: [
        'relations.business-folds-identifier-case',
        'relations.lookup-case-insensitive.create-business-payment-instruction',
      ],
      auth: 'token',
    });
    const business = report.rules.find((r) => r.id === 'relations.lookup-near-miss.create-business')!;
    expect(business.verdict, business.reason).toBe('pass');
  });
});
