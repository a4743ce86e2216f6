/**
 * A configuration mistake is named as one: against a server that reads the contract link elsewhere
 * than the default path (§2.3 does not show where it sits), the rule that sees the link ignored
 * names account.business_contract_identifier_path in its line; a supplier the target does not have
 * (a preset's stand-in left in place), whose listing answers 404, is named beside "not implemented".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../app/conformance.js';
import { faithfulChoices } from '../../reference/choices.js';
import { DEFAULT_TOKEN, type ReferenceServer, startReferenceServer } from '../../reference/index.js';

const ELSEWHERE = 'contract.business_contract_identifier';
let server: ReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer({ choices: { ...faithfulChoices, contractPath: ELSEWHERE } });
});
afterAll(async () => {
  await server?.close();
});

const run = () =>
  runConformance({
    baseUrl: server.url,
    auth: { token: DEFAULT_TOKEN },
    fixtures: { import_suppliers: { ongoing: 'SUPPLIER_ONGOING' }, operations_team: 'Migrations' },
    selection: { rules: ['business.link.unknown-contract'] },
  });

describe('the contract-link path', () => {
  it('left at its default against a server that nests the link elsewhere: the failure names the key', async () => {
    const [rule] = (await run()).rules;
    expect(rule?.verdict).toBe('fail');
    expect(rule?.reason).toMatch(
      /the link was sent at business\.business_contract_identifier: if the implementation reads it elsewhere, set account\.business_contract_identifier_path$/,
    );
  });
});

describe('a configured supplier the target does not have', () => {
  it('a listing answering 404 for it reads not implemented, and the cause names fixtures.import_suppliers', async () => {
    const faithful = await startReferenceServer();
    try {
      const report = await runConformance({
        baseUrl: faithful.url,
        auth: { token: DEFAULT_TOKEN },
        fixtures: { import_suppliers: { ongoing: 'SUPPLIER_NOT_HERE' }, operations_team: 'Migrations' },
        selection: { rules: ['status.*'] },
      });
      const cause = report.causes.find((c) => c.id === 'not-implemented.importedAccountImportProcesses');
      expect(cause?.fix).toEqual(['run.partial', 'fixtures.import_suppliers']);
      expect(cause?.hint).toMatch(
        /A 404 is read so because the request named a configured supplier: if fixtures\.import_suppliers does not name suppliers of this target, set it to ones that exist$/,
      );
    } finally {
      await faithful.close();
    }
  });
});
