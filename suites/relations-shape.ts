/**
 * The documented-shape relation (issue #42, blind spot 3): "201, empty body" and the other documented
 * success and error shapes were asserted where a rule happened to be written, not on every endpoint
 * the spec documents them for. The places are the model's documented responses (core/spec/endpoints/)
 * that carry a shape — a success with a body schema or "empty body", a 400 with a body schema — and
 * one rule per endpoint, made from the driver table alone, provokes each and holds the answer to it:
 *
 * - a success: the driver's valid request about the subject its scope asks for (a read that looks
 *   something up, about a staged account); an endpoint documenting two successes (§3 stage: 201 first,
 *   200 on update; §4.2 historical statements: 201 "and also" 200) is sent the request twice, and
 *   each answer is held to the shape documented for the status it has;
 * - a 400: a JSON array for a body, which no request of §4 can be (§7.2: "400 | validation error on
 *   any endpoint"), held to the documented 400 body (§7.1, or the endpoint's other documented body,
 *   §4.2 transactions).
 *
 * "Empty body" (§4.2) is read as no content: an empty body or a JSON value carrying nothing (`{}`,
 * `[]`, `null`, `""`), as `billing.create.empty-body` reads it (docs/freedoms.md). 404 bodies are
 * "not shown" (§7.2): no shape to hold, their status is the `errors.404.*` and `notes.404.*` rules'.
 */
import { endpointSlug, type RelationKind } from '../core/engine/relations.js';
import { type Catalogue, CATALOGUE, acceptedStatuses } from '../core/engine/drivers.js';
import type { RelationPlace } from '../core/engine/echo.js';
import { documentedShape, describeIssues } from '../core/engine/judgements.js';
import { type Need, TO_IMPORT } from '../core/engine/needs.js';
import { type RuleInput, defineRules } from '../core/engine/rule.js';
import { setUp, requestAbout } from '../core/engine/subject.js';
import type { RuleContext } from '../core/engine/context.js';
import type { HttpResponse } from '../core/http/client.js';
import type { DocumentedResponse, EndpointSpec } from '../core/spec/index.js';

export type { RelationPlace };

/** The tag every rule of the relation carries. */
export const SHAPE_TAG = 'relation:documented-shape';

/** §4.2 "empty body": no content — an empty body, or a JSON value that carries nothing. */
export const carriesNothing = (text: string) =>
  text.trim() === '' || ['{}', '[]', 'null', '""'].includes(text.replace(/\s+/g, ''));

/** Whether a documented response has a shape to hold an answer to. */
const hasShape = (r: DocumentedResponse) => r.body !== 'not shown';
const successes = (e: EndpointSpec) => e.responses.filter((r) => r.status < 300 && hasShape(r));
const refusals = (e: EndpointSpec) => e.responses.filter((r) => r.status === 400 && hasShape(r));

/** Holds an answer to the shape documented for its status. */
function expectDocumented(ctx: RuleContext, e: EndpointSpec, res: HttpResponse, what: string) {
  const documented = e.responses.find((r) => r.status === res.status);
  if (!documented || documented.body === 'not shown') return;
  if (documented.body === 'empty') {
    ctx.expect.that(
      carriesNothing(res.text),
      `${what}: ${e.path} documents "${res.status}, empty body" (${documented.spec}), got ${JSON.stringify(res.text.slice(0, 100))}`,
      { res, expected: '(empty)', actual: res.text.slice(0, 100) },
    );
    return;
  }
  const shape = documentedShape(documented.body, res.isJson ? res.json() : undefined);
  if (shape.ok) return;
  const { problems } = describeIssues(shape.issues);
  ctx.expect.that(false, `${what}: the ${res.status} body must have the shape of ${documented.spec}: ${problems}`, {
    res,
  });
}

