/**
 * A faithful server that refuses what it cannot store (§2.3, §8: limits not shown): the `limited`
 * profile. Undeclared, its limits are discovered (INFO) and the rules that send edge values judge
 * their cases replayed inside them; declared (`limits:`), nothing is refused and nothing discovered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgainstReference } from '../../app/against-reference.js';
import { COLUMN_LIMITS } from '../../reference/field-limits.js';
import { LIMITED_DECLARED } from '../../reference/profiles.js';
import { type ReferenceServer, startReferenceServer } from '../../reference/server.js';
import { loadFixture } from '../../core/spec/fixtures.js';
import { DEFAULT_TOKEN } from '../../reference/seed.js';

/** The canonical account without its link to a contract this server has not created. */
function canonical(): Record<string, any> {
  const { business: _, ...account } = loadFixture<Record<string, any>>('accounts/electricity');
  return account;
}

const RULES = ['properties.account.valid-accepted', 'notes.create.success-is-stored'];
const verdicts = (rules: { id: string; verdict: string; reason?: string }[]) =>
  Object.fromEntries(rules.map((r) => [r.id, r.verdict === 'pass' ? 'pass' : `${r.verdict}: ${r.reason}`]));

describe('the limited reference server', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer({ fieldLimits: COLUMN_LIMITS });
  });
  afterAll(() => server.close());

  const validate = (body: unknown) =>
    fetch(`${server.url}/v1/data-import/validate-account/`, {
      method: 'POST',
      headers: { authorization: `Token ${DEFAULT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('refuses a long text and a large integer with a §7.1 400 at the field, beside other errors', async () => {
    const account = canonical();
    account.billing_name = 'x'.repeat(256);
    account.supply_addresses[0].supply_points[0].agreements[0].estimated_monthly_fee_in_cents = 2 ** 31;
    account.customers[0].email = 'not an e-mail';
    const res = await validate(account);
    expect(res.status).toBe(400);
    const errors = ((await res.json()) as { errors: { attr: string; code: string }[] }).errors;
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ attr: 'billing_name', code: 'max_length' }),
        expect.objectContaining({
          attr: 'supply_addresses.0.supply_points.0.agreements.0.estimated_monthly_fee_in_cents',
          code: 'max_value',
        }),
        expect.objectContaining({ attr: 'customers.0.email' }),
      ]),
    );
  });

  it('takes the values at its limits', async () => {
    const account = canonical();
    account.billing_name = 'x'.repeat(255);
    account.supply_addresses[0].supply_points[0].agreements[0].estimated_monthly_fee_in_cents = 2 ** 31 - 1;
    expect((await validate(account)).status).toBe(200);
  });
});

describe('the suite against the limited profile', () => {
  it('undeclared: the limits are discovered, listed with the line that declares each, and no rule fails', async () => {
    const { report } = await runAgainstReference({ profile: 'limited' }, { selection: { rules: RULES }, seed: 7 });
    expect(verdicts(report.rules)).toEqual(Object.fromEntries(RULES.map((id) => [id, 'pass'])));
    const limits = report.discovered_limits ?? [];
    expect(limits).toContainEqual(
      expect.objectContaining({
        endpoint: 'createNotes',
        field: 'notes',
        kind: 'items',
        refused: '120 items',
        code: 'max_items',
      }),
    );
    expect(limits.some((l) => l.endpoint === 'validateAccount' && l.kind === 'length')).toBe(true);
    for (const l of limits)
      expect(l.declare).toMatch(/^limits: \{ fields: \{ "[\w.*]+": \{ (max_length|max_items|max|min): \d+ \} \} \}$/);
  }, 120_000);

  it('declared: nothing is refused and nothing discovered', async () => {
    const { report } = await runAgainstReference(
      { profile: 'limited' },
      { selection: { rules: RULES }, seed: 7, limits: LIMITED_DECLARED },
    );
    expect(verdicts(report.rules)).toEqual(Object.fromEntries(RULES.map((id) => [id, 'pass'])));
    expect(report.discovered_limits).toBeUndefined();
    const refused = report.rules.flatMap((r) => r.transcript).filter((e) => e.response?.status === 400);
    expect(refused).toEqual([]);
  }, 120_000);
});
