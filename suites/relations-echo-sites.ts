/**
 * The echo relation at every echo the model documents, from the model and the driver table alone
 * (issue #42: "echo — every field handed back equals what was sent, recursively"): one rule per
 * echo site (core/engine/echo.ts `echoSites`), named by its endpoint, that sends the driver's valid
 * request about the subject its acceptance needs and holds what comes back to what was sent. An
 * endpoint added to the model with an `echoes` on a documented response gets its rule the day it
 * is added; the rules of suites/relations-echo.ts add the edge payloads (nested items, numbers a
 * float or cents would change, astral text) at the sites they were written for.
 *
 * Where the echo is:
 * - `from: ''`: the whole body is what was sent (§4.1 validate: "200 with the validated data as body");
 * - a list (`statements`, `notes[]`): the answer's list — the body itself, or its one list field
 *   (§4.2 historical statements: "body is the validated data", which may be the list or the request
 *   validated, `{…, statements}`);
 * - `itemAt`: that field of each item of the answer's list (§4.2 transactions' `transaction_data`).
 *
 * An echo of one item per result (`[]`) is matched item by item in any order: the order of results
 * is not stated (§4.2). A `reading` echo (its content not shown, §4.2 transactions) is judged at
 * SHOULD, comparing only the fields it carries; a `stated` one at MUST, every field.
 */
import type { RuleContext } from '../core/engine/context.js';
import { CATALOGUE, type Catalogue } from '../core/engine/drivers.js';
import {
  describeDifference,
  type EchoDifference,
  type EchoOptions,
  type EchoSite,
  echoDifference,
  echoSites,
  requestKinds,
} from '../core/engine/echo.js';
import { defineRules, type RuleInput } from '../core/engine/rule.js';
import { boundedValue } from '../core/http/bounds.js';
import { acceptedNeeds, subjectFor } from '../core/engine/subject.js';
import { endpointSlug } from '../core/spec/index.js';
import { ECHO_TAG } from './relations-echo.js';

type Json = Record<string, unknown>;

/** The request's value at an echo's `from`: the whole body, or a list (`notes[]`, `statements`). */
function sentAt(body: unknown, from: string): unknown {
  if (from === '') return body;
  return (body as Json | undefined)?.[from.replace(/\[\]$/, '')];
}

/**
 * The list an answer hands back: the body when it is one, else the field of the list's own name, else
 * its only list field (`results`); undefined when there is none or more than one to choose from.
 */
export function answeredList(body: unknown, name: string): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (body === null || typeof body !== 'object') return undefined;
  const own = (body as Json)[name];
  if (Array.isArray(own)) return own;
  const lists = Object.values(body as Json).filter(Array.isArray);
  return lists.length === 1 ? (lists[0] as unknown[]) : undefined;
}

/** Only `fields` of each item (§4.2 notes: `{created_at, body}` come back of a note). */
const picked = (item: unknown, fields?: readonly string[]) =>
  fields && item && typeof item === 'object'
    ? Object.fromEntries(fields.filter((f) => f in (item as Json)).map((f) => [f, (item as Json)[f]]))
    : item;

/**
 * The first item sent that no item handed back equals, in any order, or undefined. Each echoed item
 * pairs with one sent item at most.
 */
export function unmatchedItem(
  sent: readonly unknown[],
  echoed: readonly unknown[],
  options: EchoOptions,
): EchoDifference | undefined {
  if (echoed.length !== sent.length)
    return { path: '(list)', sent: `${sent.length} items`, echoed: `${echoed.length} items` };
  const free = echoed.map((_, i) => i);
  for (const [i, item] of sent.entries()) {
    const match = free.findIndex((j) => echoDifference(item, echoed[j], options) === undefined);
    if (match >= 0) {
      free.splice(match, 1);
      continue;
    }
    // The difference shown is against the item at the same place, the likeliest pair.
    const d = echoDifference(item, echoed[i], options);
    return d && { ...d, path: `${i}.${d.path}` };
  }
  return undefined;
}

/** Holds the answer `body` to what `request` sent, as the site says it comes back. */
export function echoedDifference(site: EchoSite, requestBody: unknown, body: unknown): EchoDifference | undefined {
  const { echo } = site;
  const name = echo.from.replace(/\[\]$/, '');
  const options: EchoOptions = {
    kinds: requestKinds(site.endpoint),
    base: echo.from.endsWith('[]') ? `${name}[]` : echo.from,
    mode: echo.strength === 'reading' ? 'carried' : 'all',
  };
  const sent = sentAt(requestBody, echo.from);
  if (echo.from === '') return echoDifference(sent, body, options);
  const list = answeredList(body, name);
  if (!Array.isArray(sent)) return { path: echo.from, sent, echoed: body };
  if (!list) return { path: '(body)', sent: `a list of ${sent.length}`, echoed: body };
  const echoed = echo.itemAt ? list.map((item) => (item as Json | null)?.[echo.itemAt!]) : list;
  const items = sent.map((item) => picked(item, echo.fields));
  if (!echo.from.endsWith('[]')) return echoDifference(items, echoed, options);
  return unmatchedItem(items, echoed, options);
}

/** One rule per echo site of the catalogue: the valid request's echo, held to what was sent. */
export const echoSiteRules = (c: Catalogue = CATALOGUE): RuleInput[] =>
  echoSites(c).map((site) => {
    const e = c.endpoints.find((x) => x.id === site.endpoint)!;
    const driver = c.drivers[site.endpoint];
    const stated = site.echo.strength === 'stated';
    const where =
      site.echo.from === ''
        ? 'the body'
        : site.echo.itemAt
          ? `each ${site.echo.itemAt}`
          : `the ${site.echo.from.replace(/\[\]$/, '')} handed back`;
    return {
      id: `relations.echo.${endpointSlug(e.id)}`,
      spec: [...new Set([e.responses.find((r) => r.echoes)?.spec ?? e.spec, e.spec])].join(', '),
      ...(stated
        ? { level: 'MUST' as const }
        : { level: 'SHOULD' as const, why: site.echo.why ?? 'the echo is named, its content not shown' }),
      title: `${e.method} ${e.path}: ${where} carries the valid request's fields as sent`,
      endpoints: [e.id],
      needs: acceptedNeeds(driver),
      tags: [ECHO_TAG],
      async check(ctx: RuleContext) {
        const { request } = await subjectFor(ctx, driver, true);
        const res = await ctx.api.call(e.id, { ...request, step: `the valid ${e.words} request` });
        ctx.expect.status(res, site.statuses, `the valid ${e.words} request`);
        // Held to its documented body first: the comparison then walks a value of that shape (a
        // hostile answer nested 100k levels is a shape failure, not a stack overflow).
        const documented = e.responses.find((r) => r.status === res.status && r.echoes);
        if (documented && typeof documented.body === 'object')
          ctx.expect.body(res, documented.body, `the ${res.status} body of ${e.words}`);
        const found = echoedDifference(site, request.body, res.isJson ? res.json() : res.text);
        // What came back is shown clipped: a hostile answer may nest a value 100k levels deep.
        const d = found && { ...found, sent: boundedValue(found.sent), echoed: boundedValue(found.echoed) };
        ctx.expect.that(d === undefined, d ? describeDifference(d, `${where} must be what was sent`) : '', {
          res,
          expected: d?.sent,
          actual: d?.echoed,
        });
      },
    };
  });

export default defineRules('relations', echoSiteRules());
