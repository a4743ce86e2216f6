/** The console says why rules were skipped in the rule's own words, not only which key to set. */
import { describe, expect, it } from 'vitest';
import { capturedConsole } from '../helpers/console.js';
import { type Case, build } from '../helpers/sample-report.js';

function summaryOf(cases: Case[]): string {
  const { reporter, text } = capturedConsole();
  reporter.summary(build(cases, { allowSkip: ['**'] }));
  return text();
}

const skip = (id: string, reason: string, skip_key: string): Case => ({
  rule: { id, level: 'MUST', spec: '§4.2', endpoints: [] },
  outcome: { verdict: 'skip', reason, skip_key } as never,
});

describe('skipped rules on the console', () => {
  it('groups them by the reason they gave, naming the key when the reason does not', () => {
    const out = summaryOf([
      skip('a.one', 'the configured supply-points payload has no date to break', 'payloads.supply_points'),
      skip('a.two', 'the configured supply-points payload has no date to break', 'payloads.supply_points'),
      skip(
        'a.three',
        'needs a Paused supplier: set fixtures.import_suppliers.paused',
        'fixtures.import_suppliers.paused',
      ),
    ]);
    expect(out).toContain(
      '2 rules: the configured supply-points payload has no date to break (payloads.supply_points)',
    );
    expect(out).toContain('1 rule: needs a Paused supplier: set fixtures.import_suppliers.paused');
  });
});
