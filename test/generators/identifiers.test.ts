/** freshIdentifiers: new identifiers every time, references kept, defects untouched. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cupsCheckLetters } from '../../core/domain/spanish-identifiers.js';
import { strictModel, type TransactionsRequest } from '../../core/spec/index.js';
import { checkAccountPayload } from '../../reference/handlers/migration.js';
import * as gen from '../../generators/index.js';
import { identifiersOf, type RequestName } from '../../core/engine/fresh-identifiers.js';
import { KEY, SUPPLIER, newIds, referenceEnv } from './helpers.js';

const one = <T>(arb: fc.Arbitrary<T>, seed = 1): T => fc.sample(arb, { seed, numRuns: 1 })[0];

const shared = (a: Map<string, string[]>, b: Map<string, string[]>): string[] =>
  [...a].flatMap(([kind, values]) => values.filter((v) => b.get(kind)?.includes(v)));

/** The paths of a JSON value, to compare shapes. */
const paths = (value: unknown, at = ''): string[] =>
  typeof value === 'object' && value !== null
    ? Object.entries(value).flatMap(([k, v]) => [`${at}${k}`, ...paths(v, `${at}${k}.`)])
    : [];

describe('freshIdentifiers', () => {
  const payloads: [RequestName, unknown][] = [
    ['AccountPayload', one(gen.accountPayload({ import_supplier: SUPPLIER, supply: 'dual' }))],
    ['NotesRequest', one(gen.notesRequest(KEY))],
    ['TransactionsRequest', one(gen.transactionsRequest(KEY))],
    [
      'HistoricalBillingDocumentsRequest',
      one(
        gen.historicalBillingDocumentsRequest({
          ...KEY,
          ledger_code: 'ELEC-LEDGER-1',
          billing_document_type: 'PERIOD_BASED',
        }),
      ),
    ],
    ['HistoricalStatementsRequest', one(gen.historicalStatementsRequest(KEY))],
    ['BusinessRequest', one(gen.businessRequest({ import_supplier_code: SUPPLIER }))],
  ];

  it.each(payloads)('gives a %s identifiers no other freshening shares, and changes nothing else', (name, payload) => {
    const ids = newIds();
    const first = gen.freshIdentifiers(name, payload, ids);
    const second = gen.freshIdentifiers(name, payload, ids);
    expect(shared(identifiersOf(name, first), identifiersOf(name, second))).toEqual([]);
    expect(paths(first)).toEqual(paths(payload));
    expect(first).not.toEqual(payload);
  });

  it('keeps a freshened account valid: CUPS check letters and distributors included', () => {
    const account = payloads[0][1] as gen.Invalid['payload'];
    const fresh = gen.freshIdentifiers('AccountPayload', account, newIds());
    expect(checkAccountPayload(fresh, referenceEnv())).toMatchObject({ ok: true });
    const points = (a: any) => a.supply_addresses.flatMap((g: any) => g.supply_points);
    points(fresh).forEach((point: { identifier: string; distributor_ree_code: string }, i: number) => {
      expect(point.identifier).not.toBe(points(account)[i].identifier);
      expect(point.identifier.slice(2, 6)).toBe(point.distributor_ree_code);
      expect(point.identifier.slice(-2)).toBe(cupsCheckLetters(point.identifier.slice(2, 18)));
    });
  });

  it('replaces a value repeated in one payload by one new value', () => {
    const request = one(gen.transactionsRequest({ ...KEY, types: ['PAYMENT'] }));
    const twice: TransactionsRequest = {
      ...request,
      transactions: [request.transactions[0], { ...request.transactions[0], amount: 1 }],
    };
    const fresh = gen.freshIdentifiers('TransactionsRequest', twice, newIds());
    expect(fresh.transactions[0].transaction_id).not.toBe(twice.transactions[0].transaction_id);
    expect(fresh.transactions[1].transaction_id).toBe(fresh.transactions[0].transaction_id);
  });

  it('keeps references to what already exists: the account of a §4.2 request, the ledger, the business', () => {
    const ids = newIds();
    const notes = gen.freshIdentifiers('NotesRequest', one(gen.notesRequest(KEY)), ids);
    expect(notes).toMatchObject(KEY);
    const documents = gen.freshIdentifiers('HistoricalBillingDocumentsRequest', payloads[3][1], ids);
    expect(documents).toMatchObject({ ...KEY, ledger_code: 'ELEC-LEDGER-1' });
    const instruction = {
      import_supplier_code: SUPPLIER,
      external_business_identifier: 'BUS-ACME-0001',
      vendor: 'STRIPE',
      reference: 'REF-OK-1',
      type: 'CARD',
      accounts: ['EXT-ELEC-0001'],
    };
    const fresh = gen.freshIdentifiers(
      'BusinessPaymentInstructionRequest',
      one(gen.businessPaymentInstructionRequest(instruction)),
      ids,
    );
    expect(fresh).toMatchObject({
      external_business_identifier: 'BUS-ACME-0001',
      accounts: [{ external_account_number: 'EXT-ELEC-0001' }],
    });
  });

  it('keeps an account linked to its business contract when both share the renames', () => {
    const ids = newIds();
    const renames: gen.Renames = new Map();
    const business = one(gen.businessRequest({ import_supplier_code: SUPPLIER }));
    const contract = business.business!.business_contracts![0].identifier!;
    const account = one(gen.accountPayload({ import_supplier: SUPPLIER, business_contract_identifier: contract }));
    const freshBusiness = gen.freshIdentifiers('BusinessRequest', business, ids, { renames });
    const freshAccount = gen.freshIdentifiers('AccountPayload', account, ids, { renames });
    const freshContract = freshBusiness.business!.business_contracts![0].identifier;
    expect(freshContract).not.toBe(contract);
    expect(freshAccount.business?.business_contract_identifier).toBe(freshContract);
    // Without the renames, the link names the contract the caller gave.
    expect(gen.freshIdentifiers('AccountPayload', account, ids).business?.business_contract_identifier).toBe(contract);
  });

  it('never touches the field that carries a defect', () => {
    const env = referenceEnv();
    const ids = newIds();
    const kinds: gen.DefectKind[] = [
      'malformed-email',
      'required-missing',
      'wrong-type-array',
      'wrong-type-object',
      'note-without-content',
    ];
    fc.assert(
      fc.property(gen.invalidAccountPayload({ import_supplier: SUPPLIER, kinds }), (invalid) => {
        const fresh = gen.freshIdentifiers('AccountPayload', invalid.payload, ids, { except: invalid.attr });
        const at = (payload: unknown) => invalid.attr.split('.').reduce<any>((node, part) => node?.[part], payload);
        expect(at(fresh)).toEqual(at(invalid.payload));
        expect(fresh.external_account_number).not.toBe(invalid.payload.external_account_number);
        const result = checkAccountPayload(fresh, env);
        expect(!result.ok && result.errors.every((e) => gen.matchesDefect(e.attr, invalid))).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('leaves every identifier of a valid payload valid for the strict model', () => {
    const [name, payload] = payloads[5];
    expect(strictModel.BusinessRequest.safeParse(gen.freshIdentifiers(name, payload, newIds())).success).toBe(true);
  });
});
