/**
 * Lookup near-misses (core/engine/relations.ts, kind `lookup-near-miss`). The other rules try
 * another account and another supplier, never the same key spelled nearly the same: a server whose
 * lookup is looser than its key (a case-insensitive collation, a trimmed parameter, a truncated
 * compare) passes them all. Here every key of every lookup of the catalogue, and the §5 token of
 * every endpoint, is sent with a near-miss spelling (relations.ts `nearMisses`), and must find
 * nothing:
 *
 * - a read with a documented 404 (§4.3 status) answers it; a listing of a near-miss supplier code
 *   shows none of the supplier's records (its answer to an unknown code is not shown);
 * - a request about an existing subject (an imported or staged account, a business) is refused —
 *   with 404 where the endpoint's own 404 is stated (§4.2 notes rule 5) — and afterwards the exact
 *   request is answered as a first request (its driver's probe): nothing landed on the subject;
 * - a request that creates by key (stage, business) may be taken as another entity or refused; the
 *   exact request afterwards is answered as a first request, so the near-miss did not make or find
 *   the exact key's entity. Staging under a staged account's key in another letter case may be
 *   taken as a re-stage of it (a case-insensitive collation), but then the status read must find the
 *   account by that key too (`stagedAsRead`); a business created again under its identifier in other
 *   case and held as the same must be found by that identifier where a business is looked up
 *   (`createdAsRead`);
 * - a near-miss token gives 401 (§5.3). Its spaces are not tried: HTTP drops whitespace around a
 *   header value, and the auth syntax allows more than one space after the scheme.
 *
 * A near miss in letter case or surrounding spaces may be the same key to a server that normalizes
 * keys on input — trims them (Django REST framework does so to every string it reads), folds their
 * case (a case-insensitive collation) — which the spec, showing keys only as strings, does not rule
 * out (docs/freedoms.md). Such a near miss found is a failure only when the server demonstrably holds
 * it as another key elsewhere: staging an account under it is a first staging (a new account), or an
 * account cannot be staged under a supplier code it took (`heldAsSameKey`). A prefix or an extension
 * is another key under any reading, and found, fails. A request that creates by key sends only
 * those: what a normalizable near miss created cannot be told apart through the exact request.
 *
 * Every rule is derived from the driver table and the model; none names an endpoint.
 */
import { endpointSlug } from '../core/engine/relations.js';
import { CATALOGUE, type Catalogue, acceptedStatuses, probeFrom } from '../core/engine/drivers.js';
import type { HttpResponse } from '../core/http/client.js';
import { TO_IMPORT, missingNeed } from '../core/engine/needs.js';
import { mentions } from '../core/engine/observe.js';
import { eachProbe } from '../core/engine/probes.js';
import { keyFields, LOOKUP_NEAR_MISS, nearMisses, TOKEN_FIELD } from '../core/engine/relations.js';
import { defineRules, type RuleInput } from '../core/engine/rule.js';
import type { RuleContext } from '../core/engine/context.js';
import type { Scope, SubjectAccount } from '../core/engine/drivers.js';
import { acceptedNeeds, requestAbout, scopeFor } from '../core/engine/subject.js';
import type { CreatedBusiness } from '../core/engine/given.js';
import type { EndpointSpec } from '../core/spec/index.js';

const KIND = LOOKUP_NEAR_MISS.id;
const CASE_FLIPPED = 'the letter case flipped';
type Body = Record<string, unknown>;

/**
 * The run's identifiers end in their number (`…-A38`), so the proper prefix of one may be another
 * (`…-A3`), and the near misses other rules of the family make would meet. The subjects here take a
 * letter after their number: the prefix of `…-A38Q` is `…-A38`, a number drawn for this subject alone.
 */
const TAIL = 'Q';

