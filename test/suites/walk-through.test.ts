/**
 * The walk-through of docs/contributing.md ("Adding an endpoint"), run: two endpoints the spec does
 * not have are added to a copy of the catalogue (the model's endpoints and the driver table, the
 * registry every generic family reads) — one whose effect a read shows, one whose effect nothing
 * shows — and each family is asked which rules it makes for them. Then each step the guide lists is
 * left out in turn, and the check that names the omission is the one the guide cites for it.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  batchesWithoutRule,
  CATALOGUE,
  type Catalogue,
  driverProblems,
  type EndpointDriver,
} from '../../core/engine/drivers.js';
import { type EndpointId, type EndpointSpec, endpointSlug, model } from '../../core/spec/index.js';
import type { Around, FaultDefinition } from '../../reference/faults/types.js';
import { endpointsWithoutOwnFault } from '../../reference/faults/reach.js';
import { FAULTS } from '../../reference/index.js';
import { unauthorizedRules } from '../../suites/auth.js';
import { refusedHasNoEffectRules } from '../../suites/auth-refused.js';
import { typedEndpoints, typeRules } from '../../suites/conventions-types.js';
import { notFoundRules } from '../../suites/errors.js';
import { badInputRules } from '../../suites/errors-bad-input.js';
import { allRules } from '../../suites/index.js';
import { unknownAccountRules } from '../../suites/refused-account.js';
import { validationRules } from '../../suites/refused-validation.js';

const METER = 'createGasReads' as EndpointId;
const TARIFF = 'createTariffs' as EndpointId;
const documented = (status: number, body: EndpointSpec['responses'][number]['body'] = 'empty') => ({
  status,
  spec: '§4.2',
  description: `documented ${status}`,
  body,
});
const key = { import_supplier: z.string(), external_account_number: z.string() };

/** An observable batch: meter reads deduplicated by meter and interval start, 201 with an empty body, 404 for an unknown account. */
const meterReads: EndpointSpec = {
  id: METER,
  method: 'POST',
  path: '/v1/data-import/gas-reads/create/',
  spec: '§4.2 meter reads',
  title: 'Add meter reads to an imported account',
  words: 'meter reads creation',
  looksUp: true,
  stores: true,
  body: z.object({
    ...key,
    readings: z.array(z.object({ meter: z.string(), interval_start: z.iso.datetime(), value: z.number() })),
  }),
  responses: [
    documented(201),
    documented(400, model.ValidationErrorBody),
    documented(401, 'not shown'),
    documented(404),
  ],
};

/** An unobservable endpoint: tariffs, 201 with an empty body, no read shows them, no documented 404. */
const tariffs: EndpointSpec = {
  ...meterReads,
  id: TARIFF,
  path: '/v1/data-import/tariffs/create/',
  spec: '§4.2 tariffs',
  title: 'Add a tariff to an imported account',
  words: 'tariff creation',
  body: z.object({ ...key, tariff_code: z.string() }),
  responses: [documented(201), documented(401, 'not shown')],
};

const reading = () => ({ meter: 'M-1', interval_start: '2024-01-01T00:00:00Z', value: 1 });
const meterDriver: EndpointDriver = {
  scope: 'imported',
  sample: () => ({ body: { import_supplier: 'S', external_account_number: 'E', readings: [reading()] } }),
  accepted: { status: 201 },
  effect: { probe: () => ({ what: 'every reading is added now', run: async () => undefined }) },
  items: { list: 'readings', dedup: ['meter', 'interval_start'], item: reading },
  history: 'nothing',
  types: { spec: '§4.2 meter reads, §7.2', what: 'meter reads request' },
};
const tariffDriver: EndpointDriver = {
  scope: 'imported',
  sample: () => ({ body: { import_supplier: 'S', external_account_number: 'E', tariff_code: 'T' } }),
  accepted: { status: 201 },
  effect: { observable: false, why: '201 with an empty body, and no read of the interface shows tariffs' },
  items: 'none',
  history: 'nothing',
  types: { spec: '§4.2 tariffs, §7.2', what: 'tariff request' },
};

