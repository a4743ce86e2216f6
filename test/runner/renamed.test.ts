/**
 * Rule ids from before every rule named an endpoint by its one name (`auth.401.createNotes`,
 * `conventions.types.notes`) still mean their rule wherever a user wrote them — a baseline, --rule,
 * a report to re-run — read as the new id with one warning each, so renaming breaks nobody's gate.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentRuleId, withCurrentIds } from '../../core/engine/renamed.js';
import { endpointSlug } from '../../core/spec/index.js';
import { allRules } from '../../suites/index.js';
import { runCli } from '../helpers/cli.js';
import { useConfiguredTarget } from '../helpers/reference.js';

const known = new Set(allRules.map((r) => r.id));

describe('old rule ids', () => {
  it('map to the rule of the same endpoint, in every family and for the type rules', () => {
    expect(currentRuleId('auth.401.accountTransferStatus', known)).toBe('auth.401.account-transfer-status');
    expect(currentRuleId('refused.validation.valid-items-not-kept.createNotes', known)).toBe(
      'refused.validation.valid-items-not-kept.create-notes',
    );
    expect(currentRuleId('errors.bad-input.no-5xx.createBusinessPaymentInstruction', known)).toBe(
      'errors.bad-input.no-5xx.create-business-payment-instruction',
    );
    expect(currentRuleId('conventions.types.process', known)).toBe('conventions.types.process-account');
    expect(currentRuleId('conventions.types.business', known)).toBe('conventions.types.create-business');
  });

  it('leave current ids, globs, unknown ids and renames to no rule alone', () => {
    expect(currentRuleId('auth.401.create-notes', known)).toBeUndefined();
    expect(currentRuleId('conventions.types.boolean-strings', known)).toBeUndefined();
    expect(currentRuleId('auth.401.createGasReads', known)).toBeUndefined();
    expect(currentRuleId('auth.401.*', known)).toBeUndefined();
    const read = withCurrentIds(['auth.*', 'auth.401.createNotes'], known, '--rule');
    expect(read.values).toEqual(['auth.*', 'auth.401.create-notes']);
    expect(read.notes).toEqual([
      "--rule: rule id 'auth.401.createNotes' is now 'auth.401.create-notes' (every rule names an endpoint by its operation id in kebab case); read as 'auth.401.create-notes' — rename it there.",
    ]);
  });

  it('every family rule named by an endpoint maps back from its old id', () => {
    const families = allRules.filter(
      (r) =>
        r.endpoints?.length === 1 &&
        /^(auth\.|errors\.|refused\.)/.test(r.id) &&
        r.id.endsWith(`.${endpointSlug(r.endpoints[0])}`),
    );
    expect(families.length).toBeGreaterThan(60);
    for (const r of families) {
      const old = `${r.id.slice(0, -endpointSlug(r.endpoints![0]).length)}${r.endpoints![0]}`;
      expect(currentRuleId(old, known), old).toBe(r.id);
    }
  });
});

describe('the CLI reads old ids as the new, and says so', () => {
  const target = useConfiguredTarget(['auth.any-token-on-status'], 'renamed-');

  it('a --rule and a baseline entry with the old id run and excuse the renamed rule', async () => {
    writeFileSync(join(target.dir, 'baseline.yaml'), '- rule: auth.401.accountTransferStatus\n  comment: "DI-9"\n');
    const res = await runCli(
      [
        ...['--rule', 'auth.401.accountTransferStatus', '--expected-failures', 'baseline.yaml'],
        ...['--report-dir', mkdtempSync(join(target.dir, 'report-')), '--reporter', 'console'],
      ],
      { cwd: target.dir },
    );
    // The fault makes the rule fail; the old entry excuses it, so the run is green.
    expect(res.code, res.stdout + res.stderr).toBe(0);
    expect(res.stdout).toContain('auth.401.account-transfer-status');
    expect(res.stderr).toContain(
      "--rule: rule id 'auth.401.accountTransferStatus' is now 'auth.401.account-transfer-status'",
    );
    expect(res.stderr).toContain("baseline.yaml: rule id 'auth.401.accountTransferStatus' is now");
  });
});