/** The subject `scope` asks for (core/engine/subject.ts `setUp`), its external keys ending in TAIL. */
async function subjectOf(ctx: RuleContext, scope: Scope): Promise<SubjectAccount | undefined> {
  const account = () => {
    const payload = ctx.given.account();
    payload.external_account_number = `${payload.external_account_number}${TAIL}`;
    return payload;
  };
  const of = (a: { supplier: string; ext: string; payload: Record<string, unknown> }) => ({
    supplier: a.supplier,
    ext: a.ext,
    payload: a.payload,
  });
  switch (scope) {
    case 'fresh': {
      const payload = account();
      return { supplier: payload.import_supplier, ext: payload.external_account_number, payload };
    }
    case 'staged':
      return of(await ctx.given.staged(account()));
    case 'imported':
      return of(await ctx.given.imported(account()));
    case 'business':
      return (await businessSubject(ctx)).subject;
    case 'none':
      return undefined;
  }
}

/** A business whose identifier ends in TAIL, and an imported account linked to one of its contracts. */
async function businessSubject(ctx: RuleContext): Promise<{ subject: SubjectAccount; created: CreatedBusiness }> {
  const payload = ctx.given.businessPayload(1);
  payload.external_business_identifier = `${payload.external_business_identifier}${TAIL}`;
  const created = await ctx.given.business(1, undefined, payload);
  const linked = ctx.given.account();
  linked.external_account_number = `${linked.external_account_number}${TAIL}`;
  const a = await ctx.given.imported(ctx.given.linkToContract(linked, created.contractIdentifiers[0]));
  return {
    subject: {
      supplier: a.supplier,
      ext: a.ext,
      payload: a.payload,
      business: { supplier: created.supplier, externalIdentifier: created.externalIdentifier },
    },
    created,
  };
}

/** Whether a key field names a supplier (whose code the run is configured with, not drawn). */
const namesSupplier = (field: string) => field.startsWith('import_supplier');

/** The endpoint whose answers tell the run's history `tell` (the driver table): where an account is staged. */
const staging = (c: Catalogue) => c.endpoints.find((e) => c.drivers[e.id].history === 'staging');

/**
 * For a normalizable near miss `value` of `field` that found the subject: whether this server holds
 * it as the subject's own key elsewhere too, as staging shows. An external account number: staging an
 * account under it must not be a first staging (201: the server keeps it as another account, so the
 * lookup that found the subject was looser than its key). A supplier code: an account can be staged
 * under it (refused, the server does not take it for the supplier it found). Undefined where nothing
 * the interface shows tells (a business identifier): then the near miss is recorded, not failed.
 */
async function heldAsSameKey(
  ctx: RuleContext,
  c: Catalogue,
  field: string,
  value: string,
  subject: SubjectAccount,
): Promise<{ same: boolean; res: HttpResponse } | undefined> {
  const stage = staging(c);
  if (!stage) return undefined;
  if (field === 'external_account_number') {
    const payload = ctx.given.account(subject.supplier);
    payload.external_account_number = value;
    const res = await ctx.api.call(stage.id, {
      body: payload,
      step: `stage an account under ${field} ${JSON.stringify(value)}: the account found, or another?`,
      nearMiss: `${field} ${JSON.stringify(value)}`,
    });
    return { same: res.status !== 201 && res.status < 500, res };
  }
  if (namesSupplier(field)) {
    const res = await ctx.api.call(stage.id, {
      body: ctx.given.account(value),
      step: `stage an account under supplier code ${JSON.stringify(value)}: the supplier found, or none?`,
      nearMiss: `${field} ${JSON.stringify(value)}`,
    });
    return { same: res.status >= 200 && res.status < 300, res };
  }
  return undefined;
}

/**
 * Judges a normalizable near miss that found the subject (the answer `res`): recorded when the
 * server holds it as the same key (or nothing tells), a failure when it holds it as another.
 */
async function normalizedOrFail(
  ctx: RuleContext,
  c: Catalogue,
  field: string,
  near: { what: string; value: string },
  subject: SubjectAccount,
  res: HttpResponse,
): Promise<void> {
  const held = await heldAsSameKey(ctx, c, field, near.value, subject);
  if (held && !held.same)
    ctx.expect.that(
      false,
      `${field} with ${near.what} (${JSON.stringify(near.value)}) found the existing subject (answered ${res.status}), but the server holds it as another key: staging under it answered ${held.res.status}. The lookup is looser than the key (§4.2 notes rule 5, §4.3, §7.2: a wrong supplier code or external number gives 404)`,
      { res: held.res },
    );
  ctx.observe(
    `${field} with ${near.what} found the existing subject: the server normalizes keys on input (${held ? 'staging agrees' : 'nothing the interface shows tells otherwise'}); recorded, not failed (docs/freedoms.md).`,
  );
}

