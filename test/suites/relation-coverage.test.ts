import { describe, expect, it } from 'vitest';
import { CATALOGUE, type Catalogue } from '../../core/engine/drivers.js';
import { keyFields, nearMisses, placeName, relationCoverage, TOKEN_FIELD } from '../../core/engine/relations.js';
import { defineRules } from '../../core/engine/rule.js';
import { specText } from '../../core/spec/sections.js';
import type { EndpointId } from '../../core/spec/index.js';
import { relationsLine } from '../../reports/console.js';
import { renderHtml } from '../../reports/html.js';
import { allRules, relationKinds } from '../../suites/index.js';
import { sampleReport } from '../helpers/sample-report.js';
import { identityRules } from '../../suites/relations-identity.js';
import { nearMissRules, tokenNearMissRule } from '../../suites/relations-lookup.js';
import { defectRules } from '../../suites/relations-defect.js';
import { typeRules } from '../../suites/conventions-types.js';
import { edgeRule, edgeRules, planOf } from '../../suites/relations-edge.js';
import { EDGE_TAG } from '../../core/engine/edges.js';

/** The places of every kind that no registered rule instantiates, as text. */
const gaps = (catalogue: Catalogue, rules: typeof allRules) =>
  relationCoverage(catalogue, rules, relationKinds).flatMap((c) => c.missing.map((p) => `${c.kind}: ${placeName(p)}`));

