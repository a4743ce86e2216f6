/**
 * Payload templates and the setup chain, against a reference server that makes a legal choice the
 * canonical payloads do not fit: it accepts only its own account_type values (§2.3: allowed values
 * "not shown").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN, startReferenceServer, type ReferenceServer } from '../../reference/index.js';
import { ConfigError } from '../../core/config/errors.js';
import { parseConfig } from '../../core/config/load.js';
import { embeddedFixtures, embeddedPayloads, embeddedSeed } from '../../app/embedded.js';
import { runConformance } from '../../app/conformance.js';
import { PayloadTemplates } from '../../core/engine/templates.js';
import { IdRegistry, Ids } from '../../core/engine/ids.js';
import { loadFixture } from '../../core/spec/fixtures.js';
import type { Report } from '../../core/report/schema.js';

let server: ReferenceServer;
beforeAll(async () => {
  const seed = await embeddedSeed({ token: DEFAULT_TOKEN });
  seed.settings = { ...seed.settings, account_types: ['RESIDENCIAL'] };
  server = await startReferenceServer({ seed });
});
afterAll(() => server.close());

const accepted = () => {
  const account = loadFixture<Record<string, unknown>>('accounts/electricity');
  delete account.business;
  return { ...account, account_type: 'RESIDENCIAL' };
};

const run = async (payloads = {}): Promise<Report> =>
  runConformance({
    baseUrl: server.url,
    auth: { token: DEFAULT_TOKEN },
    fixtures: await embeddedFixtures(),
    payloads: { ...embeddedPayloads(), ...payloads },
    seed: 5,
    numRuns: 5,
    fullTranscripts: true,
    allowSkip: ['auth.api-key.*'],
  });

describe('an implementation that accepts only its own account_type values', () => {
  it('without a template: one cause, naming account_type and payloads.account; the rules that stand on it are not judged', async () => {
    const report = await run();
    expect(report.causes.map((c) => c.id)).toEqual(['setup.account']);
    const [cause] = report.causes;
    expect(cause.errors).toEqual([{ attr: 'account_type', code: 'invalid_choice' }]);
    expect(cause.fix[0]).toBe('payloads.account');
    expect(cause.answer).toMatch(/answered 400: account_type \(invalid_choice\)/);
    // Every rule stopped by it is an error with that cause and made no request of its own.
    const stopped = report.rules.filter((r) => r.cause === 'setup.account');
    expect(stopped.length).toBeGreaterThan(50);
    expect(cause.rules).toEqual(stopped.map((r) => r.id));
    for (const r of stopped) expect([r.verdict, r.error_kind]).toEqual(['error', 'precondition']);
    expect(stopped.filter((r) => r.transcript.length === 0).length).toBeGreaterThan(stopped.length * 0.9);
    // Not one failure comes of it, and the rules that do not need an account still run and pass.
    expect(report.rules.filter((r) => r.verdict === 'fail' && r.level === 'MUST')).toEqual([]);
    expect(report.rules.find((r) => r.id === 'auth.401.create-notes')?.verdict).toBe('pass');
    expect(report.setup?.steps.map((s) => [s.step, s.outcome])).toEqual([
      ['account', 'refused'],
      ['import', 'not attempted'],
      ['business', 'established'],
      ['link', 'not attempted'],
    ]);
    expect(report.summary.exit_code).toBe(1);
  });

  it('with payloads.account set to an account it accepts: no MUST failure or error, and generated accounts keep the template', async () => {
    const report = await run({ account: accepted() });
    expect(report.causes).toEqual([]);
    const bad = report.rules.filter((r) => r.level === 'MUST' && (r.verdict === 'fail' || r.verdict === 'error'));
    expect(bad.map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(report.summary.exit_code).toBe(0);
    // The property rules derive their accounts from the template: its account_type, every time.
    const typesSent = (id: string) =>
      report.rules
        .find((r) => r.id === id)!
        .transcript.filter((e) => e.request.url.endsWith('/validate-account/'))
        .map((e) => (JSON.parse(e.request.body!) as { account_type?: unknown }).account_type);
    const valid = typesSent('properties.account.valid-accepted');
    expect(valid.length).toBeGreaterThan(0);
    expect(new Set(valid)).toEqual(new Set(['RESIDENCIAL']));
    // A single-defect account differs from the template in its one defect, which may be account_type itself.
    const defective = typesSent('properties.account.single-defect-refused');
    expect(defective.filter((t) => t === 'RESIDENCIAL').length).toBeGreaterThan(defective.length / 2);
    expect(defective).not.toContain('DOMESTIC');
  });
});

describe('payload templates', () => {
  const ids = () => new Ids(new IdRegistry('cf', 'abc123'));

  it("keep the template's fields and values and replace only identifiers, keys and the contract link", () => {
    const template = { ...accepted(), contract: { business_contract_identifier: 'C-1' } };
    const templates = new PayloadTemplates({ account: template }, 'contract.business_contract_identifier');
    const account = templates.account(ids(), 'SUPPLIER_X') as Record<string, unknown>;
    expect(account.account_type).toBe('RESIDENCIAL');
    expect(account.billing_postcode).toBe((template as Record<string, unknown>).billing_postcode);
    expect(account.import_supplier).toBe('SUPPLIER_X');
    expect(account.external_account_number).toMatch(/^cf-abc123-A\d+$/);
    expect(account.contract).toBeUndefined();
    expect(Object.keys(account).sort()).toEqual(
      Object.keys(template)
        .filter((k) => k !== 'contract')
        .sort(),
    );
  });

  it('billing documents: retyped as asked, two of them even from a one-document template, every identifier fresh', () => {
    const one = loadFixture<{ historical_billing_documents: unknown[] }>('historical-billing-documents/period-based');
    one.historical_billing_documents = one.historical_billing_documents.slice(0, 1);
    const templates = new PayloadTemplates({ historical_billing_documents: one });
    const body = templates.billingDocuments(
      ids(),
      { import_supplier: 'S', external_account_number: 'E' },
      'L-1',
      'ITEM_BASED',
    );
    const docs = body.historical_billing_documents;
    expect(docs).toHaveLength(2);
    expect(new Set(docs.map((d) => d.billing_document_identifier)).size).toBe(2);
    expect(docs.every((d) => d.billing_document_type === 'ITEM_BASED' && d.bill_period_from_date === undefined)).toBe(
      true,
    );
    const period = templates.billingDocuments(
      ids(),
      { import_supplier: 'S', external_account_number: 'E' },
      'L-1',
      'PERIOD_BASED',
    );
    expect(period.historical_billing_documents.every((d) => typeof d.bill_period_from_date === 'string')).toBe(true);
    expect([body.ledger_code, body.billing_document_type]).toEqual(['L-1', 'ITEM_BASED']);
  });

  it('refuse a template that breaks the documented shapes, naming the kind and every attr', () => {
    const broken = { ...accepted(), customers: [{ email: 42 }], undocumented: true };
    expect(() => new PayloadTemplates({ account: broken })).toThrow(ConfigError);
    try {
      new PayloadTemplates({ account: broken });
    } catch (error) {
      const text = (error as ConfigError).message;
      expect(text).toMatch(/payloads\.account/);
      expect(text).toMatch(/customers\.0\.email/);
      expect(text).toMatch(/undocumented: not a documented field/);
    }
  });

  it('moved: fixtures.payloads is a config error naming the new keys', () => {
    expect(() => parseConfig('fixtures:\n  payloads:\n    agreements: { a: 1 }\n', 'c.yaml', {})).toThrow(
      /fixtures\.payloads has moved/,
    );
    try {
      parseConfig('fixtures:\n  payloads:\n    agreements: { a: 1 }\n', 'c.yaml', {});
    } catch (error) {
      expect((error as ConfigError).problems.join('\n')).toMatch(
        /fixtures\.payloads\.agreements to payloads\.agreements/,
      );
    }
  });
});