/** The read whose answers tell the history an account's status (the driver table): it has a documented 404. */
const statusRead = (c: Catalogue) => c.endpoints.find((e) => c.drivers[e.id].history === 'status');

/**
 * Staging under a near miss of an existing account's key in another letter case (§3: a first staging
 * answers 201, a re-stage 200). The server may hold it as another account, or, folding case (a
 * case-insensitive collation), as the same — and then its reads must hold it so too: the status of
 * the near-miss key finds the account (§4.3). A store that folds what its reads do not re-stages an
 * account under a key no read finds it by, and the re-staged data lands on an account the client did
 * not name. Only the letter case: a server may trim the strings of a body and not its path
 * (docs/freedoms.md), so a space near miss held as the same key at staging tells nothing of the read.
 */
async function stagedAsRead(
  ctx: RuleContext,
  c: Catalogue,
  e: EndpointSpec,
  field: string,
  subject: SubjectAccount,
): Promise<void> {
  const status = statusRead(c);
  const key = namesSupplier(field) ? subject.supplier : subject.ext;
  const near = nearMisses(key).find((m) => m.what === CASE_FLIPPED);
  if (!status || !near) return;
  const supplier = namesSupplier(field) ? near.value : subject.supplier;
  const payload = ctx.given.account(supplier);
  payload.external_account_number = field === 'external_account_number' ? near.value : subject.ext;
  const staged = await ctx.api.call(e.id, {
    body: payload,
    step: `stage under ${field} with ${near.what}, about the staged account ${subject.ext}`,
    nearMiss: `${field} with ${near.what}`,
  });
  // 201: another account, as the reads hold it; refused: nothing taken. Either agrees with the reads.
  if (staged.status === 201 || staged.status < 200 || staged.status >= 300) return;
  const read = await ctx.api.call(status.id, {
    params: { import_supplier_code: supplier, external_account_number: payload.external_account_number },
    step: `the status of ${field} with ${near.what}, which staging took for the staged account`,
    nearMiss: `${field} with ${near.what}`,
  });
  ctx.expect.that(
    read.status >= 200 && read.status < 300,
    `staging under ${field} with ${near.what} (${JSON.stringify(near.value)}) answered ${staged.status}, a re-stage of the existing account (§3), but the status of that key answered ${read.status}: the server holds it as the account's own key when it stores and as another when it reads, so the re-stage landed on an account the request did not name (§3, §4.3)`,
    { res: read, expected: 'the account found, as staging found it', actual: read.status },
  );
}

const BUSINESS_IDENTIFIER = 'external_business_identifier';

/** The endpoint, other than `creator`, that looks a business up by its identifier (§4.4 business payment instruction). */
const businessRead = (c: Catalogue, creator: EndpointSpec) =>
  c.endpoints.find((x) => x.id !== creator.id && x.looksUp && keyFields(c, x).includes(BUSINESS_IDENTIFIER));

/**
 * Creating a business under an existing one's identifier in other letter case, with its key
 * attributes (§2.8: "unique by its external identifier together with key attributes") and contracts
 * of its own. The server may hold it as another business (201 with another service_business_id) or,
 * folding case, as the same one — an answer naming the existing service_business_id (refused as a
 * duplicate, or the business given back) — and then the endpoint that looks a business up must find
 * it by that identifier too, as it finds it by the exact one. A server that folds when it creates and
 * compares exactly when it looks up sends a payment instruction for one business to none.
 */
