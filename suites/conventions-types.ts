/**
 * §2.3 types and enumerations, one defect each, refused by validate and stage at its path (the
 * property rules draw the same kinds at random; these examples make each one certain to be sent):
 * a documented enum value in another case, a fraction where an integer is due, a value that no
 * reading makes a boolean — and, at SHOULD, a boolean sent as the string "true".
 *
 * Then the same kinds, and a wrong JSON type, at every documented field of every other request body
 * (a type unchecked outside the account payload slipped past every rule): the places come from
 * walking each endpoint's request schema in core/spec over a valid body, so a field added to the
 * model gets its defects for free. Each request must be refused (§7.2: "400 | validation error on
 * any endpoint", told from the other 400s by its §7.1 body) and leave nothing behind: the account's status and listings as before, and the
 * valid body, sent last, taken as new. Those places are the field-type places of the defect relation
 * (suites/relations-defect.ts), whose rules send every other MUST defect — and, on the account
 * payload of validate and stage, every one — through the same check (`typesRefused`).
 */
import type { z } from 'zod';
import type { RuleContext } from '../core/engine/context.js';
import type { Need } from '../core/engine/needs.js';
import { defineRules, type RuleInput } from '../core/engine/rule.js';
import {
  batchOf,
  CATALOGUE,
  type Catalogue,
  type EndpointDriver,
  observes,
  probeFrom,
} from '../core/engine/drivers.js';
import { NotImplemented, NotJudged, PreconditionError } from '../core/engine/failures.js';
import { acceptedNeeds, acceptedProbe, subjectFor } from '../core/engine/subject.js';
import { type AccountPayload, type EndpointId, model } from '../core/spec/index.js';
import { isPlainObject, pointsAt } from '../core/spec/paths.js';
import { documentedShape } from '../core/engine/judgements.js';
import { fieldsOf } from '../generators/model-shape.js';
import {
  DEFECTS,
  type DefectKind,
  defectGroups,
  defectPlaces,
  everyDefect,
  type Invalid,
  placeOfAttr,
  TYPE_DEFECTS,
  withDefects,
} from '../generators/index.js';
import { endpointSlug, type RelationPlace } from '../core/engine/relations.js';
import { defect } from './conventions.js';
import { oracle } from '../core/engine/observe.js';
import { PROBE_WIDTH, eachProbe } from '../core/engine/probes.js';

/** The relation kind the field types are places of (suites/relations-defect.ts). */
export const DEFECT_RELATION = 'defect';

// Types of every request field, not only the account payload's ------------------------------------

/** What a type rule stands on: a valid body, the account it touches, and a probe run afterwards. */
interface Prepared {
  body: Record<string, unknown>;
  /** The account whose observable state the refusals must leave as it was (§4.3). */
  account?: { supplier: string; ext: string };
  /** Sends the valid body once the refusals are done: it must be taken as new, so none left a trace. */
  probe(): Promise<void>;
}

/** An endpoint with a type rule: its driver's words for it, its request schema and its driver. */
export interface TypedEndpoint {
  endpoint: EndpointId;
  slug: string;
  spec: string;
  what: string;
  schema: z.ZodType;
  needs: readonly Need[];
  driver: EndpointDriver;
}

/**
 * Fields that name the account or the business a request is about. A wrong type there may be read
 * as a wrong supplier code or external number, which §4.2 notes rule 5 and §7.2 answer with 404.
 */
const KEY_FIELDS = new Set([
  'import_supplier',
  'import_supplier_code',
  'external_account_number',
  'external_business_identifier',
]);

/** §4.2 names `ledger_number` among the billing documents fields without a shape: no value there is a wrong type. */
export const UNTYPED: ReadonlySet<string> = new Set(['ledger_number']);

/**
 * §2.4: `product_code`, `line_items` and `tax_items` are documented "on SUPPLY_CHARGE" only
 * (core/spec/completeness.ts), so a body whose lists of transactions hold no supply charge carries
 * none of their fields, and a defect there is never sent. Each such list gains, as its last item,
 * the supply charge of the transactions template (fresh identifiers), dated as the list's last item
 * so it sits in whatever period that one does (a ledger's open statement, a billing document's).
 * The batch of the request (`batch`, the driver's list) has it in place of its last item instead: a
 * refused batch may keep its valid items (§4.2 transactions report "the first failing transaction
 * only"; docs/freedoms.md), and the valid request sent last must be a first one.
 */
