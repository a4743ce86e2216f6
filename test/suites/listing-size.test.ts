/**
 * A listing may hold more records than a call's arguments can (about 120k on Node 20): gathered
 * with a spread, every listing rule would end as "internal error in the rule". It is read whole
 * and judged like a short one.
 */
import { describe, expect, it } from 'vitest';
import { runAgainstReference } from '../../app/against-reference.js';
import { LISTING_RULES, crowdedListings } from '../../bench/offline.js';

const RECORDS = 130_000;

describe(`a listing of ${RECORDS.toLocaleString('en')} records`, () => {
  it('is read whole and every listing rule is judged', async () => {
    const { report } = await runAgainstReference(
      { choices: { present: crowdedListings(RECORDS).present }, auth: 'token' },
      { selection: { rules: LISTING_RULES }, seed: 20 },
    );
    const verdicts = Object.fromEntries(
      report.rules.map((r) => [r.id, r.verdict === 'pass' ? 'pass' : `${r.verdict}: ${r.reason}`]),
    );
    expect(verdicts).toEqual(Object.fromEntries(LISTING_RULES.map((id) => [id, 'pass'])));
  }, 120_000);
});
