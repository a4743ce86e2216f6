/**
 * The echo relation (issue #42, blind spot 2): every place the spec model says an answer hands back
 * what was sent — each request field that comes back — is instantiated by a registered rule, and
 * the comparison tells the spellings the spec allows from values a round trip changed.
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../core/engine/drivers.js';
import { echoDifference, echoSites, requestKinds, sameValue } from '../../core/engine/echo.js';
import { faultById, FAULTS } from '../../reference/faults/catalogue.js';
import { allRules } from '../../suites/index.js';
import { ECHO_TAG, echoRelation, missingPlaces } from '../../suites/relations-echo.js';
import { carriesNothing, documentedShapeRelation, SHAPE_TAG } from '../../suites/relations-shape.js';

const key = (p: { endpoint: string; field?: string }) => `${p.endpoint} ${p.field}`;

describe('the echo relation covers every place of the model', () => {
  const applies = echoRelation.applies(CATALOGUE);

  it('applies at every echo the model documents, each field of the request that comes back', () => {
    const sites = echoSites(CATALOGUE);
    const documented = CATALOGUE.endpoints.filter((e) => e.responses.some((r) => r.echoes)).map((e) => e.id);
    expect(sites.map((s) => s.endpoint)).toEqual(documented);
    expect(applies.length).toBe(sites.reduce((n, s) => n + s.fields.size, 0));
    for (const site of sites) expect(site.fields.size).toBeGreaterThan(0);
    // Nested items are places of their own: a line item's units, a reading of a gas supply point.
    expect(applies.map(key)).toContain('createTransactions transactions[].line_items[].units[]');
    expect(applies.map(key)).toContain(
      'validateAccount supply_addresses[].supply_points[].readings[].consumption_delta',
    );
    // Only what the notes' results carry: {created_at, body, status}.
    expect(
      applies
        .filter((p) => p.endpoint === 'createNotes')
        .map((p) => p.field)
        .sort(),
    ).toEqual(['notes[].body', 'notes[].created_at']);
  });

  it('covered equals applies', () => {
    expect(missingPlaces(echoRelation, CATALOGUE, allRules)).toEqual([]);
    expect(echoRelation.covered(allRules).map(key).sort()).toEqual(applies.map(key).sort());
  });

  it('a rule removed shows the places only it instantiated', () => {
    for (const id of ['relations.echo.transactions', 'relations.echo.notes', 'relations.echo.validate-nested']) {
      const without = allRules.filter((r) => r.id !== id);
      const missing = missingPlaces(echoRelation, CATALOGUE, without);
      expect(missing.length, id).toBeGreaterThan(0);
      const rule = allRules.find((r) => r.id === id)!;
      for (const p of missing) expect(rule.endpoints).toContain(p.endpoint);
    }
  });

  it('every rule of the relation is tagged and states what it sends', () => {
    const tagged = allRules.filter((r) => r.tags?.includes(ECHO_TAG));
    expect(tagged.length).toBeGreaterThan(0);
    expect(new Set(echoRelation.covered(tagged).map((p) => p.endpoint))).toEqual(
      new Set(applies.map((p) => p.endpoint)),
    );
  });
});

describe('echoDifference reads values as the spec shapes them', () => {
  const tx = requestKinds('createTransactions');
  const statements = requestKinds('createHistoricalStatements');

  it('a number or decimal string comes back as either form with the same value', () => {
    expect(sameValue('12.50', 12.5, 'amount', 'numeric')).toBe(true);
    expect(sameValue(12.5, '12.50', 'amount', 'numeric')).toBe(true);
    expect(sameValue(1e21, '1000000000000000000000', 'amount', 'numeric')).toBe(true);
    expect(sameValue(1e21, '1e+21', 'amount', 'numeric')).toBe(true);
    expect(sameValue(0.30000000000000004, '0.30000000000000004', 'amount', 'numeric')).toBe(true);
  });

  it('a round trip that changes the value is a difference', () => {
    expect(sameValue(0.30000000000000004, 0.3, 'amount', 'numeric')).toBe(false);
    expect(sameValue(0.30000000000000004, '0.30', 'amount', 'numeric')).toBe(false);
    // A decimal string through a double, through cents.
    expect(sameValue('12345678901234567', '12345678901234568', 'amount', 'numeric')).toBe(false);
    expect(sameValue('10.005', '10.01', 'amount', 'numeric')).toBe(false);
    expect(sameValue('1234.56789012', 1234.57, 'amount', 'numeric')).toBe(false);
  });

  it('a string field is a string: leading zeros and its type are kept', () => {
    expect(sameValue('000042', 42, 'number', 'string')).toBe(false);
    expect(sameValue('000042', '42', 'number', 'string')).toBe(false);
    expect(sameValue('3', 3, 'number', 'string')).toBe(false);
    const d = echoDifference([{ number: '000042' }], [{ number: 42 }], { kinds: statements, base: 'statements' });
    expect(d?.path).toBe('0.number');
  });

  it('datetimes by instant, document paths with or without their slash, added fields ignored', () => {
    expect(sameValue('2024-02-29T23:59:59Z', '2024-03-01T00:59:59.000000+01:00', 'created_at', 'string')).toBe(true);
    expect(sameValue('2024-02-29T23:59:59Z', '2024-02-29T23:59:58Z', 'created_at', 'string')).toBe(false);
    expect(
      echoDifference({ statement_path: 'a/b.pdf', n: 1 }, { statement_path: '/a/b.pdf', n: 1, id: 9 }),
    ).toBeUndefined();
  });

  it('nested items are compared at every depth, in order', () => {
    const sent = [{ line_items: [{ units: [0.1, 33.333333333333336] }] }];
    const rounded = [{ line_items: [{ units: [0.1, 33.33] }] }];
    expect(echoDifference(sent, rounded, { kinds: tx, base: 'transactions' })?.path).toBe('0.line_items.0.units.1');
    // transaction_data's content is not shown: a field left out is not compared, a field carried is.
    expect(echoDifference(sent, [{}], { kinds: tx, base: 'transactions', mode: 'carried' })).toBeUndefined();
    expect(echoDifference(sent, rounded, { kinds: tx, base: 'transactions', mode: 'carried' })).toBeDefined();
  });

  it('a field a documented rule changes is not compared', () => {
    const sent = [{ transaction_date: '2020-01-01' }];
    const moved = [{ transaction_date: '2024-06-10' }];
    expect(echoDifference(sent, moved, { kinds: tx, base: 'transactions' })).toBeDefined();
    expect(
      echoDifference(sent, moved, { kinds: tx, base: 'transactions', except: ['transactions[].transaction_date'] }),
    ).toBeUndefined();
  });
});

describe('faults placed where only the relation looks', () => {
  // The whole suite against each fault is the kill matrix's job (`npm run mutation`, in CI).
  const placed = FAULTS.filter((f) => f.id.startsWith('relations.echo.') || f.id.startsWith('relations.shape.'));

  it('each names the relation rule that catches it', () => {
    expect(placed.length).toBeGreaterThan(0);
    for (const f of placed) {
      expect(faultById(f.id)?.placement?.by.length, f.id).toBe(1);
      for (const rule of f.placement!.by) {
        const r = allRules.find((x) => x.id === rule);
        expect(
          r?.tags?.some((t) => t === ECHO_TAG || t === SHAPE_TAG),
          f.id,
        ).toBe(true);
        expect(f.level ?? 'MUST', f.id).toBe(r?.level);
      }
    }
  });
});

describe('the documented-shape relation covers every documented status with a shape', () => {
  const applies = documentedShapeRelation.applies(CATALOGUE);

  it('applies at every documented success with a body or "empty body", and every documented 400 body', () => {
    const shaped = CATALOGUE.endpoints.flatMap((e) =>
      e.responses
        .filter((r) => r.body !== 'not shown' && (r.status < 300 || (r.status === 400 && e.body)))
        .map((r) => `${e.id} ${r.status}`),
    );
    expect(applies.map(key).sort()).toEqual(shaped.sort());
    // "201, empty body" of §4.2, on each endpoint the spec documents it for.
    const empty = CATALOGUE.endpoints.filter((e) => e.responses.some((r) => r.body === 'empty')).map((e) => e.id);
    for (const id of empty) expect(applies.map(key)).toContain(`${id} 201`);
    expect(empty.length).toBeGreaterThan(0);
  });

  it('covered equals applies', () => {
    expect(missingPlaces(documentedShapeRelation, CATALOGUE, allRules)).toEqual([]);
    expect(documentedShapeRelation.covered(allRules).map(key).sort()).toEqual(applies.map(key).sort());
  });

  it('a rule removed shows its endpoint missing', () => {
    const rule = allRules.find((r) => r.tags?.includes(SHAPE_TAG) && r.endpoints.includes('createSupplyPoints'))!;
    const missing = missingPlaces(
      documentedShapeRelation,
      CATALOGUE,
      allRules.filter((r) => r !== rule),
    );
    expect(missing.map(key)).toEqual(applies.filter((p) => p.endpoint === 'createSupplyPoints').map(key));
  });

  it('"empty body" is no content: nothing, or a JSON value that carries nothing', () => {
    for (const text of ['', ' ', '{}', '[]', 'null', '""', '{ }']) expect(carriesNothing(text), text).toBe(true);
    for (const text of ['{"created":1}', '[1]', '0', 'false', '"x"']) expect(carriesNothing(text), text).toBe(false);
  });
});
