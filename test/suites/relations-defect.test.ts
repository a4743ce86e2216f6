/**
 * The defect relation (suites/relations-defect.ts): its places are every documented field of every
 * typed request and of the account payload, with each MUST defect kind its schema fits; the rules
 * send each one, and a server that lets one through where no older rule looks is caught by them.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runTask } from '../../app/mutation/task.js';
import { CATALOGUE } from '../../core/engine/drivers.js';
import { relationCoverage } from '../../core/engine/relations.js';
import { loadFixture } from '../../core/spec/fixtures.js';
import { model } from '../../core/spec/index.js';
import {
  DEFECTS,
  DEFECTS_PER_REQUEST,
  defectGroups,
  defectKinds,
  defectPlaces,
  everyDefect,
  kindsFitting,
  placeOfAttr,
  withDefects,
} from '../../generators/defects.js';
import { getAtPath, pointsAt } from '../../core/spec/paths.js';
import { allRules, relationKinds } from '../../suites/index.js';
import { defectEndpoints, UNTYPED } from '../../suites/conventions-types.js';
import { defectRelation, defectRules } from '../../suites/relations-defect.js';

const MUST = defectKinds('MUST');
const names = (endpoint: string) =>
  defectRelation
    .applies(CATALOGUE)
    .filter((p) => p.endpoint === endpoint)
    .map((p) => p.field ?? '');

describe('the defect places (generators/defects.ts kindsFitting, defectPlaces)', () => {
  it('fit a field by its schema: dates, datetimes, integers, enums, booleans, e-mails; a union takes none', () => {
    expect(kindsFitting(z.iso.date(), true)).toEqual([
      'wrong-type-string',
      'impossible-date',
      'malformed-date',
      'datetime-for-date',
    ]);
    expect(kindsFitting(z.iso.datetime(), true)).toEqual([
      'wrong-type-string',
      'impossible-datetime',
      'malformed-datetime',
      'datetime-missing-z',
    ]);
    expect(kindsFitting(z.int(), true)).toEqual(['wrong-type-number', 'fraction-for-integer']);
    expect(kindsFitting(z.number(), true)).toEqual(['wrong-type-number']);
    expect(kindsFitting(z.enum(['GAS', 'ELECTRICITY']), true)).toEqual(['enum-outside-set', 'enum-wrong-case']);
    expect(kindsFitting(z.boolean(), true)).toEqual(['not-a-boolean', 'boolean-as-string']);
    expect(kindsFitting(z.union([z.number(), z.string()]), true)).toEqual([]);
    expect(kindsFitting(z.object({}), false), 'the body itself takes no other type').toEqual([]);
    expect(kindsFitting(model.Note, true)).toEqual(['wrong-type-object', 'note-without-content']);
  });

  it('are every place everyDefect sends in a body carrying every documented field, and no other', () => {
    const bodies: [endpoint: string, fixture: string][] = [
      ['createTransactions', 'transactions/all-types'],
      ['createNotes', 'notes/notes'],
      ['createBusiness', 'business/business'],
      ['createHistoricalStatements', 'historical-statements/statements'],
    ];
    for (const [id, fixture] of bodies) {
      const e = CATALOGUE.endpoints.find((x) => x.id === id)!;
      const sent = everyDefect(e.body!, loadFixture<object>(fixture), MUST, UNTYPED).map(
        (c) => `${placeOfAttr(c.attr)} ${c.defect.kind}`,
      );
      const places = defectPlaces(e.body!, MUST, UNTYPED).map((p) => `${p.field} ${p.kind}`);
      expect(new Set(sent), id).toEqual(new Set(places));
    }
  });

  it('are MUST kinds only, at nested list items (as *), on the account payload of validate and stage', () => {
    const all = defectRelation.applies(CATALOGUE);
    expect(all.every((p) => DEFECTS[p.field!.split(' ')[1] as keyof typeof DEFECTS].level === 'MUST')).toBe(true);
    for (const endpoint of ['validateAccount', 'stageAccount']) {
      const fields = names(endpoint);
      expect(fields).toContain('ledgers.*.current_statement_transactions.*.line_items.*.start_date impossible-date');
      expect(fields).toContain('supply_addresses.*.supply_points.*.supply_type enum-wrong-case');
      expect(fields).toContain(
        'supply_addresses.*.supply_points.*.agreements.*.estimated_monthly_fee_in_cents fraction-for-integer',
      );
      expect(fields).toContain('unknown_occupier not-a-boolean');
      expect(fields).toContain('business wrong-type-object');
      // §2.4 amount is a number or a decimal string: text that is neither is a reading the union does not fit.
      expect(fields.some((f) => f.startsWith('ledgers.*.current_statement_transactions.*.amount '))).toBe(false);
    }
    expect(names('createTransactions')).toContain('transactions.*.type enum-outside-set');
    expect(names('createNotes')).toContain('notes.* note-without-content');
    // §4.2: ledger_number has no shape, so no value there is a defect.
    expect(names('createHistoricalBillingDocuments').some((f) => f.startsWith('ledger_number'))).toBe(false);
    // §4.2: the shape of agreements and supply points is not shown; a GET has no body.
    expect(names('createAgreements')).toEqual([]);
    expect(names('accountTransferStatus')).toEqual([]);
    expect(all.length).toBe(defectEndpoints().reduce((n, t) => n + defectPlaces(t.schema, MUST, UNTYPED).length, 0));
  });

  it('are covered by the registered rules, each place once', () => {
    const coverage = relationCoverage(CATALOGUE, allRules, relationKinds).find((c) => c.kind === 'defect')!;
    expect(coverage.missing).toEqual([]);
    const stated = defectRelation.covered(allRules).map((p) => `${p.endpoint} ${p.field}`);
    expect(new Set(stated).size).toBe(stated.length);
    expect(stated.length).toBe(coverage.applies);
    // No rule of the family for an endpoint whose field types leave it nothing (process: a boolean and strings).
    expect(defectRules().map((r) => r.id)).not.toContain('relations.defect.process-account');
    expect(defectRules().map((r) => r.id)).toContain('relations.defect.stage-account');
  });
});

describe('defects sharing a request (generators/defects.ts defectGroups, withDefects)', () => {
  const bodies: [endpoint: string, fixture: string][] = [
    ['validateAccount', 'accounts/electricity'],
    ['createHistoricalBillingDocuments', 'historical-billing-documents/period-based'],
    ['createTransactions', 'transactions/all-types'],
    ['createNotes', 'notes/notes'],
    ['createBusiness', 'business/business'],
    ['createHistoricalStatements', 'historical-statements/statements'],
  ];
  const casesOf = (id: string, fixture: string) => {
    const e = CATALOGUE.endpoints.find((x) => x.id === id)!;
    const base = loadFixture<object>(fixture);
    return { base, cases: everyDefect(e.body!, base, MUST, UNTYPED) };
  };

  it('carry each defect as its own request does: every defect changes the value at its attr alone', () => {
    for (const [id, fixture] of bodies) {
      const { base, cases } = casesOf(id, fixture);
      expect(cases.length, id).toBeGreaterThan(0);
      for (const c of cases) expect(withDefects(base, [c]), `${id} ${c.attr} ${c.defect.kind}`).toEqual(c.payload);
    }
  });

  it('hold each case once, at most DEFECTS_PER_REQUEST a request, no two at one field, one inside the other, or two dates of one object', () => {
    for (const [id, fixture] of bodies) {
      const { base, cases } = casesOf(id, fixture);
      const groups = defectGroups(cases, base);
      expect(groups.flat()).toHaveLength(cases.length);
      expect(new Set(groups.flat())).toEqual(new Set(cases));
      for (const g of groups) {
        expect(g.length).toBeLessThanOrEqual(DEFECTS_PER_REQUEST);
        for (const a of g)
          for (const b of g) {
            if (a === b) continue;
            expect(pointsAt(a.attr, b.attr), `${a.attr} / ${b.attr}`).toBe(false);
            const parent = (x: string) => x.slice(0, Math.max(0, x.lastIndexOf('.')));
            const dated = (x: string) => /^\d{4}-\d{2}-\d{2}/.test(String(getAtPath(base, x)));
            if (parent(a.attr) === parent(b.attr))
              expect(dated(a.attr) || dated(b.attr), `${a.attr} / ${b.attr}`).toBe(false);
          }
      }
      // The account payload's defects share some twenty requests, not one each.
      if (id === 'validateAccount') expect(groups.length).toBeLessThan(cases.length / 5);
    }
  });
});

describe('relations.defect.*', () => {
  it('catch a contract link taken as JSON text on validate and stage, and no older rule does', async () => {
    const result = await runTask(
      { kind: 'fault', id: 'relations.defect.account-business-link-as-text' },
      { seed: 1, numRuns: 5 },
    );
    expect(result.errored).toEqual([]);
    expect(result.failed.map((f) => `${f.rule} ${f.level}`).sort()).toEqual([
      'relations.defect.stage-account MUST',
      'relations.defect.validate-account MUST',
    ]);
  }, 120_000);

  it('pass on the faithful server and on the variant', async () => {
    for (const task of [{ kind: 'faithful' } as const, { kind: 'variant', profile: 'variant' } as const]) {
      const result = await runTask(task, { seed: 1, numRuns: 1, selection: { rules: ['relations.defect.*'] } });
      expect(result.rules).toBe(defectRules().length);
      expect(result.failed).toEqual([]);
      expect(result.errored).toEqual([]);
    }
  }, 120_000);
});