function withSupplyCharges(
  ctx: RuleContext,
  schema: z.ZodType,
  body: Record<string, unknown>,
  batch?: string,
): Record<string, unknown> {
  const copy = structuredClone(body);
  const visit = (s: z.ZodType, value: unknown, inBatch = false): void => {
    if (s.def.type === 'object' && isPlainObject(value)) {
      for (const [key, field] of fieldsOf(s as z.ZodObject))
        if (key in value) visit(field.schema, value[key], value === copy && key === batch);
    } else if (s.def.type === 'array' && Array.isArray(value)) {
      const element = (s as z.ZodArray).element as z.ZodType;
      const items = value as Record<string, unknown>[];
      if (element === model.Transaction && items.length && !items.some((t) => isPlainObject(t) && 'line_items' in t)) {
        const supplyCharge = ctx.preconditions.payloads.item<Record<string, unknown>>(
          'transactions',
          'transactions',
          ctx.ids,
          { transaction_date: items[items.length - 1].transaction_date },
          (t) => t.type === 'SUPPLY_CHARGE',
        );
        if (supplyCharge.type === 'SUPPLY_CHARGE') items.splice(inBatch ? -1 : items.length, 1, supplyCharge);
      }
      for (const item of items) visit(element, item);
    }
  };
  visit(schema, copy);
  return copy;
}

/**
 * §2.3: the account payload's contract link (`business`) is sent only when the account belongs to a
 * business (core/spec/completeness.ts), so an account without one carries none of its places: the
 * account is linked to a contract of a business created for it, as an account of a business is.
 * Where no business can be created (business creation not implemented, or refused), the account
 * goes without the link: its other places are still sent, and the two left out are said.
 */
async function withBusinessLink(
  ctx: RuleContext,
  schema: z.ZodType,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (schema !== model.AccountPayload || 'business' in body) return body;
  try {
    const business = await ctx.given.business(1);
    return ctx.given.linkToContract(structuredClone(body) as AccountPayload, business.contractIdentifiers[0]);
  } catch (error) {
    if (!(error instanceof NotImplemented || error instanceof PreconditionError)) throw error;
    ctx.observe(
      `No business to link the account to (${error.message}): the account is sent without its contract link.`,
    );
    return body;
  }
}

/**
 * The driver's valid request about the subject its scope asks for, with its documented optional
 * fields, and what is sent last: the driver's effect probe (the valid request taken as new), or —
 * where the driver sees no effect — the valid request accepted with its documented status.
 */
async function prepare(ctx: RuleContext, t: TypedEndpoint): Promise<Prepared> {
  const { request, account } = await subjectFor(ctx, t.driver, true);
  const body = await withBusinessLink(
    ctx,
    t.schema,
    withSupplyCharges(
      ctx,
      t.schema,
      { ...(request.body as Record<string, unknown>), ...t.driver.optional },
      batchOf(t.driver)?.list,
    ),
  );
  const valid = { ...request, body };
  const effect = t.driver.effect;
  const probe = observes(t.driver)
    ? probeFrom(t.driver, valid, account)
    : acceptedProbe(t.endpoint, t.driver, valid, t.what, 'sent after every defective one was refused');
  if (!probe) throw new NotJudged(`the ${t.what} about this account has nothing its probe stands on; not judged`);
  // An endpoint that keeps nothing shows a refusal kept nothing through what its driver names
  // (validate: staging the account afterwards is a first staging, §4.1, §3).
  const after = 'afterRefusal' in effect ? effect.afterRefusal?.(valid) : undefined;
  return {
    body: valid.body,
    account,
    probe: async () => {
      await probe.run(ctx);
      await after?.run(ctx);
    },
  };
}

/**
 * Every endpoint of the catalogue whose driver words a type rule, in the catalogue's order; one whose
 * driver gives it words without a request body stops the suite from loading, named.
 */
export function typedEndpoints(c: Catalogue = CATALOGUE): TypedEndpoint[] {
  return c.endpoints.flatMap((e) => {
    const driver = c.drivers[e.id];
    const words = driver.types;
    if ('notTyped' in words) return [];
    if (!e.body)
      throw new Error(`suites/conventions-types.ts: ${e.id} has type rule words but no request body in the spec model`);
    return [
      { endpoint: e.id, slug: endpointSlug(e.id), ...words, schema: e.body, needs: acceptedNeeds(driver), driver },
    ];
  });
}

/** An endpoint of the defect relation; `typed`: it has a field-type rule (`conventions.types.<slug>`). */
export type DefectEndpoint = TypedEndpoint & { typed: boolean };

/**
 * Every endpoint whose documented fields take defects (suites/relations-defect.ts): those with a
 * field-type rule, and those whose driver words only a defect rule (the account payload), in the
 * catalogue's order. `typed` says which have a field-type rule, whose kinds the defect rule leaves to it.
 */