describe('relation coverage (core/engine/relations.ts)', () => {
  it('quotes each kind’s spec sentence verbatim and cites a section', () => {
    const spec = specText();
    for (const k of relationKinds) {
      expect(k.spec, k.id).toMatch(/^§\d/);
      const quotes = [...k.sentence.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
      expect(quotes.length, k.id).toBeGreaterThan(0);
      for (const q of quotes) expect(spec, `${k.id}: ${q}`).toContain(q);
    }
  });

  it('every place of the model a kind applies to has an instance among the registered rules', () => {
    expect(gaps(CATALOGUE, allRules)).toEqual([]);
    for (const c of relationCoverage(CATALOGUE, allRules, relationKinds)) {
      expect(c.applies, c.kind).toBeGreaterThan(0);
      expect(c.covered, c.kind).toBe(c.applies);
    }
  });

  it('reports the place of a rule taken out (the check can fail)', () => {
    for (const rule of allRules.filter((r) => r.relation)) {
      const without = allRules.filter((r) => r !== rule);
      const places = rule.relation!.places.map((p) => `${rule.relation!.kind}: ${placeName(p)}`);
      expect(gaps(CATALOGUE, without), rule.id).toEqual(places);
    }
  });

  it('names an edge place whose instances are taken out of its rule (the edge check can fail)', () => {
    const notes = CATALOGUE.endpoints.find((e) => e.id === 'createNotes')!;
    const plan = planOf(CATALOGUE, notes);
    const without = plan.filter((i) => !i.places.includes('notes[].created_at'));
    expect(without.length).toBeLessThan(plan.length);
    const [reduced] = defineRules('relations', [edgeRule(CATALOGUE, notes, without)]);
    const rules = allRules.map((r) => (r.id === reduced.id ? reduced : r));
    expect(gaps(CATALOGUE, rules)).toEqual(['edge: createNotes notes[].created_at']);
    const edge = relationCoverage(CATALOGUE, rules, relationKinds).find((c) => c.kind === 'edge')!;
    expect(edge.applies - edge.covered).toBe(1);
    expect(allRules.filter((r) => r.tags?.includes(EDGE_TAG)).length).toBe(edgeRules().length);
  });

  it('derives the lookup places from the model: every key of every lookup, and the token of every endpoint', () => {
    const lookup = relationCoverage(CATALOGUE, allRules, relationKinds).find((c) => c.kind === 'lookup-near-miss')!;
    const keys = CATALOGUE.endpoints.flatMap((e) => keyFields(CATALOGUE, e));
    expect(lookup.applies).toBe(keys.length + CATALOGUE.endpoints.length);
    // The path parameters of the status read, and the body keys of an addition and of process.
    const status = CATALOGUE.endpoints.find((e) => e.path.includes('{external_account_number}'))!;
    expect(keyFields(CATALOGUE, status)).toEqual(['import_supplier_code', 'external_account_number']);
    const validate = CATALOGUE.endpoints.find((e) => !e.looksUp && !e.stores && e.method === 'POST')!;
    expect(keyFields(CATALOGUE, validate), 'validate looks nothing up and keeps nothing').toEqual([]);
    expect(TOKEN_FIELD).toBe('Authorization');
  });

  it('an endpoint the model gains is a place without an instance until the family makes its rules', () => {
    const notes = CATALOGUE.endpoints.find((e) => e.id === 'createNotes')!;
    const added = { ...notes, id: 'createNotesAgain' as EndpointId, path: '/v1/data-import/notes-again/create/' };
    const grown: Catalogue = {
      endpoints: [...CATALOGUE.endpoints, added],
      drivers: { ...CATALOGUE.drivers, createNotesAgain: CATALOGUE.drivers.createNotes } as Catalogue['drivers'],
    };
    // The near-miss places of the new endpoint (the echo and shape kinds name its places too).
    expect(gaps(grown, allRules).filter((g) => g.startsWith('lookup-near-miss') || g.startsWith('identity'))).toEqual([
      'lookup-near-miss: createNotesAgain import_supplier',
      'lookup-near-miss: createNotesAgain external_account_number',
      `lookup-near-miss: createNotesAgain ${TOKEN_FIELD}`,
    ]);
    expect(gaps(grown, allRules).every((g) => g.includes('createNotesAgain'))).toBe(true);
    expect(gaps(grown, allRules)).toContain('edge: createNotesAgain notes[].body');
    const family = defineRules('relations', [
      ...nearMissRules(grown),
      tokenNearMissRule(grown),
      ...identityRules(grown),
      ...edgeRules(grown),
    ]);
    const others = allRules.filter(
      (r) =>
        !r.id.startsWith('relations.lookup-near-miss.') &&
        !r.id.startsWith('relations.identity.') &&
        !r.id.startsWith('relations.edge.'),
    );
    expect(
      gaps(grown, [...others, ...family]).filter(
        (g) => g.startsWith('lookup-near-miss') || g.startsWith('identity') || g.startsWith('edge'),
      ),
    ).toEqual([]);
  });

  it('names the defect place a rule taken out leaves without an instance: a nested list item of the account payload', () => {
    const without = allRules.filter((r) => r.id !== 'relations.defect.stage-account');
    const missing = gaps(CATALOGUE, without);
    expect(missing).toContain(
      'defect: stageAccount ledgers.*.current_statement_transactions.*.line_items.*.start_date impossible-date',
    );
    expect(missing).toContain('defect: stageAccount business wrong-type-object');
    expect(missing.every((g) => g.startsWith('defect: stageAccount '))).toBe(true);
    // The field types of a typed endpoint are its conventions.types rule's places.
    const untyped = gaps(
      CATALOGUE,
      allRules.filter((r) => r.id !== 'conventions.types.create-notes'),
    );
    expect(untyped).toContain('defect: createNotes notes.*.is_pinned not-a-boolean');
    expect(untyped).not.toContain('defect: createNotes notes.*.created_at impossible-datetime');
  });

  it('an endpoint the model gains has defect places without an instance until the families make its rules', () => {
    const notes = CATALOGUE.endpoints.find((e) => e.id === 'createNotes')!;
    const added = { ...notes, id: 'createNotesAgain' as EndpointId, path: '/v1/data-import/notes-again/create/' };
    const grown: Catalogue = {
      endpoints: [...CATALOGUE.endpoints, added],
      drivers: { ...CATALOGUE.drivers, createNotesAgain: CATALOGUE.drivers.createNotes } as Catalogue['drivers'],
    };
    const defectGaps = (rules: typeof allRules) => gaps(grown, rules).filter((g) => g.startsWith('defect: '));
    expect(defectGaps(allRules)).toContain('defect: createNotesAgain notes.*.created_at malformed-datetime');
    expect(defectGaps(allRules)).toContain('defect: createNotesAgain notes.*.is_pinned not-a-boolean');
    expect(defectGaps(allRules).every((g) => g.startsWith('defect: createNotesAgain '))).toBe(true);
    // Both families, made from the grown table, name the new endpoint's places, each rule by the endpoint's one name.
    const forIt = (r: { endpoints?: readonly string[] }) => r.endpoints?.includes('createNotesAgain') ?? false;
    const made = [
      ...defineRules('conventions', typeRules(grown).filter(forIt)),
      ...defineRules('relations', defectRules(grown).filter(forIt)),
    ];
    expect(made.map((r) => r.id)).toEqual([
      'conventions.types.create-notes-again',
      'relations.defect.create-notes-again',
    ]);
    expect(defectGaps([...allRules, ...made])).toEqual([]);
  });

  it('spells a key nearly the same: each spelling is another string, never the key', () => {
    for (const key of ['SUPPLIER_ONGOING', 'cf-abc123-A38Q', '0042']) {
      const misses = nearMisses(key);
      for (const m of misses) expect(m.value, `${key} ${m.what}`).not.toBe(key);
      expect(misses.map((m) => m.what)).toEqual([
        ...(key.toLowerCase() !== key.toUpperCase() ? ['the letter case flipped'] : []),
        'a leading space',
        'a trailing space',
        'a proper prefix',
        'an extension',
      ]);
      expect(misses.find((m) => m.what === 'a proper prefix')!.value).toBe(key.slice(0, -1));
    }
    expect(nearMisses('abc', false).map((m) => m.what)).not.toContain('a leading space');
  });

  it('is said in the console line and the HTML table, a missing place named', () => {
    const grown = relationCoverage(
      CATALOGUE,
      allRules.filter((r) => r.id !== 'relations.lookup-near-miss.token'),
      relationKinds,
    );
    const report = { ...sampleReport(), relations: grown };
    const lookup = grown.find((c) => c.kind === 'lookup-near-miss')!;
    expect(relationsLine(report)).toBe(
      `Relations: ${grown.map((c, i) => `${c.kind} ${c.covered}/${c.applies}${i === 0 ? ' places' : ''}`).join(', ')}`,
    );
    expect(lookup.applies - lookup.covered).toBe(CATALOGUE.endpoints.length);
    const page = renderHtml(report);
    expect(page).toContain('id="relations-table"');
    expect(page).toContain(`<code>createNotes ${TOKEN_FIELD}</code>`);
    expect(relationsLine({ ...sampleReport(), relations: undefined })).toBeUndefined();
  });
});