/** The request the driver sends about a subject set up as an accepted request needs it. */
async function accepted(ctx: RuleContext, c: Catalogue, e: EndpointSpec) {
  const driver = c.drivers[e.id];
  const scope = driver.accepted.scope ?? driver.scope;
  // A read that looks something up (§4.3 status) is asked about a staged account: about nothing it is a 404.
  const subject = await setUp(ctx, e.method === 'GET' && e.looksUp && scope === 'none' ? 'staged' : scope);
  if (e.method === 'GET')
    return subject
      ? { params: { import_supplier_code: subject.supplier, external_account_number: subject.ext } }
      : driver.sample(ctx);
  return requestAbout(ctx, driver, subject);
}

/** What each rule of the relation provokes, by rule id: its endpoint and the statuses it holds to their shapes. */
export const SHAPE_COVERS = new Map<string, RelationPlace[]>();

/** One rule per endpoint of the catalogue that documents a shape. */
export const shapeRules = (c: Catalogue = CATALOGUE): RuleInput[] =>
  c.endpoints
    .filter((e) => successes(e).length || (e.body && refusals(e).length))
    .map((e): RuleInput => {
      const driver = c.drivers[e.id];
      const twice = acceptedStatuses(driver).length > 1;
      const needs: Need[] = [
        ...new Set<Need>([...TO_IMPORT, ...(driver.sampleNeeds ?? []), ...(driver.accepted.needs ?? [])]),
      ];
      const id = `relations.shape.${endpointSlug(e.id)}`;
      SHAPE_COVERS.set(id, placesOf(e));
      return {
        id,
        spec: [...new Set([...successes(e), ...refusals(e)].map((r) => r.spec))].join(', '),
        level: 'MUST',
        title: `${e.method} ${e.path} answers every documented status it is provoked to with the body documented for it${successes(e).some((r) => r.body === 'empty') ? ' (an empty body for its 201)' : ''}`,
        endpoints: [e.id],
        needs,
        tags: [SHAPE_TAG],
        async check(ctx) {
          if (successes(e).length) {
            const request = await accepted(ctx, c, e);
            for (const time of twice ? ['first', 'again'] : ['once']) {
              const res = await ctx.api.call(e.id, { ...request, step: `the valid request (${time})` });
              // A repeat the spec does not say is taken may be refused (drivers.ts `repeatable`: a
              // statement overlapping an earlier one); its first answer was held to its shape.
              if (time === 'again' && driver.repeatable && res.status >= 400 && res.status < 500) {
                ctx.observe(`the valid request sent again was refused (${res.status}): ${driver.repeatable}`);
                continue;
              }
              ctx.expect.status(res, acceptedStatuses(driver), `the valid request (${time})`);
              expectDocumented(ctx, e, res, `the valid request (${time})`);
            }
          }
          if (e.body && refusals(e).length) {
            const res = await ctx.api.call(e.id, {
              body: [],
              defective: true,
              step: 'a JSON array, which no request of §4 can be',
            });
            // §7.1's body, or the endpoint's own documented 400 body (§4.2 transactions).
            ctx.expect.validationError(res, 'a JSON array for a body', driver.validationBodyOr);
          }
        },
      };
    });

// ---- the relation ----

/** A place is an endpoint and a documented status (`field` is the status). */
const placesOf = (e: EndpointSpec): RelationPlace[] =>
  [...successes(e), ...(e.body ? refusals(e) : [])].map((r) => ({ endpoint: e.id, field: String(r.status) }));

export const documentedShapeRelation: RelationKind = {
  id: 'documented-shape',
  spec: '§4.1, §4.2, §4.3, §4.4, §7.1, §7.2',
  sentence:
    '"201, empty body" and the other documented success and error shapes hold on every endpoint the spec documents them for, not only where a rule happened to be written.',
  applies: (catalogue) => catalogue.endpoints.flatMap(placesOf),
  // What the registered rules of the relation provoke: each its successes (every one, sent twice
  // where two are documented) and its 400.
  covered: (rules) => rules.filter((r) => r.tags?.includes(SHAPE_TAG)).flatMap((r) => SHAPE_COVERS.get(r.id) ?? []),
};

export default defineRules('relations', shapeRules(), { endpoints: [] });
