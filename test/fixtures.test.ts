/**
 * Proves the canonical fixtures: each validates against the spec model and the strict model, the
 * catalogue and the directory agree, the two full accounts exercise every documented field, and the
 * whole set goes through the reference server over HTTP in the order a migration would send it.
 */
import { readdirSync } from 'node:fs';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { z } from 'zod';
import { FIXTURES_DIR, fixtureCatalogue, loadFixture } from '../core/spec/fixtures.js';
import { missingDocumentedFields, model, strictModel, TransactionType } from '../core/spec/index.js';
import { ReferenceAgreementsRequest, ReferenceSupplyPointsRequest } from '../reference/handlers/additions.js';
import { DEFAULT_TOKEN, startReferenceServer, type ReferenceServer } from '../reference/index.js';

type Json = Record<string, unknown>;

function issuesOf(result: { success: boolean; error?: z.ZodError }): string {
  return result.success ? '' : JSON.stringify(result.error!.issues, null, 2);
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// --- helpers over all fixtures -------------------------------------------------------------------

/** Every object nested anywhere in a JSON value, with its dot path. */
function objectsIn(value: unknown, path = ''): { path: string; object: Json }[] {
  const at = (key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  if (Array.isArray(value)) return value.flatMap((item, i) => objectsIn(item, at(i)));
  if (!isObject(value)) return [];
  return [{ path, object: value }, ...Object.entries(value).flatMap(([key, child]) => objectsIn(child, at(key)))];
}

const allObjects = () =>
  fixtureCatalogue.flatMap((entry) => objectsIn(loadFixture(entry.name)).map((o) => ({ ...o, fixture: entry.name })));

function jsonFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.json'))
    .map((file) =>
      file
        .split('\\')
        .join('/')
        .replace(/\.json$/, ''),
    )
    .sort();
}

// --- tests -----------------------------------------------------------------------------------------

describe('fixture loader', () => {
  it('returns a fresh copy on every call', () => {
    const first = loadFixture<Json>('accounts/minimal');
    first.external_account_number = 'CHANGED';
    expect(loadFixture<Json>('accounts/minimal').external_account_number).toBe('EXT-MIN-0001');
  });

  it('names the file when a fixture does not exist', () => {
    expect(() => loadFixture('accounts/no-such-fixture')).toThrow(/no-such-fixture\.json/);
  });
});

describe('fixture catalogue', () => {
  it.each(fixtureCatalogue.map((entry) => [entry.name, entry] as const))(
    '%s validates against model and strictModel',
    (_name, entry) => {
      const fixture = loadFixture(entry.name);
      const documented = (model[entry.schema] as z.ZodType).safeParse(fixture);
      expect(documented.success, `model.${entry.schema}: ${issuesOf(documented)}`).toBe(true);
      const strict = (strictModel[entry.schema] as z.ZodType).safeParse(fixture);
      expect(strict.success, `strictModel.${entry.schema}: ${issuesOf(strict)}`).toBe(true);
    },
  );

  it('addition fixtures validate against the reference server shapes', () => {
    const agreements = ReferenceAgreementsRequest.safeParse(loadFixture('additions/agreements'));
    expect(agreements.success, `ReferenceAgreementsRequest: ${issuesOf(agreements)}`).toBe(true);
    const supplyPoints = ReferenceSupplyPointsRequest.safeParse(loadFixture('additions/supply-points'));
    expect(supplyPoints.success, `ReferenceSupplyPointsRequest: ${issuesOf(supplyPoints)}`).toBe(true);
  });

  it('lists every JSON file under fixtures/ exactly once, and nothing else', () => {
    const names = fixtureCatalogue.map((entry) => entry.name);
    expect(new Set(names).size, 'duplicate catalogue names').toBe(names.length);
    expect(jsonFilesUnder(FIXTURES_DIR)).toEqual([...names].sort());
  });

  it('the minimal account is the smallest payload the strict model accepts', () => {
    const minimal = loadFixture<Json>('accounts/minimal');
    expect(Object.keys(minimal).sort()).toEqual(['external_account_number', 'import_supplier']);
    for (const key of Object.keys(minimal)) {
      const { [key]: _dropped, ...rest } = minimal;
      expect(strictModel.AccountPayload.safeParse(rest).success, `accepted without ${key}`).toBe(false);
    }
  });
});

describe('field coverage', () => {
  const accountFields = Object.keys(model.AccountPayload.shape);

  // Maximal canonical payloads: an implementation may require any documented field (§2.3, §4:
  // required flags not shown), so every payload the suite sends by default carries every one of
  // them in every element of every array — fields the spec ties to a condition under it.
  it.each(
    fixtureCatalogue
      .filter((f) => f.name !== 'accounts/minimal' && !f.name.startsWith('additions/'))
      .map((f) => [f.name, f] as const),
  )('%s carries every documented field in every element', (_name, entry) => {
    expect(missingDocumentedFields(loadFixture(entry.name), model[entry.schema] as z.ZodType)).toEqual([]);
  });

  it('the completeness checker names a second customer without account_roles, and a SUPPLY_CHARGE field only on SUPPLY_CHARGE', () => {
    const account = loadFixture<{ customers: Json[] }>('accounts/electricity');
    delete account.customers[1].account_roles;
    expect(missingDocumentedFields(account, model.AccountPayload)).toEqual(['customers.1.account_roles']);
    const charge = {
      transaction_id: 'T',
      transaction_date: '2024-01-01',
      amount: 1,
      type: 'CHARGE',
      reason: 'R',
      payment_type: 'P',
      reference: 'X',
      display_note: 'd',
      note: 'n',
    };
    expect(missingDocumentedFields(charge, model.Transaction)).toEqual([]);
    expect(missingDocumentedFields({ ...charge, type: 'SUPPLY_CHARGE' }, model.Transaction)).toEqual([
      'product_code',
      'line_items',
      'tax_items',
    ]);
  });

  it('the completeness checker reports a field removed deep inside an account', () => {
    const account = loadFixture<{ supply_addresses: { supply_points: { agreements: Json[] }[] }[] }>(
      'accounts/electricity',
    );
    delete account.supply_addresses[0].supply_points[0].agreements[0].atr_type;
    expect(missingDocumentedFields(account, model.AccountPayload)).toEqual([
      'supply_addresses.0.supply_points.0.agreements.0.atr_type',
    ]);
  });

  it('the electricity account has every documented field, down to every listed sub-object', () => {
    const account = loadFixture<Json>('accounts/electricity');
    expect(accountFields.filter((key) => !(key in account))).toEqual([]);
    expect(missingDocumentedFields(account, model.AccountPayload)).toEqual([]);
  });

  it('the gas account has every documented field except business, down to every listed sub-object', () => {
    const account = loadFixture<Json>('accounts/gas');
    expect(accountFields.filter((key) => !(key in account))).toEqual(['business']);
    expect(missingDocumentedFields(account, model.AccountPayload)).toEqual([]);
    const points = objectsIn(account).filter(({ object }) => object.supply_type === 'GAS' && 'identifier' in object);
    expect(points.map(({ object }) => ['readings', 'billable_items'].every((key) => key in object))).toEqual([true]);
  });

  it('the transactions fixture has every transaction type, and its supply charge every line and tax item field', () => {
    const request = loadFixture<{ transactions: Json[] }>('transactions/all-types');
    expect(request.transactions.map((tx) => tx.type).sort()).toEqual([...TransactionType.options].sort());
    const supplyCharge = request.transactions.find((tx) => tx.type === 'SUPPLY_CHARGE')!;
    expect(['product_code', 'line_items', 'tax_items'].filter((key) => !(key in supplyCharge))).toEqual([]);
    expect(missingDocumentedFields(supplyCharge, model.Transaction)).toEqual([]);
  });
});

describe('fixture data consistency', () => {
  it('transaction ids are unique across all fixtures', () => {
    const ids = allObjects()
      .filter(({ object }) => typeof object.transaction_id === 'string')
      .map(({ object }) => object.transaction_id as string);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(ids.length).toBeGreaterThan(0);
  });

  it('every range starts no later than it ends (reading intervals strictly before)', () => {
    const pairs = [
      ['effective_from', 'effective_to'],
      ['interval_start', 'interval_end'],
      ['bill_period_from_date', 'bill_period_to_date'],
      ['start_date', 'end_date'],
    ] as const;
    const backwards: string[] = [];
    for (const { fixture, path, object } of allObjects()) {
      for (const [from, to] of pairs) {
        const a = object[from];
        const b = object[to];
        if (typeof a !== 'string' || typeof b !== 'string') continue;
        const strict = a.includes('T'); // datetime intervals are readings, which must not be empty
        if (strict ? a >= b : a > b) backwards.push(`${fixture}: ${path}.${from} ${a} > ${to} ${b}`);
      }
    }
    expect(backwards).toEqual([]);
  });

  it('money amounts have at most two decimals', () => {
    const moneyKeys = [
      'amount',
      'net_amount',
      'gross_amount',
      'last_statement_balance',
      'ledger_balance',
      'value_taxed',
    ];
    const bad = allObjects().flatMap(({ fixture, path, object }) =>
      moneyKeys
        .filter((key) => key in object && !/^-?\d+(\.\d{1,2})?$/.test(String(object[key])))
        .map((key) => `${fixture}: ${path}.${key} = ${String(object[key])}`),
    );
    expect(bad).toEqual([]);
  });

  it('supply point identifiers are CUPS-like', () => {
    const identifiers = allObjects().flatMap(({ object }) =>
      [object.supply_type !== undefined ? object.identifier : undefined, object.supply_point_identifier].filter(
        (v) => v !== undefined,
      ),
    );
    expect(identifiers.length).toBeGreaterThanOrEqual(4);
    expect(identifiers.filter((id) => typeof id !== 'string' || !/^ES\d{16}[A-Z]{2}$/.test(id))).toEqual([]);
  });

  it('new transactions fall inside the open statement period of the electricity ledger', () => {
    const account = loadFixture<{ ledgers: { last_statement_closing_date: string }[] }>('accounts/electricity');
    const closing = account.ledgers[0].last_statement_closing_date;
    const request = loadFixture<{ transactions: { transaction_date: string }[] }>('transactions/all-types');
    expect(
      request.transactions.filter((tx) => !(tx.transaction_date > closing && tx.transaction_date <= '2024-06-30')),
    ).toEqual([]);
  });

  it('cross-fixture links point at things the other fixtures create', () => {
    const electricity = loadFixture<{
      business: { business_contract_identifier: string };
      supply_addresses: { supply_points: { identifier: string }[] }[];
    }>('accounts/electricity');
    const business = loadFixture<{ business: { business_contracts: { identifier: string }[] } }>('business/business');
    expect(business.business.business_contracts.map((c) => c.identifier)).toContain(
      electricity.business.business_contract_identifier,
    );
    const points = electricity.supply_addresses.flatMap((g) => g.supply_points.map((p) => p.identifier));
    expect(points).toContain(
      loadFixture<{ supply_point_identifier: string }>('additions/agreements').supply_point_identifier,
    );
    const added = loadFixture<{ supply_points: { identifier: string }[] }>('additions/supply-points').supply_points.map(
      (p) => p.identifier,
    );
    expect(added.filter((id) => points.includes(id))).toEqual([]);
  });
});

describe('fixtures against the reference server', () => {
  let server: ReferenceServer;

  beforeAll(async () => {
    server = await startReferenceServer();
  });

  afterAll(async () => {
    await server?.close();
  });

  async function post(
    path: string,
    body: unknown,
  ): Promise<{ status: number; text: string; json: any; report: string }> {
    const response = await fetch(`${server.url}/v1/data-import/${path}`, {
      method: 'POST',
      headers: { Authorization: `Token ${DEFAULT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return {
      status: response.status,
      text,
      json,
      report: `POST /v1/data-import/${path} -> ${response.status}: ${text}`,
    };
  }

  it('creates the business', async () => {
    const res = await post('business/', loadFixture('business/business'));
    expect(res.status, res.report).toBe(201);
    expect(Number.isInteger(res.json?.service_business_id), res.report).toBe(true);
    expect(res.json.external_business_identifier, res.report).toBe('BUS-ACME-0001');
  });

  it.each(['electricity', 'gas', 'minimal'])('validates, stages and processes the %s account', async (which) => {
    const account = loadFixture<{ external_account_number: string }>(`accounts/${which}`);
    const validated = await post('validate-account/', account);
    expect(validated.status, validated.report).toBe(200);
    const staged = await post('account-import-process/create-or-update/', account);
    expect(staged.status, staged.report).toBe(201);
    const processed = await post('account-import-process/process/', {
      external_account_number: account.external_account_number,
      import_supplier_code: 'SUPPLIER_ONGOING',
      operations_team_name: 'Migrations',
    });
    expect(processed.status, processed.report).toBe(201);
    expect(
      typeof processed.json?.service_account_number === 'string' && processed.json.service_account_number !== '',
      processed.report,
    ).toBe(true);
  });

  it('adds the notes', async () => {
    const request = loadFixture<{ notes: unknown[] }>('notes/notes');
    const res = await post('notes/create/', request);
    expect(res.status, res.report).toBe(201);
    expect(Array.isArray(res.json) ? res.json.map((n: Json) => n.status) : res.json, res.report).toEqual(
      request.notes.map(() => 'NOTE_CREATION_SUCCESS'),
    );
  });

  it('adds the transactions without moving any of them', async () => {
    const request = loadFixture<{ transactions: { transaction_id: string; transaction_date: string }[] }>(
      'transactions/all-types',
    );
    const res = await post('transactions/create/', request);
    expect(res.status, res.report).toBe(201);
    const results: { status: string; transaction_data: Json }[] = res.json?.results ?? [];
    expect(
      results.map((r) => r.status),
      res.report,
    ).toEqual(request.transactions.map(() => 'TRANSACTION_ADDED_TO_ACCOUNT'));
    expect(
      results.map((r) => [r.transaction_data.transaction_id, r.transaction_data.transaction_date]),
      res.report,
    ).toEqual(request.transactions.map((tx) => [tx.transaction_id, tx.transaction_date]));
  });

  it.each(['period-based', 'item-based'])('adds the %s historical billing documents', async (which) => {
    const res = await post(
      'historical-billing-documents/create/',
      loadFixture(`historical-billing-documents/${which}`),
    );
    expect(res.status, res.report).toBe(201);
    expect(res.text, res.report).toBe('');
  });

  it('adds the historical statements', async () => {
    const res = await post('historical-statements/create/', loadFixture('historical-statements/statements'));
    expect(res.status, res.report).toBe(201);
  });

  it('adds the account payment instruction', async () => {
    const res = await post('payment-instruction/create/', loadFixture('payment-instructions/account'));
    expect(res.status, res.report).toBe(201);
    expect(res.json, res.report).toEqual({ service_account_number: expect.any(String), reference: 'REF-OK-1' });
    expect(res.json.service_account_number, res.report).not.toBe('');
  });

  it('adds the business payment instruction', async () => {
    const res = await post('business-payment-instruction/create/', loadFixture('payment-instructions/business'));
    expect(res.status, res.report).toBe(201);
    expect(res.json, res.report).toEqual({ reference: 'REF-OK-2', external_business_identifier: 'BUS-ACME-0001' });
  });

  it('adds the agreements', async () => {
    const res = await post('agreements/create/', loadFixture('additions/agreements'));
    expect(res.status, res.report).toBe(201);
  });

  it('adds the supply points', async () => {
    const res = await post('supply-points/create/', loadFixture('additions/supply-points'));
    expect(res.status, res.report).toBe(201);
  });
});