export function defectEndpoints(c: Catalogue = CATALOGUE): DefectEndpoint[] {
  const typed = new Map(typedEndpoints(c).map((t) => [t.endpoint, t]));
  return c.endpoints.flatMap((e): DefectEndpoint[] => {
    const t = typed.get(e.id);
    if (t) return [{ ...t, typed: true }];
    const driver = c.drivers[e.id];
    const words = driver.types;
    if (!('notTyped' in words) || !words.defects) return [];
    if (!e.body)
      throw new Error(
        `suites/conventions-types.ts: ${e.id} has defect rule words but no request body in the spec model`,
      );
    const slug = endpointSlug(e.id);
    return [
      { endpoint: e.id, slug, ...words.defects, schema: e.body, needs: acceptedNeeds(driver), driver, typed: false },
    ];
  });
}

/** The MUST field-type kinds a `conventions.types.*` rule sends. */
export const MUST_TYPE_DEFECTS: readonly DefectKind[] = TYPE_DEFECTS.filter((k) => DEFECTS[k].level === 'MUST');

/**
 * The places of the defect relation (suites/relations-defect.ts) where `kinds` fit in the request of
 * `t`: its documented fields, a list's items as `*`, with the kind (`<field> <kind>`).
 */
export const defectRelationPlaces = (t: TypedEndpoint, kinds: readonly DefectKind[]): RelationPlace[] =>
  defectPlaces(t.schema, kinds, UNTYPED).map((p) => ({ endpoint: t.endpoint, field: `${p.field} ${p.kind}` }));

/**
 * One case per documented field and kind: the items of a list share their fields, so only the last
 * item's (where a server that checks the first item alone lets a mistake through) is sent.
 */
function onePerField(cases: Invalid[]): Map<string, Invalid> {
  const last = new Map<string, Invalid>();
  for (const c of cases) last.set(`${placeOfAttr(c.attr)} ${c.defect.kind}`, c);
  return last;
}

/**
 * Sends the valid body of `t` once per place and defect the schema walk finds in it: each must
 * be refused with 400 (404 allowed where the field names the account or business), the account's
 * observable state must be as before, and the valid body, sent last, must be taken as new.
 * `places`: the places of the model (`<field> <kind>`) the rule states it instantiates; one the body
 * does not carry (a configured template without that field) is said, as it cannot be sent.
 */
export async function typesRefused(
  ctx: RuleContext,
  t: TypedEndpoint,
  kinds: readonly DefectKind[],
  places?: readonly RelationPlace[],
): Promise<void> {
  const prepared = await prepare(ctx, t);
  const byPlace = onePerField(everyDefect(t.schema, prepared.body, kinds, UNTYPED));
  const cases = [...byPlace.values()];
  const unmet = (places ?? []).filter((p) => p.field !== undefined && !byPlace.has(p.field));
  if (unmet.length)
    ctx.observe(
      `${unmet.length} place(s) of the model not in this ${t.what} (a template without the field), not sent: ${unmet
        .slice(0, 5)
        .map((p) => p.field)
        .join('; ')}${unmet.length > 5 ? '; …' : ''}.`,
    );
  const watch = prepared.account;
  const judge = oracle(ctx);
  const before = watch ? await judge.observe(watch, 'before the defective requests') : undefined;
  const alone = async (invalid: Invalid) => {
    const key = KEY_FIELDS.has(invalid.attr);
    const res = await ctx.api.call(t.endpoint, {
      body: invalid.payload,
      defective: true,
      step: `${t.what} with ${invalid.defect.description}`,
    });
    // §7.2: "400 | validation error on any endpoint"; §2.1: a provided field must satisfy its rules.
    // A validation error, told by its §7.1 body from the other 400s (a dry run, an account already imported).
    const what = `${t.what} with ${invalid.defect.description}`;
    if (key) ctx.expect.status(res, [400, 404], what);
    else ctx.expect.validationError(res, what, t.driver.validationBodyOr);
  };
  const groups = sharing(t, cases, prepared.body);
  let requests = 0;
  await eachProbe(
    ctx,
    groups,
    async (group) => {
      requests++;
      if (group.length === 1) return alone(group[0]);
      // Several defects at once (`defectGroups`): a body with any defect is a validation error
      // (§7.2), and each defect its §7.1 errors name is refused; the others are sent alone.
      const what = `${t.what} with ${group.length} defects at once (${group.map((c) => c.attr).join(', ')})`;
      const res = await ctx.api.call(t.endpoint, {
        body: withDefects(prepared.body, group),
        defective: true,
        step: what,
      });
      ctx.expect.validationError(res, what);
      const attrs = namedAttrs(res.json());
      for (const invalid of group)
        if (!attrs.some((attr) => pointsAt(attr, invalid.attr))) {
          requests++;
          await alone(invalid);
        }
    },
    (group) =>
      group.length === 1
        ? `${t.what} with ${group[0].defect.description}`
        : `${t.what} with ${group.length} defects at once`,
    // Requests about one subject go one at a time where the driver says why they must (§3: an
    // account may be marked in progress before its request is validated).
    t.driver.oneAtATime ? 1 : PROBE_WIDTH,
  );
  if (before)
    await judge.expectUnchanged(
      before,
      'after the defective requests',
      'a refused request leaves what the interface shows of the account as it was',
    );
  await prepared.probe();
  const kindsSent = [...new Set(cases.map((c) => c.defect.kind))];
  ctx.observe(
    `${cases.length} defects refused in ${requests} ${t.what}s (${kindsSent.join(', ') || 'no field of these kinds in the body'}).`,
  );
}

