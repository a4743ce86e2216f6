/**
 * One endpoint, one record: every endpoint of the spec model has a driver (core/engine/drivers.ts),
 * and a driver that cannot observe its endpoint's effect says why. The table is keyed by EndpointId,
 * so a missing record is a compile error; `driverProblems` says the same of any catalogue, which is
 * how an endpoint added to a copy of the model without a driver is named here.
 */
import { describe, expect, it } from 'vitest';
import {
  CATALOGUE,
  type Catalogue,
  DRIVERS,
  batchesWithoutRule,
  batchOf,
  driverProblems,
  type EndpointDriver,
  observes,
  scopeOf,
} from '../../core/engine/drivers.js';
import { type EndpointId, type EndpointSpec, endpointSlug, model } from '../../core/spec/index.js';
import { LOOKUP_KEYS, shapeOf } from '../../core/engine/relations.js';
import { unauthorizedRules } from '../../suites/auth.js';
import { refusedHasNoEffectRules } from '../../suites/auth-refused.js';
import { notFoundRules } from '../../suites/errors.js';
import { allRules } from '../../suites/index.js';
import { unknownAccountRules } from '../../suites/refused-account.js';
import { validationRules } from '../../suites/refused-validation.js';
import { typeRules } from '../../suites/conventions-types.js';
import { z } from 'zod';

const meterReadings = {
  id: 'createMeterReadings',
  method: 'POST' as const,
  path: '/v1/data-import/meter-readings/create/',
  spec: '§4.2',
  title: 'Add meter readings to an account',
  words: 'meter readings creation',
  looksUp: true,
  stores: true,
  responses: [{ status: 201, spec: '§4.2', description: 'readings added', body: 'empty' as const }],
};

/** A request with a documented field beyond the keys that name its subject: one a defect can break. */
const breakable = (e: EndpointSpec) =>
  Object.keys(shapeOf(e.body) ?? {}).some((f) => !(LOOKUP_KEYS as readonly string[]).includes(f));

describe('endpoint drivers', () => {
  it('the model and the drivers agree: every endpoint driven, every driver for an endpoint', () => {
    expect(driverProblems(model.endpoints, DRIVERS)).toEqual([]);
    expect(Object.keys(DRIVERS).sort()).toEqual(Object.keys(model.endpoints).sort());
  });

  it('an endpoint added to the model without a driver is named', () => {
    const grown = { ...model.endpoints, createMeterReadings: meterReadings };
    expect(driverProblems(grown, DRIVERS)).toEqual(['createMeterReadings: no driver (core/engine/drivers.ts DRIVERS)']);
  });

  it('a driver that cannot observe its effect without saying why, a batch without its dedup fields, or an undocumented success, is named', () => {
    const grown = { ...model.endpoints, createMeterReadings: meterReadings };
    const silent: EndpointDriver = {
      scope: 'imported',
      sample: () => ({ body: {} }),
      accepted: { status: 200 },
      effect: { observable: false, why: ' ' },
      items: { list: 'readings', dedup: [], item: () => ({}) },
      history: 'nothing',
      types: { notTyped: 'a test' },
    };
    expect(driverProblems(grown, { ...DRIVERS, createMeterReadings: silent })).toEqual([
      'createMeterReadings: its effect is unobservable and the driver does not say why',
      'createMeterReadings: a batch whose driver names no list or no fields that deduplicate it',
      'createMeterReadings: accepted with 200, which the model does not document',
    ]);
    const { createNotes: _gone, ...fewer } = DRIVERS;
    expect(driverProblems(model.endpoints, fewer)).toEqual(['createNotes: no driver (core/engine/drivers.ts DRIVERS)']);
    expect(driverProblems({}, { createNotes: DRIVERS.createNotes })).toEqual([
      'createNotes: a driver for no endpoint of the model',
    ]);
  });

  it('every endpoint that stores what it is sent has each refusal family rule, observable or not', () => {
    const ids = new Set(allRules.map((r) => r.id));
    const storing = Object.values(model.endpoints).filter((e) => e.stores);
    expect(storing.length).toBeGreaterThan(0);
    const has = (id: string) => expect(ids.has(id), id).toBe(true);
    for (const e of storing) {
      const name = endpointSlug(e.id);
      has(`auth.refused-has-no-effect.${name}`);
      if (breakable(e)) has(`refused.validation.${name}`);
      if (scopeOf(e.id) === 'imported') has(`refused.unknown-account.${name}`);
      if (scopeOf(e.id) === 'imported' && !e.responses.some((r) => r.status === 404)) has(`errors.404.${name}`);
    }
    // The validation family judges every POST endpoint with a documented field beyond its keys —
    // through its probe, what its driver names after a refusal, or the valid request accepted —
    // and the second-item rule only those whose effect can be seen.
    const judged = (d: EndpointDriver) => observes(d) || ('afterRefusal' in d.effect && !!d.effect.afterRefusal);
    expect(
      allRules
        .filter((r) => /^refused\.validation\.(?!valid-items)/.test(r.id))
        .flatMap((r) => r.endpoints)
        .sort(),
    ).toEqual(
      Object.values(model.endpoints)
        .filter((e) => e.method === 'POST' && breakable(e))
        .map((e) => e.id)
        .sort(),
    );
    expect(
      allRules
        .filter((r) => r.id.startsWith('refused.validation.valid-items-not-kept.'))
        .flatMap((r) => r.endpoints)
        .every((e) => judged(DRIVERS[e as EndpointId])),
    ).toBe(true);
    // Every endpoint the fallback reaches is one whose effect nothing shows.
    expect(
      Object.values(model.endpoints).filter((e) => e.method === 'POST' && breakable(e) && !judged(DRIVERS[e.id]))
        .length,
    ).toBeGreaterThan(0);
  });

  it('every driver states its items: a batch with its list, dedup fields and item, or explicitly none', () => {
    for (const [id, driver] of Object.entries(DRIVERS)) {
      const batch = batchOf(driver);
      if (driver.items === 'none') continue;
      if ('none' in driver.items) expect(driver.items.none.length, id).toBeGreaterThan(20);
      else expect(batch?.item, id).toBeTypeOf('function');
    }
    // Every endpoint whose request carries a list of objects says what the list is.
    expect(driverProblems(model.endpoints, DRIVERS)).toEqual([]);
    expect(
      Object.values(DRIVERS).filter((d) => typeof d.items === 'object' && 'none' in d.items).length,
    ).toBeGreaterThan(0);
    expect(Object.values(DRIVERS).filter((d) => batchOf(d)).length).toBeGreaterThan(0);
  });

  it('every batch endpoint, whose items are deduplicated, has a race rule sending the same item at once', () => {
    // §4.2 dedup is a statement about requests that meet: the drivers' batches, not a retyped list.
    expect(Object.values(DRIVERS).filter((d) => batchOf(d)?.dedup.length).length).toBeGreaterThan(0);
    expect(batchesWithoutRule(CATALOGUE, allRules)).toEqual([]);
  });
});

