/**
 * The edge relation (issue #42, blind spot 4; core/engine/edges.ts): one rule per endpoint with a
 * place, made from the driver table alone. Each instance is the driver's valid request with one edge
 * value at every place of its class (or one list emptied, one list at many items, the batch list
 * near a common body limit), sent about the subject the driver's scope asks for, and judged three
 * ways: accepted with the documented status and, where the answer hands the value back, intact; or
 * refused as a limit the spec leaves open (a §7.1 400 naming the field, a 413 for the body:
 * recorded as a discovered limit, the request replayed inside it, so the other edges of the request
 * are still judged); or broken — a MUST failure naming the field and the edge.
 *
 * Instances are fixed (no value is drawn) and independent, sent `PROBE_WIDTH` at a time. A batch's
 * instances share one subject (§4.2: a batch takes any number of requests about one account, its
 * items fresh), and so do those of an endpoint whose driver says its requests repeat (statements,
 * `repeatable`), each refused there sent again about a subject of its own before it is judged; any
 * other endpoint's instance sets up its own (§4.2 historical billing documents: once per ledger;
 * staging keeps the account). The instances of one request (edges.ts `members`) are sent alone when
 * they are not accepted intact together.
 */
import { type Catalogue, CATALOGUE, acceptedStatuses, batchOf } from '../core/engine/drivers.js';
import { echoSites } from '../core/engine/echo.js';
import {
  EDGE,
  EDGE_TAG,
  atPlaces,
  type EdgeInstance,
  type EdgeTools,
  type EdgeValues,
  coveredBy,
  echoedDifference,
  endpointPlan,
  judgeEdge,
} from '../core/engine/edges.js';
import { freshCopy } from '../core/engine/ids.js';
import { sendInsideLimits } from '../core/engine/inside-limits.js';
import { documentedShape } from '../core/engine/judgements.js';
import { eachProbe } from '../core/engine/probes.js';
import { endpointSlug } from '../core/engine/relations.js';
import { type RuleInput, defineRules } from '../core/engine/rule.js';
import { acceptedNeeds, requestAbout, setUp, subjectFor } from '../core/engine/subject.js';
import type { SubjectAccount } from '../core/engine/drivers.js';
import { type EndpointSpec, model } from '../core/spec/index.js';
import { mayUseNonFieldErrors } from '../core/spec/non-field-errors.js';
import {
  EDGE_DATES,
  EDGE_DATETIMES,
  EDGE_INTEGERS,
  EDGE_NUMBERS,
  EDGE_TEXT_BYTES,
  LARGE_BATCH,
  LARGE_REQUEST,
  textOfBytes,
} from '../generators/edges.js';

/** The edge values of the relation (generators/edges.ts): fixed, so every instance runs in every run. */
export const EDGE_VALUES: EdgeValues = {
  integers: EDGE_INTEGERS,
  numbers: EDGE_NUMBERS,
  textBytes: EDGE_TEXT_BYTES,
  dates: EDGE_DATES,
  datetimes: EDGE_DATETIMES,
  many: LARGE_BATCH,
  manyBatch: LARGE_REQUEST,
  text: textOfBytes,
};

/** The instances of an endpoint's rule: its places at the relation's edge values. */
export const planOf = (c: Catalogue, e: EndpointSpec) => endpointPlan(c, e, EDGE_VALUES);

type Json = Record<string, unknown>;

/**
 * The rule of one endpoint, instantiating `plan` (its whole plan unless a test takes instances out);
 * its `relation` names the places the plan reaches, so a place left without an instance is a gap.
 */