/**
 * The cases in the requests they share: one a request where a §7.1 body cannot tell them apart —
 * a key that may be answered 404 (§7.2), an endpoint whose refusal names the first failing item
 * only (its own 400 body, `validationBodyOr`: §4.2 transactions) — else as `defectGroups` groups them.
 */
function sharing(t: TypedEndpoint, cases: readonly Invalid[], base: object): Invalid[][] {
  if (t.driver.validationBodyOr) return cases.map((c) => [c]);
  const keys = cases.filter((c) => KEY_FIELDS.has(c.attr));
  return [
    ...defectGroups(
      cases.filter((c) => !KEY_FIELDS.has(c.attr)),
      base,
    ),
    ...keys.map((c) => [c]),
  ];
}

/** The `attr` of every error a §7.1 body lists; none when the body is not one. */
function namedAttrs(body: unknown): string[] {
  const parsed = documentedShape(model.ValidationErrorBody, body);
  return parsed.ok ? parsed.data.errors.map((e) => e.attr) : [];
}

/** One MUST rule per typed endpoint of the catalogue (conventions.types.<endpoint>, its one name). */
export const typeRules = (c: Catalogue = CATALOGUE, typed = typedEndpoints(c)): RuleInput[] =>
  typed.map(
    (t): RuleInput => ({
      id: `conventions.types.${t.slug}`,
      spec: t.spec,
      level: 'MUST',
      title: `A ${t.what} with any one documented field of the wrong JSON type (a list, text, a fraction, a value in another case, no boolean) is refused with 400 and leaves nothing behind`,
      endpoints: [t.endpoint],
      needs: t.needs,
      tags: ['validation'],
      // The field types are places of the defect relation (suites/relations-defect.ts).
      relation: { kind: DEFECT_RELATION, places: defectRelationPlaces(t, MUST_TYPE_DEFECTS) },
      check: (ctx) => typesRefused(ctx, t, MUST_TYPE_DEFECTS, defectRelationPlaces(t, MUST_TYPE_DEFECTS)),
    }),
  );

export default defineRules(
  'conventions',
  [
    defect({
      id: 'conventions.enum.wrong-case',
      spec: '§2.3 supply point (GAS or ELECTRICITY), §7.1',
      kind: 'enum-wrong-case',
      title: 'A supply_type written in another case (gas) is refused, with attr at the field',
      at: 'supply_addresses.0.supply_points.1.supply_type',
      value: 'gas',
      what: 'a supply type in lower case',
    }),
    defect({
      id: 'conventions.enum.transaction-type-case',
      spec: '§2.4 (type), §7.1',
      kind: 'enum-wrong-case',
      title: 'A transaction type written in another case (charge) is refused, with attr at the field',
      at: 'ledgers.0.current_statement_transactions.1.type',
      value: 'charge',
      what: 'a transaction type in lower case',
    }),
    defect({
      id: 'conventions.integer.fraction',
      spec: '§2.3 agreement (estimated_monthly_fee_in_cents: integer), §7.1',
      kind: 'fraction-for-integer',
      title: 'A number with a fraction where an integer is due (1250.5) is refused, with attr at the field',
      at: 'supply_addresses.0.supply_points.1.agreements.0.estimated_monthly_fee_in_cents',
      value: 1250.5,
      what: 'a fraction for an integer',
    }),
    defect({
      id: 'conventions.boolean.not-a-boolean',
      spec: '§2.3 (unknown_occupier: boolean), §7.1',
      kind: 'not-a-boolean',
      title: 'A value no reading makes a boolean ("sí") is refused where a boolean is due, with attr at the field',
      at: 'unknown_occupier',
      value: 'sí',
      what: 'text for a boolean',
    }),
    defect({
      id: 'conventions.boolean.string',
      spec: '§2.3 (unknown_occupier: boolean), §7.1',
      kind: 'boolean-as-string',
      title: 'A boolean sent as the string "true" is refused, with attr at the field',
      why: 'The field is a boolean, but many frameworks (Django REST framework among them) read the strings "true" and "false" as booleans; refusing them is a reading.',
      at: 'unknown_occupier',
      value: 'true',
      what: 'the string "true" for a boolean',
    }),
    ...typeRules(),
  ],
  { needs: ['ongoingSupplier'] },
);