/** The catalogue grown by both endpoints, with their drivers as above but for `overrides`. */
const grow = (overrides: Record<string, EndpointDriver> = {}): Catalogue => ({
  endpoints: [...CATALOGUE.endpoints, meterReads, tariffs],
  drivers: { ...CATALOGUE.drivers, [METER]: meterDriver, [TARIFF]: tariffDriver, ...overrides } as Catalogue['drivers'],
});
const endpointsOf = (c: Catalogue) => Object.fromEntries(c.endpoints.map((e) => [e.id, e]));

const FAMILIES = {
  '§5 401': unauthorizedRules,
  '401 refused has no effect': refusedHasNoEffectRules,
  'bad input no 5xx': badInputRules,
  'field types': typeRules,
  'validation refused has no effect': validationRules,
  'unknown account refused has no effect': unknownAccountRules,
  '§7.2 404 by the table': notFoundRules,
} as const;

/** The rules each family adds for `id` when the catalogue grows. */
function added(id: EndpointId): Record<string, string[]> {
  const grown = grow();
  return Object.fromEntries(
    Object.entries(FAMILIES).map(([family, make]) => {
      const before = new Set(make(CATALOGUE).map((r) => r.id));
      return [family, make(grown).flatMap((r) => (!before.has(r.id) && r.endpoints?.includes(id) ? [r.id] : []))];
    }),
  );
}

describe('the walk-through endpoints, added through the catalogue', () => {
  it('are not endpoints of the model (a real endpoint of either name would need other names here)', () => {
    expect(Object.keys(model.endpoints)).not.toContain(METER);
    expect(Object.keys(model.endpoints)).not.toContain(TARIFF);
  });

  it('the table is whole with both', () => {
    expect(driverProblems(endpointsOf(grow()), grow().drivers)).toEqual([]);
  });

  it('the observable batch gets every family, its own 404 judged at MUST by the unknown-account rule', () => {
    expect(added(METER)).toEqual({
      '§5 401': [`auth.401.${endpointSlug(METER)}`],
      '401 refused has no effect': [`auth.refused-has-no-effect.${endpointSlug(METER)}`],
      'bad input no 5xx': [`errors.bad-input.no-5xx.${endpointSlug(METER)}`],
      'field types': ['conventions.types.create-gas-reads'],
      'validation refused has no effect': [
        `refused.validation.${endpointSlug(METER)}`,
        `refused.validation.valid-items-not-kept.${endpointSlug(METER)}`,
      ],
      'unknown account refused has no effect': [`refused.unknown-account.${endpointSlug(METER)}`],
      // It documents its own 404, so the §7.2 table adds no SHOULD reading.
      '§7.2 404 by the table': [],
    });
    // Its unknown-account rule cites the endpoint's own 404 statement.
    expect(unknownAccountRules(grow()).find((r) => r.id.endsWith(endpointSlug(METER)))?.spec).toBe(
      '§7.2 (404: account not found), §4.2, §3',
    );
  });

  it('the unobservable one gets the families that fall back to "refused, then the valid request accepted"', () => {
    expect(added(TARIFF)).toEqual({
      '§5 401': [`auth.401.${endpointSlug(TARIFF)}`],
      '401 refused has no effect': [`auth.refused-has-no-effect.${endpointSlug(TARIFF)}`],
      'bad input no 5xx': [`errors.bad-input.no-5xx.${endpointSlug(TARIFF)}`],
      'field types': ['conventions.types.create-tariffs'],
      // Without a probe, each falls back to "refused, then the valid request accepted".
      'validation refused has no effect': [`refused.validation.${endpointSlug(TARIFF)}`],
      'unknown account refused has no effect': [`refused.unknown-account.${endpointSlug(TARIFF)}`],
      '§7.2 404 by the table': [`errors.404.${endpointSlug(TARIFF)}`],
    });
    // Its type rule stands on what an accepted request needs, as the driver states it.
    const typed = typedEndpoints(grow()).find((t) => t.endpoint === TARIFF);
    expect(typed?.needs).toEqual(['ongoingSupplier', 'operationsTeam']);
    // The fallbacks say so in their titles: the last word is the valid request accepted.
    for (const make of [validationRules, unknownAccountRules])
      expect(make(grow()).find((r) => r.id.endsWith(endpointSlug(TARIFF)))?.title).toMatch(
        /accepted with its documented status$/,
      );
    // A batch whose effect nothing shows gets no "valid items not kept" rule: nothing could tell.
    const unseenBatch = grow({
      [TARIFF]: { ...tariffDriver, items: { list: 'tariffs', dedup: ['code'], item: () => ({}) } },
    });
    expect(validationRules(unseenBatch).map((r) => r.id)).not.toContain(
      `refused.validation.valid-items-not-kept.${endpointSlug(TARIFF)}`,
    );
  });
});

