/**
 * §7.2: a validation error is a 400 "on any endpoint"; 500 is an unexpected error (and, on the
 * payment instruction endpoints, intermittent vendor trouble, which bad input never reaches). So no
 * bad input may get a 5xx: each endpoint gets its valid request with one top-level field removed,
 * one top-level field of the wrong type, and bodies that are no request at all. Only "not 5xx" is
 * asserted: removing an optional field can leave a valid request, and which fields are required is
 * not shown.
 */
import { endpointSlug } from '../core/spec/index.js';
import type { RuleContext } from '../core/engine/context.js';
import { PreconditionError } from '../core/engine/failures.js';
import { defineRules, type RuleInput } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import type { HttpResponse } from '../core/http/client.js';
import { CATALOGUE, type Catalogue, type EndpointDriver } from '../core/engine/drivers.js';
import { subjectFor } from '../core/engine/subject.js';
import { eachProbe } from '../core/engine/probes.js';

const GET_ENDPOINTS = CATALOGUE.endpoints.filter((e) => e.method === 'GET').map((e) => e.id);

/** A valid request of `driver` about a subject set up as its scope asks (staged for process, imported for §4.2). */
async function validRequest(ctx: RuleContext, driver: EndpointDriver): Promise<Record<string, unknown>> {
  return (await subjectFor(ctx, driver)).request.body as Record<string, unknown>;
}

/** A value of another JSON type than `value`. */
function wrongType(value: unknown): unknown {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number' || typeof value === 'boolean') return 'not-a-number-or-boolean';
  if (Array.isArray(value)) return 'not-a-list';
  return 'not-an-object';
}

function bodies(valid: Record<string, unknown>): { what: string; body?: unknown; rawBody?: string }[] {
  const out: { what: string; body?: unknown; rawBody?: string }[] = [];
  for (const key of Object.keys(valid)) {
    const { [key]: dropped, ...rest } = valid;
    out.push({ what: `without ${key}`, body: rest });
    out.push({ what: `${key} of the wrong type`, body: { ...valid, [key]: wrongType(dropped) } });
  }
  out.push(
    { what: 'an empty object', body: {} },
    { what: 'a JSON array', body: [] },
    { what: 'a JSON string', body: 'text' },
    { what: 'JSON null', body: null },
  );
  out.push({ what: 'malformed JSON', rawBody: '{"import_supplier": ' });
  return out;
}

function noServerError(ctx: RuleContext, res: HttpResponse, what: string) {
  // 502–504 say a gateway could not reach the service, which says nothing of how it treats input.
  if ([502, 503, 504].includes(res.status))
    throw new PreconditionError(
      `${what}: the target was unavailable (${res.status}), so the answer to bad input could not be seen`,
      res.exchange.seq,
    );
  ctx.expect.that(
    res.status < 500,
    `${what} got ${res.status}: bad input is a validation error (400 on any endpoint, §7.2), never a 5xx`,
    { res, expected: '< 500', actual: res.status },
  );
}

/** One MUST rule per POST endpoint of the catalogue, with its driver's valid request about its subject. */
export const badInputRules = (c: Catalogue = CATALOGUE): RuleInput[] =>
  c.endpoints
    .filter((e) => e.method === 'POST')
    .map((e) => ({
      id: `errors.bad-input.no-5xx.${endpointSlug(e.id)}`,
      spec: '§7.2 (400: validation error on any endpoint; 500: unexpected error)',
      level: 'MUST',
      title: `${e.path} never answers bad input (a field missing or of the wrong type, no request object, malformed JSON) with a 5xx`,
      needs: TO_IMPORT,
      endpoints: [e.id],
      async check(ctx: RuleContext) {
        const endpoint = e.id;
        const valid = await validRequest(ctx, c.drivers[endpoint]);
        await eachProbe(
          ctx,
          bodies(valid),
          async ({ what, body, rawBody }) => {
            const res = await ctx.api.call(
              endpoint,
              // Only the process endpoint has §8 slots, and each of its bodies here lacks a required field
              // or has one of the wrong type: none can start processing.
              rawBody !== undefined
                ? { rawBody, headers: { 'content-type': 'application/json' }, defective: true, step: what }
                : { body, defective: true, step: what },
            );
            noServerError(ctx, res, `${endpoint} with ${what}`);
          },
          ({ what }) => `${endpoint} with ${what}`,
        );
      },
    }));

const perGet: RuleInput = {
  id: 'errors.bad-input.no-5xx.read-endpoints',
  spec: '§7.2 (500: unexpected error), §4.3',
  level: 'MUST',
  title: 'The status and listing endpoints never answer odd supplier codes or account numbers with a 5xx',
  endpoints: GET_ENDPOINTS,
  async check(ctx: RuleContext) {
    const odds = ['no such supplier ñ ✓', '..', '%', "' OR 1=1 --", 'x'.repeat(300)];
    const probes = GET_ENDPOINTS.flatMap((endpoint) => odds.map((odd) => ({ endpoint, odd })));
    const what = ({ endpoint, odd }: (typeof probes)[number]) => `${endpoint} for ${JSON.stringify(odd.slice(0, 20))}`;
    await eachProbe(
      ctx,
      probes,
      async (probe) => {
        const res = await ctx.api.call(probe.endpoint, {
          params: { import_supplier_code: probe.odd, external_account_number: probe.odd },
          step: what(probe),
        });
        noServerError(ctx, res, what(probe));
      },
      what,
    );
  },
};

export default defineRules('errors', [...badInputRules(), perGet], { tags: ['errors'] });