describe('an endpoint added to the model with its driver', () => {
  // §9.2: the interface grows. The meter-readings endpoint of the contributing guide's walk-through:
  // about an imported account, a batch of readings, 201 with per-item statuses, no documented 404.
  const id = 'createMeterReadings' as EndpointId;
  const endpoint: EndpointSpec = {
    ...meterReadings,
    id,
    body: z.object({
      import_supplier: z.string(),
      external_account_number: z.string(),
      readings: z.array(
        z.object({ meter_serial_number: z.string(), interval_start: z.iso.datetime(), value: z.number() }),
      ),
    }),
    responses: model.endpoints.createNotes.responses.filter((r) => r.status !== 404),
  };
  const driver: EndpointDriver = {
    scope: 'imported',
    sample: () => ({ body: {} }),
    accepted: { status: 201 },
    items: {
      list: 'readings',
      dedup: ['meter_serial_number', 'interval_start'],
      item: () => ({ meter_serial_number: 'M-1', interval_start: '2024-01-01T00:00:00Z' }),
    },
    history: 'nothing',
    types: { spec: '§4.2, §7.2', what: 'meter readings request' },
    effect: { probe: () => ({ what: 'every reading is added now', run: async () => undefined }) },
  };
  const grown: Catalogue = {
    endpoints: [...CATALOGUE.endpoints, endpoint],
    drivers: { ...CATALOGUE.drivers, [id]: driver },
  };

  it.each([
    ['401', unauthorizedRules, ['auth.401.create-meter-readings']],
    ['401 has no effect', refusedHasNoEffectRules, ['auth.refused-has-no-effect.create-meter-readings']],
    ['unknown account has no effect', unknownAccountRules, ['refused.unknown-account.create-meter-readings']],
    [
      'validation has no effect',
      validationRules,
      ['refused.validation.create-meter-readings', 'refused.validation.valid-items-not-kept.create-meter-readings'],
    ],
    ['404 by the §7.2 table', notFoundRules, ['errors.404.create-meter-readings']],
    ['field types (derived from the driver)', typeRules, ['conventions.types.create-meter-readings']],
  ] as const)('the %s family makes its rules for it, and only those more', (_family, family, added) => {
    const before = family(CATALOGUE).map((r) => r.id);
    const after = family(grown).map((r) => r.id);
    expect(after.filter((r) => !before.includes(r)).sort()).toEqual([...added].sort());
    expect(before.every((r) => after.includes(r))).toBe(true);
    for (const rule of family(grown).filter((r) => r.id.endsWith(id))) expect(rule.endpoints).toEqual([id]);
  });

  it('an unobservable one gets the families that need no probe, and the others say so by leaving it out', () => {
    const quiet: Catalogue = {
      ...grown,
      drivers: { ...grown.drivers, [id]: { ...driver, effect: { observable: false, why: 'no read shows readings' } } },
    };
    const name = endpointSlug(id);
    expect(unauthorizedRules(quiet).some((r) => r.id === `auth.401.${name}`)).toBe(true);
    expect(refusedHasNoEffectRules(quiet).some((r) => r.id === `auth.refused-has-no-effect.${name}`)).toBe(true);
    // Without a probe, refused then the valid request accepted; no second-item rule, which needs one.
    expect(validationRules(quiet).map((r) => r.id)).toContain(`refused.validation.${name}`);
    expect(validationRules(quiet).map((r) => r.id)).not.toContain(`refused.validation.valid-items-not-kept.${name}`);
    expect(unknownAccountRules(quiet).map((r) => r.id)).toContain(`refused.unknown-account.${name}`);
    // The type rule needs no probe: refused, then the valid request accepted with its documented status.
    expect(typeRules(quiet).filter((r) => r.id === 'conventions.types.create-meter-readings')).toHaveLength(1);
  });
});
