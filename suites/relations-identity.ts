/**
 * Identity by key attributes (core/engine/relations.ts, kind `identity`). §2.8: "A business is
 * unique by its external identifier together with key attributes (name, number, type)." Another
 * key makes another business (keys.business.other-identifier); what a same identifier with another
 * key attribute gives is a freedom (business.same-identifier-other-attributes, INFO). A change
 * outside the key is the same key, so it must not make a second business: here, for every attribute
 * of the business payload that §2.8 does not name (relations.ts `nonKeyAttributes`, from the spec
 * model), a business is created and sent again with that attribute changed. What the service
 * answers to a repeated business is not shown: 2xx naming the same service_business_id, or a 4xx
 * (refused as a duplicate), are both legal; a 2xx naming another id is a second business for one key.
 *
 * Contract identifiers name one contract each (§2.3: an account links to a contract by it), so every
 * contract of the repeated business goes under a fresh identifier — itself a change outside the key
 * — lest a server refuse the repetition for its contracts before it looks at the key.
 */
import { endpointSlug } from '../core/engine/relations.js';
import type { RuleContext } from '../core/engine/context.js';
import { CATALOGUE, type Catalogue } from '../core/engine/drivers.js';
import { NotJudged } from '../core/engine/failures.js';
import { IDENTITY } from '../core/engine/relations.js';
import { defineRules, type RuleInput } from '../core/engine/rule.js';
import { model } from '../core/spec/index.js';
import { getAtPath, setAtPath } from '../core/spec/paths.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day before a `YYYY-MM-DD` date, as `YYYY-MM-DD` (another valid date, §2.1). */
const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * Another valid value for a field: the fresh payload's own when it differs, else the first string
 * inside it changed (a date moved a day, any other text extended).
 */
export function changedValue(value: unknown, fresh: unknown): unknown {
  if (fresh !== undefined && JSON.stringify(fresh) !== JSON.stringify(value)) return structuredClone(fresh);
  if (typeof value === 'string') return DATE.test(value) ? dayBefore(value) : `${value} (changed)`;
  if (Array.isArray(value) && value.length) return [changedValue(value[0], undefined), ...value.slice(1)];
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    const i = entries.findIndex(([, v]) => typeof v === 'string' || (v && typeof v === 'object'));
    if (i >= 0) return Object.fromEntries(entries.map(([k, v], j) => [k, j === i ? changedValue(v, undefined) : v]));
  }
  return value;
}

/** The rule id's last part for a field: `business.business_contracts.0.valid_from_date` → `business-contracts-0-valid-from-date`. */
const slug = (field: string) => field.replace(/^business\./, '').replace(/[._]/g, '-');

/** One rule per attribute outside the key, for every endpoint that creates a business (the driver table). */
export const identityRules = (c: Catalogue = CATALOGUE): RuleInput[] =>
  IDENTITY.applies(c).map(
    ({ endpoint, field }): RuleInput => ({
      id: `relations.identity.${endpointSlug(endpoint)}.${slug(field!)}`,
      spec: '§2.8 (unique by external identifier and key attributes), §4.4',
      level: 'MUST',
      title: `A business sent again with ${field} changed (outside the key: name, number, type) is the same business: the same service_business_id, or refused; never a second business`,
      needs: ['ongoingSupplier'],
      endpoints: [endpoint],
      relation: { kind: IDENTITY.id, places: [{ endpoint, field }] },
      async check(ctx: RuleContext) {
        const first = await ctx.given.business(1);
        const again = structuredClone(first.payload) as Record<string, unknown>;
        const contracts = (again.business as { business_contracts?: { identifier?: string }[] } | undefined)
          ?.business_contracts;
        for (const contract of contracts ?? []) contract.identifier = ctx.ids.contractIdentifier();
        const before = getAtPath(again, field!);
        const after = changedValue(before, getAtPath(ctx.given.businessPayload(1), field!));
        if (after === undefined || JSON.stringify(after) === JSON.stringify(before))
          throw new NotJudged(`the business payload gives ${field} no value another one could replace`);
        setAtPath(again as never, field!, after);
        const res = await ctx.api.call(endpoint, {
          body: again,
          step: `the same business (identifier, name, number, type) with ${field} changed`,
        });
        if (res.status >= 400 && res.status < 500) {
          ctx.observe(`refused with ${res.status}: the same key, taken as a duplicate`);
          return;
        }
        ctx.expect.status(res, [200, 201], 'the same business again: refused (4xx) or answered with the business');
        const body = ctx.expect.body(res, model.BusinessResponse, 'business response');
        ctx.expect.that(
          body.service_business_id === first.serviceBusinessId,
          `the business sent again with only ${field} changed got service_business_id ${body.service_business_id}, not the existing ${first.serviceBusinessId}: two businesses for one key (§2.8: unique by the external identifier together with name, number and type)`,
          { res, expected: first.serviceBusinessId, actual: body.service_business_id },
        );
      },
    }),
  );

export default defineRules('relations', identityRules(), { tags: ['relations'] });
