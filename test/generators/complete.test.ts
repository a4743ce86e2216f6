/** `complete: true` means every documented field at every level, and every list non-empty. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { model } from '../../core/spec/index.js';
import * as gen from '../../generators/index.js';
import { LARGE_BATCH } from '../../generators/edges.js';
import { rules } from '../../generators/overrides/index.js';
import { KEY, SUPPLIER, walk } from './helpers.js';

/** Fields the spec shows on one variant only (§2.4 "on SUPPLY_CHARGE", §2.5 "period-based documents"). */
function variantOnly(spec: string | undefined, value: Record<string, unknown>): string[] {
  if (spec === '§2.4 transaction' && value.type !== 'SUPPLY_CHARGE') return ['product_code', 'line_items', 'tax_items'];
  if (spec === '§2.5 historical billing document' && value.billing_document_type !== 'PERIOD_BASED')
    return ['bill_period_from_date', 'bill_period_to_date'];
  return [];
}

/** Paths (arrays as `[]`) of lists and the most items the generators put in them (edges: a large batch). */
const MOST_ITEMS: Record<string, number> = {
  customers: 3,
  supply_addresses: 2,
  'supply_addresses[].supply_points': 3,
  'supply_addresses[].supply_points[].agreements': 3,
  'supply_addresses[].supply_points[].readings': 3,
  'supply_addresses[].supply_points[].billable_items': 3,
  ledgers: 2,
  'ledgers[].current_statement_transactions': 4,
  'ledgers[].historical_statement_transactions': 4,
  notes: LARGE_BATCH,
  statements: 2,
  metadata: 2,
  references: 2,
  'business.business_contracts': 3,
  'business.business_contracts[].versions': 3,
};

/** What is missing from a payload that claims to be complete. */
function gaps(schema: z.ZodType, payload: unknown, { linked = false } = {}): string[] {
  const found: string[] = [];
  for (const { path, schema: s, value } of walk(schema, payload)) {
    const at = path.join('.') || '(root)';
    if (s instanceof z.ZodObject) {
      const object = value as Record<string, unknown>;
      const exempt = variantOnly(s.meta()?.spec, object);
      if (path.length === 0 && !linked) exempt.push('business');
      for (const key of Object.keys(s.shape)) {
        if (!exempt.includes(key) && object[key] === undefined) found.push(`${at}.${key} missing`);
      }
    } else if (Array.isArray(value)) {
      const listPath = path
        .map((p) => (typeof p === 'number' ? '[]' : p))
        .join('.')
        .replace(/\.\[\]/g, '[]');
      if (value.length === 0) found.push(`${at} empty`);
      if (value.length > (MOST_ITEMS[listPath] ?? Infinity)) found.push(`${at} has ${value.length} items`);
    } else if (s instanceof z.ZodRecord && Object.keys(value as object).length === 0) {
      found.push(`${at} empty`);
    }
  }
  return found;
}

const REQUESTS = [
  model.AccountPayload,
  model.NotesRequest,
  model.TransactionsRequest,
  model.HistoricalBillingDocumentsRequest,
  model.HistoricalStatementsRequest,
  model.PaymentInstructionRequest,
  model.BusinessRequest,
  model.BusinessPaymentInstructionRequest,
];

/** The `§…` sections and field names of every object in the request bodies. */
function vocabulary(schema: z.ZodType, found = { sections: new Set<string>(), fields: new Set<string>() }) {
  const bare = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  if (bare instanceof z.ZodArray) vocabulary(bare.element as z.ZodType, found);
  if (bare instanceof z.ZodObject) {
    found.sections.add(bare.meta()?.spec ?? '');
    for (const [key, field] of Object.entries(bare.shape as Record<string, z.ZodType>)) {
      found.fields.add(key);
      vocabulary(field, found);
    }
  }
  return found;
}

describe('the override table', () => {
  it('names only objects and fields the model has, so a renamed one cannot silently stop applying', () => {
    const known = { sections: new Set<string>(), fields: new Set<string>() };
    REQUESTS.forEach((schema) => vocabulary(schema, known));
    expect(Object.keys(rules.objects).filter((section) => !known.sections.has(section))).toEqual([]);
    expect(Object.keys(rules.fields).filter((field) => !known.fields.has(field))).toEqual([]);
    for (const [section, rule] of Object.entries(rules.objects)) {
      expect(rule.joint?.fields.filter((field) => !known.fields.has(field)) ?? [], section).toEqual([]);
    }
  });
});

describe('complete payloads', () => {
  it('account payloads carry every documented field, of every supply type', () => {
    const accounts = fc.oneof(
      gen.accountPayload({ import_supplier: SUPPLIER, supply: 'electricity' }),
      gen.accountPayload({ import_supplier: SUPPLIER, supply: 'gas' }),
      gen.accountPayload({ import_supplier: SUPPLIER, supply: 'dual' }),
    );
    fc.assert(
      fc.property(accounts, (p) => {
        expect(gaps(model.AccountPayload, p)).toEqual([]);
      }),
      { numRuns: 100 },
    );
    const [linked] = fc.sample(
      gen.accountPayload({ import_supplier: SUPPLIER, business_contract_identifier: 'CONTRACT-1' }),
      { seed: 2, numRuns: 1 },
    );
    expect(gaps(model.AccountPayload, linked, { linked: true })).toEqual([]);
  });

  it('request bodies carry every documented field', () => {
    const requests: [z.ZodType, fc.Arbitrary<unknown>][] = [
      [model.NotesRequest, gen.notesRequest(KEY)],
      [model.TransactionsRequest, gen.transactionsRequest(KEY)],
      [
        model.HistoricalBillingDocumentsRequest,
        gen.historicalBillingDocumentsRequest({ ...KEY, ledger_code: 'L-1', billing_document_type: 'PERIOD_BASED' }),
      ],
      [
        model.HistoricalBillingDocumentsRequest,
        gen.historicalBillingDocumentsRequest({ ...KEY, ledger_code: 'L-1', billing_document_type: 'ITEM_BASED' }),
      ],
      [model.HistoricalStatementsRequest, gen.historicalStatementsRequest(KEY)],
      [model.BusinessRequest, gen.businessRequest({ import_supplier_code: SUPPLIER })],
    ];
    for (const [schema, arb] of requests) {
      fc.assert(
        fc.property(arb, (p) => {
          expect(gaps(schema, p)).toEqual([]);
        }),
        { numRuns: 50 },
      );
    }
  });

  it('a dual account has both kinds of supply point at every address', () => {
    for (const account of fc.sample(
      gen.accountPayload({ import_supplier: SUPPLIER, supply: 'dual', complete: false }),
      { seed: 4, numRuns: 50 },
    )) {
      for (const group of account.supply_addresses ?? []) {
        expect(new Set(group.supply_points?.map((p) => p.supply_type))).toEqual(new Set(['ELECTRICITY', 'GAS']));
      }
    }
  });

  it('sparse payloads leave out only optional and unspecified fields, and some of them', () => {
    let leftOut = 0;
    for (const account of fc.sample(gen.accountPayload({ import_supplier: SUPPLIER, complete: false }), {
      seed: 5,
      numRuns: 50,
    })) {
      for (const { schema, value } of walk(model.AccountPayload, account)) {
        if (!(schema instanceof z.ZodObject)) continue;
        for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
          const presence = field.meta()?.presence;
          if ((value as Record<string, unknown>)[key] !== undefined) continue;
          expect(presence === 'optional' || presence === 'unspecified').toBe(true);
          leftOut++;
        }
      }
    }
    expect(leftOut).toBeGreaterThan(100);
  });
});