async function createdAsRead(ctx: RuleContext, c: Catalogue, e: EndpointSpec) {
  const read = businessRead(c, e);
  if (!read) return;
  const readDriver = c.drivers[read.id];
  const missing = missingNeed(acceptedNeeds(readDriver), ctx.preconditions.config, ctx.preconditions.payloads);
  const { subject, created } = await businessSubject(ctx);
  const near = nearMisses(created.externalIdentifier).find((m) => m.what === CASE_FLIPPED);
  if (!near) return;
  const again = structuredClone(created.payload);
  again.external_business_identifier = near.value;
  // Contracts of its own: an identifier of a contract names one contract (§2.3), whatever business it is in.
  const fresh = ctx.given.businessPayload(1, created.supplier);
  if (again.business && fresh.business) again.business.business_contracts = fresh.business.business_contracts;
  const res = await ctx.api.call(e.id, {
    body: again,
    step: `the business ${created.externalIdentifier} again, its identifier with ${near.what}`,
    nearMiss: `${BUSINESS_IDENTIFIER} with ${near.what}`,
  });
  const named = res.isJson ? (res.json() as { service_business_id?: unknown } | null)?.service_business_id : undefined;
  // Another business, or a refusal that names none: nothing says the server holds the two as one.
  if (named === undefined || named !== created.serviceBusinessId) return;
  if (missing) {
    ctx.observe(
      `${BUSINESS_IDENTIFIER} with ${near.what} was held as the existing business ${named}; whether ${read.method} ${read.path} finds it by that identifier too was not asked (it needs ${missing.need}).`,
    );
    return;
  }
  const about = (identifier: string, what: string) =>
    ctx.api.call(read.id, {
      ...requestAbout(
        ctx,
        readDriver,
        { ...subject, business: { supplier: created.supplier, externalIdentifier: identifier } },
        true,
      ),
      step: what,
      ...(identifier === near.value ? { nearMiss: `${BUSINESS_IDENTIFIER} with ${near.what}` } : {}),
    });
  const statuses = acceptedStatuses(readDriver);
  // The near miss first: a refusal of it then cannot be a second instruction refused as such (§2.7
  // says nothing of duplicates), since none was sent before it.
  const byNear = await about(near.value, `${read.method} ${read.path} by the identifier with ${near.what}`);
  // Accepted: the lookup holds it as the business too. A 5xx is trouble reaching the vendor, retried (§4.2): it tells nothing.
  if (statuses.includes(byNear.status) || byNear.status >= 500) return;
  const exact = await about(created.externalIdentifier, `${read.method} ${read.path} by the exact identifier`);
  // Refused by the exact identifier as well: what refused it is not the identifier, so nothing to compare.
  if (!statuses.includes(exact.status)) return;
  ctx.expect.that(
    false,
    `creating a business under ${BUSINESS_IDENTIFIER} with ${near.what} (${JSON.stringify(near.value)}) answered ${res.status} naming the existing business ${named} (§2.8: the same business), but ${read.method} ${read.path} by that identifier answered ${byNear.status}, and then by the exact one ${exact.status}: the server holds it as the business's identifier when it creates and as another when it looks one up (§2.8, §4.4)`,
    { res: byNear, expected: `${statuses.join(' or ')}, as by the exact identifier`, actual: byNear.status },
  );
}

/** The endpoint's own documented 404, when the spec states one (§4.2 notes rules 1 and 5, §4.3 status). */
const own404 = (e: EndpointSpec) => e.responses.find((r) => r.status === 404);

/** The listing a read's answers tell the history (its driver's `history`), if it is one. */
const listingOf = (c: Catalogue, id: EndpointSpec['id']): string | undefined => {
  const tell = c.drivers[id]?.history;
  return typeof tell === 'object' ? tell.listing : undefined;
};

/**
 * A read (GET): each path parameter near-missed, the others exact, about an account the read shows:
 * an imported one, or a staged one for the pending listing.
 */