export function edgeRule(c: Catalogue, e: EndpointSpec, plan: EdgeInstance[] = planOf(c, e)): RuleInput {
  const driver = c.drivers[e.id];
  const batch = batchOf(driver);
  const site = echoSites({ endpoints: [e], drivers: c.drivers }).find((s) => s.endpoint === e.id);
  return {
    id: `relations.edge.${endpointSlug(e.id)}`,
    spec: `§2.1, §7.1, §7.2, §8, ${e.spec}`,
    level: 'MUST',
    title: `${e.method} ${e.path} takes every field at its edges (integers at 32 and 64 bits, numbers past cents, text past column sizes in UTF-8 bytes, lists at 0, 1 and many items, calendar edges) with its documented status and hands back what it hands back intact, or refuses the edge as a limit with a §7.1 400 naming the field; never a 5xx, a cut or changed value, or items dropped`,
    endpoints: [e.id],
    needs: acceptedNeeds(driver),
    tags: [EDGE_TAG],
    relation: { kind: EDGE.id, places: coveredBy(e, plan) },
    async check(ctx) {
      const statuses = acceptedStatuses(driver);
      // One subject for all the requests where they may share one: a batch (its items fresh), an
      // endpoint whose driver says its requests repeat (statements), and one whose every request uses
      // up a part of its subject (a ledger: once per ledger), about an account with room for all — a
      // part for each instance and each member.
      const parts =
        !batch && !driver.repeatable && driver.room ? plan.reduce((n, i) => n + 1 + (i.members?.length ?? 0), 0) : 0;
      const scope = driver.accepted.scope ?? driver.scope;
      let shared: SubjectAccount | undefined;
      if (batch || driver.repeatable) shared = await setUp(ctx, scope);
      else if (parts)
        // A server may refuse so roomy an account (a limit the spec leaves open): then each request sets up its own.
        shared = await setUp(ctx, scope, driver.room!.widen(ctx.given.account(), parts, ctx.ids.namespace)).catch(
          (error: unknown) => {
            ctx.observe(
              `an account with room for ${parts} requests was not set up (${String(error)}); each request sets up its own`,
            );
            return undefined;
          },
        );
      const sharing = shared !== undefined;
      let used = 0;
      const request = async (own = false) => {
        if (!sharing || own || (parts && used >= parts)) return (await subjectFor(ctx, driver, true)).request;
        return requestAbout(ctx, driver, parts ? { ...shared!, slot: used++ } : shared, true);
      };
      const tools = (): EdgeTools => ({
        fresh: () => ctx.ids.other('X'),
        namespace: ctx.ids.namespace,
        ...(batch ? { item: () => batch.item(ctx) } : {}),
      });
      let replays = 0;
      // A replay inside a limit found carries fresh batch items: a refused request may have kept
      // what came before its failing item (§4.2 transactions). The account's keys stay.
      const rebuild = (body: Json) =>
        batch ? { ...body, [batch.list]: freshCopy(body[batch.list], ctx.ids.namespace, 1000 + ++replays) } : body;
      /**
       * Sends an instance (replayed inside the limits a refusal shows, unless `once`) and judges its
       * answer; `own`: about a subject of its own, though the driver's requests may share one.
       */
      const attempt = async (instance: EdgeInstance, once: boolean, own = false) => {
        const valid = await request(own);
        const body = instance.apply((valid.body ?? {}) as Json, tools());
        const what = `${instance.places.length === 1 ? instance.places[0] : `${instance.places.length} fields (${instance.places.slice(0, 3).join(', ')}${instance.places.length > 3 ? ', …' : ''})`} at ${instance.edge}`;
        const send = (b: Json, replay: number) =>
          ctx.api.call(e.id, {
            ...valid,
            body: b,
            step: `${what}${replay ? ` (replay ${replay}, inside the limits found)` : ''}`,
          });
        const { res, sent } = once
          ? { res: await send(body, 0), sent: body }
          : await sendInsideLimits(ctx, e.id, body, send, what, rebuild);
        const outcome = judgeEdge({ status: res.status, body: res.isJson ? res.json() : undefined }, sent, {
          accepted: statuses,
          difference: site
            ? (answer) =>
                echoedDifference(
                  site,
                  atPlaces(sent, instance.places, instance.kind !== 'value') as Json,
                  answer,
                  instance.kind === 'empty' ? instance.places : [],
                  ctx.ids.namespace,
                )
            : undefined,
          empties: instance.kind === 'empty',
          isValidationError: (answer) =>
            documentedShape(model.ValidationErrorBody, answer).ok ||
            (driver.validationBodyOr ? documentedShape(driver.validationBodyOr.schema, answer).ok : false),
          declared: ctx.declaredLimits,
          nonFieldErrors: mayUseNonFieldErrors(e.id),
        });
        return { outcome, res, what };
      };
      const judged = async (instance: EdgeInstance) => {
        // An emptied list is sent once: a validation error refusing it is legal (judgeEdge).
        let { outcome, res, what } = await attempt(instance, instance.kind === 'empty' || (!batch && sharing));
        // Refused about the subject the requests share (`repeatable`, `room`): judged about one of its own.
        if (!batch && sharing && res.status >= 400 && res.status < 500)
          ({ outcome, res, what } = await attempt(instance, instance.kind === 'empty', true));
        if (outcome.kind === 'refused') ctx.observe(`${what}: ${outcome.why}`);
        ctx.expect.that(outcome.kind !== 'broken', `${what}: ${outcome.kind === 'broken' ? outcome.reason : ''}`, {
          res,
        });
      };
      await eachProbe(
        ctx,
        plan,
        async (instance) => {
          if (!instance.members) return judged(instance);
          // The lists of one depth at once (edges.ts `together`): accepted intact, each list is.
          // A 5xx, or an answer accepting them changed, is broken as it would be for one list; any
          // refusal may be of one list alone (a limit, an empty list), so each is sent on its own.
          const { outcome, res, what } = await attempt(instance, true);
          if (outcome.kind === 'intact') return;
          // Refused about the shared subject: each member about one of its own (below) decides.
          ctx.expect.that(
            !(outcome.kind === 'broken' && (res.status >= 500 || statuses.includes(res.status))),
            `${what}: ${outcome.kind === 'broken' ? outcome.reason : ''}`,
            { res },
          );
          for (const member of instance.members) await judged(member);
        },
        (instance) => `${instance.edge} at ${instance.places[0]}`,
      );
    },
  };
}

/** One rule per endpoint of the catalogue with a place. */
export const edgeRules = (c: Catalogue = CATALOGUE): RuleInput[] =>
  c.endpoints.filter((e) => e.body && c.drivers[e.id] && planOf(c, e).length).map((e) => edgeRule(c, e));

export default defineRules('relations', edgeRules(), { endpoints: [] });
