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
 * valid body, sent last, taken as new.
 */
import type { z } from 'zod';
import type { RuleContext } from '../core/engine/context.js';
import type { Need } from '../core/engine/needs.js';
import { defineRules, type RuleInput } from '../core/engine/rule.js';
import { CATALOGUE, type Catalogue, type EndpointDriver, observes, probeFrom } from '../core/engine/drivers.js';
import { NotJudged } from '../core/engine/failures.js';
import { acceptedNeeds, acceptedProbe, subjectFor } from '../core/engine/subject.js';
import { type EndpointId, endpointSlug } from '../core/spec/index.js';
import { DEFECTS, type DefectKind, everyDefect, type Invalid, TYPE_DEFECTS } from '../generators/index.js';
import { defect } from './conventions.js';
import { oracle } from '../core/engine/observe.js';
import { PROBE_WIDTH, eachProbe } from '../core/engine/probes.js';

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
const UNTYPED: ReadonlySet<string> = new Set(['ledger_number']);

/**
 * The driver's valid request about the subject its scope asks for, with its documented optional
 * fields, and what is sent last: the driver's effect probe (the valid request taken as new), or —
 * where the driver sees no effect — the valid request accepted with its documented status.
 */
async function prepare(ctx: RuleContext, t: TypedEndpoint): Promise<Prepared> {
  const { request, account } = await subjectFor(ctx, t.driver, true);
  const valid = { ...request, body: { ...(request.body as Record<string, unknown>), ...t.driver.optional } };
  const probe = observes(t.driver)
    ? probeFrom(t.driver, valid, account)
    : acceptedProbe(t.endpoint, t.driver, valid, t.what, 'sent after every wrong-typed one was refused');
  if (!probe) throw new NotJudged(`the ${t.what} about this account has nothing its probe stands on; not judged`);
  return { body: valid.body, account, probe: () => probe.run(ctx) };
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

/**
 * One case per documented field and kind: the items of a list share their fields, so only the last
 * item's (where a server that checks the first item alone lets a mistake through) is sent.
 */
function onePerField(cases: Invalid[]): Invalid[] {
  const last = new Map<string, Invalid>();
  for (const c of cases) last.set(`${c.attr.replace(/\.\d+(?=\.|$)/g, '.*')} ${c.defect.kind}`, c);
  return [...last.values()];
}

/**
 * Sends the valid body of `t` once per place and type defect the schema walk finds in it: each must
 * be refused with 400 (404 allowed where the field names the account or business), the account's
 * observable state must be as before, and the valid body, sent last, must be taken as new.
 */
export async function typesRefused(ctx: RuleContext, t: TypedEndpoint, kinds: readonly DefectKind[]): Promise<void> {
  const prepared = await prepare(ctx, t);
  const cases = onePerField(everyDefect(t.schema, prepared.body, kinds, UNTYPED));
  const watch = prepared.account;
  const judge = oracle(ctx);
  const before = watch ? await judge.observe(watch, 'before the wrong-typed requests') : undefined;
  await eachProbe(
    ctx,
    cases,
    async (invalid) => {
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
    },
    (invalid) => `${t.what} with ${invalid.defect.description}`,
    // Requests about one subject go one at a time where the driver says why they must (§3: an
    // account may be marked in progress before its request is validated).
    t.driver.oneAtATime ? 1 : PROBE_WIDTH,
  );
  if (before)
    await judge.expectUnchanged(
      before,
      'after the wrong-typed requests',
      'a refused request leaves what the interface shows of the account as it was',
    );
  await prepared.probe();
  const kindsSent = [...new Set(cases.map((c) => c.defect.kind))];
  ctx.observe(
    `${cases.length} wrong-typed ${t.what}s refused (${kindsSent.join(', ') || 'no field of these kinds in the body'}).`,
  );
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
      check: (ctx) =>
        typesRefused(
          ctx,
          t,
          TYPE_DEFECTS.filter((k) => DEFECTS[k].level === 'MUST'),
        ),
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