function readRule(c: Catalogue, e: EndpointSpec, fields: string[]): RuleInput {
  const stated = own404(e);
  return {
    id: `relations.lookup-near-miss.${endpointSlug(e.id)}`,
    spec: stated ? stated.spec : '§4.3, §2.2',
    level: 'MUST',
    title: stated
      ? `${e.method} ${e.path} answers 404 when a path parameter is a near miss of an existing account's key (case, space, prefix, extension)`
      : `${e.method} ${e.path} of a near-miss supplier code (case, space, prefix, extension) lists none of the supplier's accounts`,
    needs: TO_IMPORT,
    endpoints: [e.id],
    relation: { kind: KIND, places: fields.map((field) => ({ endpoint: e.id, field })) },
    async check(ctx) {
      // About an account the read shows when asked by the exact key: the pending listing (§4.3)
      // shows staged accounts only, and a looser lookup of it would show no imported one.
      const a = await subjectOf(ctx, listingOf(c, e.id) === 'pending' ? 'staged' : 'imported');
      const exact: Record<string, string> = { import_supplier_code: a!.supplier, external_account_number: a!.ext };
      const probes = fields.flatMap((field) => nearMisses(exact[field] ?? '').map((m) => ({ field, ...m })));
      await eachProbe(
        ctx,
        probes,
        async ({ field, what, value, normalizable }) => {
          const params = { ...exact, [field]: value };
          const res = await ctx.api.call(e.id, {
            params,
            step: `${field} with ${what}`,
            nearMiss: `${field} with ${what}`,
          });
          const found = stated
            ? res.status >= 200 && res.status < 300
            : res.status >= 200 && res.status < 300 && res.isJson && mentions(res.json(), a!.ext);
          if (found && normalizable) {
            await normalizedOrFail(ctx, c, field, { what, value }, a!, res);
            return;
          }
          if (stated)
            ctx.expect.status(
              res,
              404,
              `${field} with ${what} names no import process (${stated.spec}: 404 when none exists)`,
            );
          else if (res.status >= 200 && res.status < 300 && res.isJson)
            ctx.expect.that(
              !mentions(res.json(), a!.ext),
              `the listing of ${JSON.stringify(value)} (${what} of the supplier code) shows account ${a!.ext} of supplier ${a!.supplier}: the supplier code was looked up looser than it is (§2.2, §4.3)`,
              { res },
            );
        },
        ({ field, what }) => `${field} with ${what}`,
      );
    },
  };
}

/**
 * A request with a body: near-miss requests first (each one key near-missed), then the exact request,
 * which its driver's probe expects answered as a first request. A request about an existing subject
 * keeps its other fields (the same note, ledger, transaction: what would land on the subject); one
 * that creates (it looks nothing up: stage, business) takes them from another valid request, so the near-miss
 * entity and the exact one share nothing but the key's near miss.
 */