describe('each omission of the guide fails the check it names', () => {
  it('step 2, no driver: the table check names the endpoint', () => {
    const { [TARIFF]: _gone, ...drivers } = grow().drivers as Record<string, EndpointDriver>;
    expect(driverProblems(endpointsOf(grow()), drivers)).toEqual([
      `${TARIFF}: no driver (core/engine/drivers.ts DRIVERS)`,
    ]);
  });

  it('step 2, an unobservable effect without a reason, a batch without dedup fields, an undocumented success', () => {
    const c = grow({
      [METER]: { ...meterDriver, items: { list: 'readings', dedup: [], item: reading } },
      [TARIFF]: { ...tariffDriver, accepted: { status: 200 }, effect: { observable: false, why: '' } },
    });
    expect(driverProblems(endpointsOf(c), c.drivers)).toEqual([
      `${METER}: a batch whose driver names no list or no fields that deduplicate it`,
      `${TARIFF}: its effect is unobservable and the driver does not say why`,
      `${TARIFF}: accepted with 200, which the model does not document`,
    ]);
  });

  it('step 2, field-type words for an endpoint without a request body: the suite does not load', () => {
    const c: Catalogue = {
      ...grow(),
      endpoints: [...CATALOGUE.endpoints, meterReads, { ...tariffs, body: undefined }],
    };
    expect(() => typedEndpoints(c)).toThrow(`${TARIFF} has type rule words but no request body`);
  });

  it('step 5, a deduplicating batch without its race rule is named', () => {
    expect(batchesWithoutRule(grow(), allRules)).toEqual([METER]);
  });

  it('step 2, a batch left out of the driver (items: none) is named, since its request carries a list of objects', () => {
    const c = grow({ [METER]: { ...meterDriver, items: 'none' } });
    // The race rule is then not demanded …
    expect(batchesWithoutRule(c, allRules)).toEqual([]);
    // … but the table check names the list the driver says nothing about.
    expect(driverProblems(endpointsOf(c), c.drivers)).toEqual([
      `${METER}: its request carries a list of objects (readings) but its driver states no batch: state the batch (items: list, dedup, item), or why it is none (items: { none: why })`,
    ]);
    // A list that is no batch says why; an empty why is named too.
    const parts = grow({ [METER]: { ...meterDriver, items: { none: 'the readings are parts of one meter read' } } });
    expect(driverProblems(endpointsOf(parts), parts.drivers)).toEqual([]);
    const silent = grow({ [METER]: { ...meterDriver, items: { none: ' ' } } });
    expect(driverProblems(endpointsOf(silent), silent.drivers)).toEqual([
      `${METER}: its items are none and the driver does not say why`,
    ]);
  });

  it('step 6, an endpoint whose only faults wrap every endpoint is named: a fault per endpoint is demanded by name', () => {
    const endpoints = [...Object.keys(model.endpoints), METER, TARIFF];
    const through: Around = (req, _env, next) => next(req);
    // A generic wrapper over every endpoint, the new ones included, counts for none of them.
    const generic: Pick<FaultDefinition, 'create'> = {
      create: () => ({ around: Object.fromEntries(endpoints.map((e) => [e, through])) }),
    };
    expect(endpointsWithoutOwnFault(endpoints, [...FAULTS, generic])).toEqual([METER, TARIFF]);
    const own: Pick<FaultDefinition, 'create'> = {
      create: () => ({ around: { [METER]: through } }),
    };
    expect(endpointsWithoutOwnFault(endpoints, [...FAULTS, generic, own])).toEqual([TARIFF]);
  });
});
