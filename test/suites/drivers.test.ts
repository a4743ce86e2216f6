/**
 * One endpoint, one record: every endpoint of the spec model has a driver (core/engine/drivers.ts),
 * and a driver that cannot observe its endpoint's effect says why. The table is keyed by EndpointId,
 * so a missing record is a compile error; `driverProblems` says the same of any catalogue, which is
 * how an endpoint added to a copy of the model without a driver is named here.
 */
import { describe, expect, it } from 'vitest';
import { DRIVERS, driverProblems, type EndpointDriver, observable, scopeOf } from '../../core/engine/drivers.js';
import { model } from '../../core/spec/index.js';
import { allRules } from '../../suites/index.js';

const meterReadings = {
  id: 'createMeterReadings',
  method: 'POST' as const,
  path: '/v1/data-import/meter-readings/create/',
  spec: '§4.2',
  title: 'Add meter readings to an account',
  stores: true,
  items: { list: 'readings' as const, dedup: ['meter_serial_number', 'interval_start'] },
  responses: [],
};

describe('endpoint drivers', () => {
  it('the model and the drivers agree: every endpoint driven, every driver for an endpoint', () => {
    expect(driverProblems(model.endpoints, DRIVERS)).toEqual([]);
    expect(Object.keys(DRIVERS).sort()).toEqual(Object.keys(model.endpoints).sort());
  });

  it('an endpoint added to the model without a driver is named', () => {
    const grown = { ...model.endpoints, createMeterReadings: meterReadings };
    expect(driverProblems(grown, DRIVERS)).toEqual(['createMeterReadings: no driver (core/engine/drivers.ts DRIVERS)']);
  });

  it('a driver that cannot observe its effect without saying why, or a batch without its item, is named', () => {
    const grown = { ...model.endpoints, createMeterReadings: meterReadings };
    const silent: EndpointDriver = {
      scope: 'imported',
      sample: () => ({ body: {} }),
      effect: { observable: false, why: ' ' },
    };
    expect(driverProblems(grown, { ...DRIVERS, createMeterReadings: silent })).toEqual([
      'createMeterReadings: its effect is unobservable and the driver does not say why',
      'createMeterReadings: a batch endpoint whose driver makes no item',
    ]);
    const { createNotes: _gone, ...fewer } = DRIVERS;
    expect(driverProblems(model.endpoints, fewer)).toEqual(['createNotes: no driver (core/engine/drivers.ts DRIVERS)']);
    expect(driverProblems({}, { createNotes: DRIVERS.createNotes })).toEqual([
      'createNotes: a driver for no endpoint of the model',
    ]);
  });

  it('every endpoint that stores what it is sent and whose effect is observable has each refusal family rule', () => {
    const ids = new Set(allRules.map((r) => r.id));
    const storing = Object.values(model.endpoints).filter((e) => e.stores);
    expect(storing.length).toBeGreaterThanOrEqual(10);
    for (const e of storing) {
      expect(ids.has(`auth.refused-has-no-effect.${e.id}`), e.id).toBe(true);
      if (observable(e.id)) expect(ids.has(`refused.validation.${e.id}`), `refused.validation.${e.id}`).toBe(true);
      if (observable(e.id) && scopeOf(e.id) === 'imported')
        expect(ids.has(`refused.unknown-account.${e.id}`), `refused.unknown-account.${e.id}`).toBe(true);
      if (scopeOf(e.id) === 'imported' && !e.responses.some((r) => r.status === 404))
        expect(ids.has(`errors.404.${e.id}`), `errors.404.${e.id}`).toBe(true);
    }
    // What the drivers say they can observe is what the families judge: no more, no fewer.
    expect(
      Object.values(model.endpoints)
        .filter((e) => observable(e.id))
        .map((e) => e.id),
    ).toEqual([
      'stageAccount',
      'processAccount',
      'createNotes',
      'createTransactions',
      'createHistoricalBillingDocuments',
      'createBusiness',
    ]);
  });

  it('every batch endpoint of the model is driven with its items', () => {
    for (const e of Object.values(model.endpoints).filter((x) => x.items))
      expect(DRIVERS[e.id].item, e.id).toBeTypeOf('function');
  });
});
