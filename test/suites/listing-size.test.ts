/**
 * A listing may hold more records than a call's arguments can (about 120k on Node 20): gathered
 * with a spread, every listing rule would end as "internal error in the rule". It is read whole
 * and judged like a short one.
 */
import { describe, expect, it } from 'vitest';
import { runAgainstReference } from '../../app/against-reference.js';
import type { Reply } from '../../reference/reply.js';

const RECORDS = 130_000;
const LISTING_RULES = ['status.listing-all-pending', 'status.listing-pending-nulls', 'status.listings-per-supplier'];

/** Other accounts' pending records, put before the supplier's own in the all and pending listings. */
const crowd = Array.from({ length: RECORDS }, (_, i) => ({
  external_account_number: `CROWD-${i}`,
  service_account_number: null,
  account_created_at: null,
}));
const crowded = (answer: Reply, endpoint: string | undefined): Reply =>
  (endpoint === 'allAccountImportProcesses' || endpoint === 'pendingAccountImportProcesses') &&
  answer.status === 200 &&
  Array.isArray(answer.body)
    ? { ...answer, body: [...crowd, ...answer.body] }
    : answer;

describe(`a listing of ${RECORDS.toLocaleString('en')} records`, () => {
  it('is read whole and every listing rule is judged', async () => {
    const { report } = await runAgainstReference(
      { choices: { present: crowded }, auth: 'token' },
      { selection: { rules: LISTING_RULES }, seed: 20 },
    );
    const verdicts = Object.fromEntries(
      report.rules.map((r) => [r.id, r.verdict === 'pass' ? 'pass' : `${r.verdict}: ${r.reason}`]),
    );
    expect(verdicts).toEqual(Object.fromEntries(LISTING_RULES.map((id) => [id, 'pass'])));
  }, 120_000);
});
