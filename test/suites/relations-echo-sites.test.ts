/**
 * The echo at every echo site of the model, made from the model and the driver table alone: a site
 * added to the model gets its rule, and the comparison finds the answer's list wherever the spec
 * leaves it (the body, a field of the list's name, the only list), in any order per item.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CATALOGUE, type Catalogue, type EndpointDriver } from '../../core/engine/drivers.js';
import { echoSites } from '../../core/engine/echo.js';
import type { EndpointId, EndpointSpec } from '../../core/spec/index.js';
import { answeredList, echoedDifference, echoSiteRules, unmatchedItem } from '../../suites/relations-echo-sites.js';

const site = (id: string) => echoSites(CATALOGUE).find((s) => s.endpoint === id)!;

describe('one echo rule per echo site of the model', () => {
  it('every site has its rule, named by its endpoint, MUST where the echo is stated and SHOULD where it is a reading', () => {
    const rules = echoSiteRules();
    expect(rules.map((r) => r.id).sort()).toEqual(
      echoSites(CATALOGUE)
        .map((s) => `relations.echo.${s.endpoint.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`)
        .sort(),
    );
    expect(rules.find((r) => r.id === 'relations.echo.create-transactions')?.level).toBe('SHOULD');
    expect(rules.find((r) => r.id === 'relations.echo.validate-account')?.level).toBe('MUST');
  });

  it('an endpoint added to the model with an echo gets its rule from its model entry and driver', () => {
    const id = 'createReadings' as EndpointId;
    const endpoint: EndpointSpec = {
      id,
      method: 'POST',
      path: '/v1/data-import/readings/create/',
      spec: '§4.2 readings',
      title: 'Add readings',
      words: 'readings creation',
      looksUp: true,
      stores: true,
      body: z.object({ import_supplier: z.string(), readings: z.array(z.object({ value: z.number() })) }),
      responses: [
        {
          status: 201,
          spec: '§4.2',
          description: 'the readings',
          body: z.array(z.object({ value: z.number() })),
          echoes: { from: 'readings[]', strength: 'stated' },
        },
      ],
    };
    const driver = { ...CATALOGUE.drivers.createNotes, accepted: { status: 201 } } as EndpointDriver;
    const grown: Catalogue = {
      endpoints: [...CATALOGUE.endpoints, endpoint],
      drivers: { ...CATALOGUE.drivers, [id]: driver },
    };
    expect(echoSiteRules(grown).map((r) => r.id)).toContain('relations.echo.create-readings');
  });
});

describe('where the answer hands the list back', () => {
  it('the body, the field of the list name, or the only list; none when two could be it', () => {
    expect(answeredList([1], 'statements')).toEqual([1]);
    expect(answeredList({ import_supplier: 'S', statements: [2] }, 'statements')).toEqual([2]);
    expect(answeredList({ results: [3] }, 'transactions')).toEqual([3]);
    expect(answeredList({ a: [1], b: [2] }, 'transactions')).toBeUndefined();
    expect(answeredList('text', 'notes')).toBeUndefined();
  });

  it('items match in any order, each echoed item once', () => {
    expect(unmatchedItem([{ a: 1 }, { a: 2 }], [{ a: 2 }, { a: 1 }], {})).toBeUndefined();
    expect(unmatchedItem([{ a: 1 }, { a: 1 }], [{ a: 1 }, { a: 2 }], {})).toMatchObject({
      path: '1.a',
      sent: 1,
      echoed: 2,
    });
    expect(unmatchedItem([{ a: 1 }], [], {})).toMatchObject({ path: '(list)' });
  });
});

describe('each site of the model, held to its answer', () => {
  const note = { body: 'n1', created_at: '2024-01-01T00:00:00Z', extra: 'not echoed' };
  it('notes: body and created_at of each note, the same instant in another spelling, other fields not compared', () => {
    const sent = { import_supplier: 'S', notes: [note] };
    expect(
      echoedDifference(site('createNotes'), sent, [
        { body: 'n1', created_at: '2024-01-01T01:00:00+01:00', status: 'X' },
      ]),
    ).toBeUndefined();
    expect(echoedDifference(site('createNotes'), sent, [{ body: 'n1 ', created_at: note.created_at }])).toMatchObject({
      path: '0.body',
    });
  });

  it('transactions: transaction_data carries its fields as sent; one it leaves out is not compared (a reading)', () => {
    const tx = { transaction_id: 'T1', amount: '10.50', type: 'CHARGE' };
    const sent = { transactions: [tx] };
    expect(
      echoedDifference(site('createTransactions'), sent, {
        results: [{ status: 'OK', transaction_data: { amount: 10.5 } }],
      }),
    ).toBeUndefined();
    expect(
      echoedDifference(site('createTransactions'), sent, { results: [{ transaction_data: { amount: '10.05' } }] }),
    ).toMatchObject({ path: '0.amount' });
  });

  it('historical statements: the list alone or the request validated; a statement left out is a difference', () => {
    const statements = [{ number: '0042' }, { number: '7' }];
    const sent = { import_supplier: 'S', statements };
    expect(echoedDifference(site('createHistoricalStatements'), sent, statements)).toBeUndefined();
    expect(echoedDifference(site('createHistoricalStatements'), sent, { ...sent })).toBeUndefined();
    expect(echoedDifference(site('createHistoricalStatements'), sent, [statements[0]])).toBeDefined();
  });

  it('validate: the whole body', () => {
    const sent = { import_supplier: 'S', external_account_number: 'E', email: 'a@b.c' };
    expect(echoedDifference(site('validateAccount'), sent, { ...sent, id: 1 })).toBeUndefined();
    expect(echoedDifference(site('validateAccount'), sent, { ...sent, email: 'A@B.C' })).toMatchObject({
      path: 'email',
    });
  });
});
