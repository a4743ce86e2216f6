/**
 * §4.2 agreements and supply points. Their payload shape is "not shown", so the positive rules use
 * the payload configured in payloads.agreements / payloads.supply_points; §7.1 says both report validation errors under
 * non_field_errors, which a body that is not an object at all checks on any implementation, and
 * a field error of the configured payload (impossible dates) must be reported there too.
 */
import { fillTemplate } from '../core/engine/templates.js';
import type { RuleContext } from '../core/engine/context.js';
import { defineRules, type RuleInput } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import type { EndpointId } from '../core/spec/index.js';
import { errorsOf } from './support.js';

export type Addition = 'agreements' | 'supply-points';

/**
 * The configured payload of an addition endpoint (§4.2: shape not shown) for a freshly imported
 * account, with every date made impossible (§2.1): any shape of these endpoints carries dates
 * somewhere. Skips the rule, naming the template's key, when the payload has none.
 */
export async function withImpossibleDates(ctx: RuleContext, name: Addition): Promise<unknown> {
  const a = await ctx.given.imported();
  const template = name === 'agreements' ? ctx.preconditions.agreementsPayload : ctx.preconditions.supplyPointsPayload;
  const body = fillTemplate(template, {
    import_supplier: a.supplier,
    external_account_number: a.ext,
    supply_point_identifier: a.payload.supply_addresses![0].supply_points![0].identifier!,
    new_supply_point_identifier: ctx.ids.supplyPointIdentifier(),
  });
  const broken = JSON.parse(JSON.stringify(body).replace(/"\d{4}-\d{2}-\d{2}"/g, '"2023-02-30"'));
  if (JSON.stringify(broken) === JSON.stringify(body)) {
    ctx.skip(`the configured ${name} payload has no date to break`, `payloads.${name.replace('-', '_')}`);
  }
  return broken;
}

const endpoints = [
  ['agreements', 'createAgreements'],
  ['supply-points', 'createSupplyPoints'],
] as const satisfies readonly (readonly [string, EndpointId])[];

export default defineRules(
  'additions',
  [
    {
      id: 'additions.agreements.created',
      spec: '§4.2 agreements',
      level: 'MUST',
      title: 'Agreements are added to an existing supply point: 201',
      needs: [...TO_IMPORT, 'agreementsPayload'],
      endpoints: ['createAgreements'],
      async check(ctx) {
        const a = await ctx.given.imported();
        const point = a.payload.supply_addresses![0].supply_points![0].identifier!;
        const body = fillTemplate(ctx.preconditions.agreementsPayload, {
          import_supplier: a.supplier,
          external_account_number: a.ext,
          supply_point_identifier: point,
        });
        const res = await ctx.api.call('createAgreements', { body, step: 'add agreements (configured payload)' });
        ctx.expect.status(res, 201);
      },
    },
    {
      id: 'additions.supply-points.created',
      spec: '§4.2 supply points',
      level: 'MUST',
      title: 'Supply points are added to an imported account: 201',
      needs: [...TO_IMPORT, 'supplyPointsPayload'],
      endpoints: ['createSupplyPoints'],
      async check(ctx) {
        const a = await ctx.given.imported();
        const body = fillTemplate(ctx.preconditions.supplyPointsPayload, {
          import_supplier: a.supplier,
          external_account_number: a.ext,
          new_supply_point_identifier: ctx.ids.supplyPointIdentifier(),
        });
        ctx.expect.status(
          await ctx.api.call('createSupplyPoints', { body, step: 'add a supply point (configured payload)' }),
          201,
        );
      },
    },
    ...endpoints.map(
      ([name, endpoint]): RuleInput => ({
        id: `additions.${name}.non-field-errors`,
        spec: '§7.1 (non_field_errors), §4.2',
        level: 'MUST',
        title: `The ${name} endpoint reports validation errors under non_field_errors`,
        endpoints: [endpoint],
        async check(ctx: RuleContext) {
          await ctx.given.imported();
          const res = await ctx.api.call(endpoint, {
            body: [],
            step: `send a JSON array, which no ${name} payload can be`,
          });
          ctx.expect.status(res, 400);
          const { attrs } = errorsOf(res);
          ctx.expect.that(
            attrs.includes('non_field_errors'),
            `the errors must be reported under non_field_errors, got attrs ${JSON.stringify(attrs)}`,
            { res, expected: 'non_field_errors', actual: attrs },
          );
        },
      }),
    ),
    ...endpoints.map(
      ([name, endpoint]): RuleInput => ({
        id: `additions.${name}.non-field-errors-only`,
        spec: '§7.1 (non_field_errors)',
        level: 'SHOULD',
        why: 'The spec says these endpoints report errors under non_field_errors; a configured payload with a broken field shows whether every error is reported so.',
        title: `Every validation error of the ${name} endpoint has attr non_field_errors`,
        needs: [
          'ongoingSupplier',
          'operationsTeam',
          name === 'agreements' ? ('agreementsPayload' as const) : ('supplyPointsPayload' as const),
        ],
        endpoints: [endpoint],
        async check(ctx: RuleContext) {
          const broken = await withImpossibleDates(ctx, name);
          const res = await ctx.api.call(endpoint, {
            body: broken,
            step: 'the configured payload with impossible dates',
          });
          ctx.expect.status(res, 400);
          const { attrs } = errorsOf(res);
          ctx.expect.that(
            attrs.length > 0 && attrs.every((attr) => attr === 'non_field_errors'),
            `every error should have attr non_field_errors, got ${JSON.stringify(attrs)}`,
            { res },
          );
        },
      }),
    ),
    // §7.1: a field error of the agreements and supply-points endpoints is reported under non_field_errors.
    ...(['agreements', 'supply-points'] as const).map(
      (name): RuleInput => ({
        id: `additions.${name}.field-error-under-non-field-errors`,
        spec: '§7.1 (the agreements, supply-points … endpoints report validation errors under non_field_errors)',
        // MUST with the weakest certain assertion: some errors item is under non_field_errors (the
        // SHOULD rule additions.*.non-field-errors-only asks that every one is).
        level: 'MUST',
        title: `A field error of the configured ${name} payload (impossible dates) is reported under non_field_errors`,
        needs: [
          'ongoingSupplier',
          'operationsTeam',
          name === 'agreements' ? 'agreementsPayload' : 'supplyPointsPayload',
        ],
        endpoints: [name === 'agreements' ? 'createAgreements' : 'createSupplyPoints'],
        async check(ctx: RuleContext) {
          const broken = await withImpossibleDates(ctx, name);
          const res = await ctx.api.call(name === 'agreements' ? 'createAgreements' : 'createSupplyPoints', {
            body: broken,
            step: 'the configured payload with impossible dates',
          });
          ctx.expect.status(res, 400, 'impossible dates (§2.1) are a validation error');
          const { attrs } = errorsOf(res);
          ctx.expect.that(
            attrs.includes('non_field_errors'),
            `the validation errors must be reported under non_field_errors, got attrs ${JSON.stringify(attrs)}`,
            { res, expected: 'non_field_errors', actual: attrs },
          );
        },
      }),
    ),
  ],
  { tags: ['additions'], needs: TO_IMPORT },
);
