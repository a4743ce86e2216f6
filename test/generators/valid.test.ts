/** Every valid arbitrary gives payloads both models accept, and account payloads the reference accepts. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { model, strictModel } from '../../core/spec/index.js';
import { checkAccountPayload } from '../../reference/handlers/migration.js';
import * as gen from '../../generators/index.js';
import { KEY, SUPPLIER, referenceEnv } from './helpers.js';

const NUM_RUNS = 200;
const instruction = { vendor: 'STRIPE', reference: 'REF-OK-1', type: 'CARD' };

const acceptedByBothModels = (name: keyof typeof model, arb: fc.Arbitrary<unknown>) => {
  const spec = model[name] as z.ZodType;
  const strict = strictModel[name] as z.ZodType;
  fc.assert(
    fc.property(arb, (p) => spec.safeParse(p).success && strict.safeParse(p).success),
    { numRuns: NUM_RUNS },
  );
};

describe('valid payload arbitraries', () => {
  const env = referenceEnv();

  it.each([
    ['complete', true],
    ['sparse', false],
  ])('%s account payloads pass both models and the reference server checks', (_, complete) => {
    fc.assert(
      fc.property(gen.accountPayload({ import_supplier: SUPPLIER, complete }), (p) => {
        expect(model.AccountPayload.safeParse(p).success).toBe(true);
        expect(strictModel.AccountPayload.safeParse(p).success).toBe(true);
        expect(checkAccountPayload(p, env)).toMatchObject({ ok: true });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('an account links to the business contract it is given, and to none otherwise', () => {
    const [linked] = fc.sample(
      gen.accountPayload({ import_supplier: SUPPLIER, business_contract_identifier: 'CONTRACT-ACME-2024' }),
      { seed: 1, numRuns: 1 },
    );
    const [unlinked] = fc.sample(gen.accountPayload({ import_supplier: SUPPLIER }), { seed: 1, numRuns: 1 });
    expect(linked.business).toEqual({ business_contract_identifier: 'CONTRACT-ACME-2024' });
    expect(unlinked).not.toHaveProperty('business');
    expect(strictModel.AccountPayload.safeParse(linked).success).toBe(true);
  });

  it('caller-provided values are used as given', () => {
    const [account] = fc.sample(
      gen.accountPayload({ import_supplier: SUPPLIER, external_account_number: 'EXT-9', complete: false }),
      { seed: 3, numRuns: 1 },
    );
    expect(account).toMatchObject({ import_supplier: SUPPLIER, external_account_number: 'EXT-9' });
    const [documents] = fc.sample(
      gen.historicalBillingDocumentsRequest({
        ...KEY,
        ledger_code: 'ELEC-LEDGER-1',
        billing_document_type: 'ITEM_BASED',
      }),
      { seed: 3, numRuns: 1 },
    );
    expect(documents).toMatchObject({ ...KEY, ledger_code: 'ELEC-LEDGER-1', billing_document_type: 'ITEM_BASED' });
  });

  it('notes requests', () =>
    acceptedByBothModels(
      'NotesRequest',
      fc.boolean().chain((complete) => gen.notesRequest({ ...KEY, complete })),
    ));

  it('transactions requests, of every type', () => {
    acceptedByBothModels(
      'TransactionsRequest',
      fc.boolean().chain((complete) => gen.transactionsRequest({ ...KEY, complete, from: '2024-06-01' })),
    );
    const types = new Set(
      fc
        .sample(gen.transactionsRequest(KEY), { seed: 7, numRuns: 100 })
        .flatMap((r) => r.transactions.map((t) => t.type)),
    );
    expect([...types].sort()).toEqual([...model.Transaction.shape.type.unwrap().options].sort());
  });

  it.each(['ITEM_BASED', 'PERIOD_BASED'] as const)('historical billing documents requests, %s', (type) => {
    acceptedByBothModels(
      'HistoricalBillingDocumentsRequest',
      fc.boolean().chain((complete) =>
        gen.historicalBillingDocumentsRequest({
          ...KEY,
          ledger_code: 'ELEC-LEDGER-1',
          billing_document_type: type,
          complete,
        }),
      ),
    );
  });

  it('historical statements requests', () =>
    acceptedByBothModels(
      'HistoricalStatementsRequest',
      fc.boolean().chain((complete) => gen.historicalStatementsRequest({ ...KEY, complete })),
    ));

  it('account payment instructions', () =>
    acceptedByBothModels('PaymentInstructionRequest', gen.paymentInstructionRequest({ ...KEY, ...instruction })));

  it('business requests', () =>
    acceptedByBothModels(
      'BusinessRequest',
      fc.boolean().chain((complete) => gen.businessRequest({ import_supplier_code: SUPPLIER, complete })),
    ));

  it('business payment instructions', () =>
    acceptedByBothModels(
      'BusinessPaymentInstructionRequest',
      gen.businessPaymentInstructionRequest({
        import_supplier_code: SUPPLIER,
        external_business_identifier: 'BUS-ACME-0001',
        ...instruction,
        accounts: ['EXT-ELEC-0001'],
      }),
    ));

  it('the same seed gives the same payloads', () => {
    const arbitraries: fc.Arbitrary<unknown>[] = [
      gen.accountPayload({ import_supplier: SUPPLIER, complete: false }),
      gen.invalidAccountPayload({ import_supplier: SUPPLIER }),
      gen.transactionsRequest(KEY),
      gen.businessRequest({ import_supplier_code: SUPPLIER }),
    ];
    for (const arb of arbitraries) {
      expect(fc.sample(arb, { seed: 42, numRuns: 5 })).toEqual(fc.sample(arb, { seed: 42, numRuns: 5 }));
    }
  });
});