function bodyRule(c: Catalogue, e: EndpointSpec, fields: string[]): RuleInput {
  const driver = c.drivers[e.id];
  const creates = !e.looksUp;
  const stated = own404(e);
  const needs = [...TO_IMPORT, ...(driver.sampleNeeds ?? []), ...(driver.accepted.needs ?? [])];
  return {
    id: `relations.lookup-near-miss.${endpointSlug(e.id)}`,
    // The endpoint's own sections: what a refusal or a first answer means there.
    spec: stated ? `${stated.spec}, §3` : creates ? e.spec : `§7.2 (404: account not found), ${e.spec}`,
    level: 'MUST',
    title: creates
      ? `${e.method} ${e.path} with a near-miss key (case, space, prefix, extension) makes or finds nothing of the exact key: the exact request afterwards is a first one`
      : `${e.method} ${e.path} naming an existing subject by a near-miss key (case, space, prefix, extension) is refused${stated ? ' with 404' : ''}, and nothing lands on the subject`,
    needs: [...new Set(needs)],
    endpoints: [e.id],
    relation: { kind: KIND, places: fields.map((field) => ({ endpoint: e.id, field })) },
    async check(ctx) {
      const subject = await subjectOf(ctx, scopeFor(driver, true));
      const about = requestAbout(ctx, driver, subject);
      const exact = { ...((about.body ?? {}) as Body) };
      // A request about no subject (business creation) draws its keys: they take the tail here.
      if (!subject)
        for (const f of fields) if (!namesSupplier(f) && typeof exact[f] === 'string') exact[f] = `${exact[f]}${TAIL}`;
      const request = { ...about, body: exact };
      let probe = probeFrom(driver, request, subject);
      // A request that creates by key: its case near misses of an existing subject's key are judged
      // against the reads, about a subject set up for them (an account staged, a business created).
      if (creates && staging(c)?.id === e.id) {
        const staged = (await subjectOf(ctx, 'staged'))!;
        for (const field of fields) await stagedAsRead(ctx, c, e, field, staged);
      }
      if (creates && driver.history === 'business' && fields.includes(BUSINESS_IDENTIFIER))
        await createdAsRead(ctx, c, e);
      for (const field of fields)
        for (const { what, value, normalizable } of nearMisses(String(exact[field]))) {
          // What a normalizable near miss created cannot be told from the exact key's entity (above).
          if (creates && normalizable) continue;
          const base = creates ? ((driver.sample(ctx).body ?? {}) as Body) : exact;
          const keys = Object.fromEntries(fields.map((f) => [f, exact[f]]));
          const res = await ctx.api.call(e.id, {
            ...request,
            body: { ...base, ...keys, [field]: value },
            step: `${field} with ${what}`,
            nearMiss: `${field} with ${what}`,
          });
          if (creates) continue;
          if (normalizable && subject && res.status >= 200 && res.status < 300) {
            await normalizedOrFail(ctx, c, field, { what, value }, subject, res);
            // It landed on the subject as its own key: the exact request is no longer a first one.
            probe = undefined;
            continue;
          }
          if (stated)
            ctx.expect.status(
              res,
              404,
              `${field} with ${what} names no account (${stated.spec}: a wrong ${field} gives 404)`,
            );
          else ctx.expect.refused(res, `a request whose ${field} is a near miss (${what}) of an existing subject's`);
        }
      if (probe) await probe.run(ctx);
    },
  };
}

/** One rule per endpoint with lookup keys (relations.ts `keyFields`). */
export const nearMissRules = (c: Catalogue = CATALOGUE): RuleInput[] =>
  c.endpoints.flatMap((e) => {
    const fields = keyFields(c, e);
    if (!fields.length) return [];
    return [e.method === 'GET' ? readRule(c, e, fields) : bodyRule(c, e, fields)];
  });

/** The §5 token of every endpoint, near-missed: 401 (§5.3, §7.2). */
export const tokenNearMissRule = (c: Catalogue = CATALOGUE): RuleInput => ({
  id: 'relations.lookup-near-miss.token',
  spec: '§5.3, §7.2',
  level: 'MUST',
  title:
    'A near miss of the run token (the letter case flipped, a proper prefix, an extension) is an invalid token: 401 on every endpoint',
  needs: ['ongoingSupplier'],
  endpoints: c.endpoints.map((e) => e.id),
  relation: { kind: KIND, places: c.endpoints.map((e) => ({ endpoint: e.id, field: TOKEN_FIELD })) },
  async check(ctx) {
    // The spellings are worked out from the token inside the client: the rule never holds it.
    const spellings = [
      {
        what: 'the letter case flipped',
        alter: (t: string) => nearMisses(t, false).find((m) => m.what === 'the letter case flipped')?.value ?? `${t}X`,
      },
      { what: 'a proper prefix', alter: (t: string) => t.slice(0, -1) },
      { what: 'an extension', alter: (t: string) => `${t}X` },
    ];
    const probes = c.endpoints.flatMap((e) => spellings.map((s) => ({ e, ...s })));
    await eachProbe(
      ctx,
      probes,
      async ({ e, what, alter }) => {
        const res = await ctx.api.call(e.id, {
          ...c.drivers[e.id].sample(ctx),
          auth: { nearToken: alter, what },
          step: `${e.id} with the token's ${what}`,
        });
        ctx.expect.status(res, 401, `${e.method} ${e.path} with the run token's ${what} (§5.3: an invalid token)`);
      },
      ({ e, what }) => `${e.id} with the token's ${what}`,
    );
  },
});

export default defineRules('relations', [...nearMissRules(), tokenNearMissRule()], { tags: ['relations'] });
