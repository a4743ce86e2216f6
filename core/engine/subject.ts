/**
 * What a generic family stands on before it sends an endpoint's valid request: the subject its
 * driver's scope asks for (core/engine/drivers.ts), set up, and the request about it. Every family
 * reads the endpoint only through its driver, so an endpoint added to the table is set up the same
 * way by all of them.
 */
import type { CallOptions } from './api.js';
import { acceptedStatuses, type EndpointDriver, type Scope, type SubjectAccount } from './drivers.js';
import { type Need, TO_IMPORT } from './needs.js';
import type { Probe } from './observe.js';
import type { RuleContext } from './rule.js';
import type { AccountPayload, EndpointId } from '../spec/index.js';

/**
 * The request of `driver`, valid, about `subject` (or its sample, about nothing that exists, when
 * there is no subject): the driver's own `about`, or the sample with the subject's keys. `toAccept`:
 * the request is to be accepted (the field types' last word), not refused.
 */
export function requestAbout(
  ctx: RuleContext,
  driver: EndpointDriver,
  subject: SubjectAccount | undefined,
  toAccept = false,
): CallOptions {
  const sample = driver.sample(ctx);
  if (!subject) return sample;
  if (driver.about) return driver.about(ctx, subject, sample, toAccept);
  const body = { ...(sample.body as Record<string, unknown>) };
  if ('import_supplier' in body) body.import_supplier = subject.supplier;
  if ('import_supplier_code' in body) body.import_supplier_code = subject.supplier;
  body.external_account_number = subject.ext;
  return { ...sample, body };
}

/** Sets up what `scope` asks for: a new account, a staged or imported one, a business with an imported account. */
export async function setUp(
  ctx: RuleContext,
  scope: Scope,
  /** The account payload of a `fresh`, `staged` or `imported` subject, where not the template's. */
  account?: AccountPayload,
): Promise<SubjectAccount | undefined> {
  switch (scope) {
    case 'fresh': {
      const payload = account ?? ctx.given.account();
      return { supplier: payload.import_supplier, ext: payload.external_account_number, payload };
    }
    case 'staged':
    case 'imported': {
      const a = scope === 'staged' ? await ctx.given.staged(account) : await ctx.given.imported(account);
      return { supplier: a.supplier, ext: a.ext, payload: a.payload };
    }
    case 'business': {
      // §4.4: an instruction for a business names accounts linked to one of its contracts.
      const business = await ctx.given.business(1);
      const a = await ctx.given.imported(
        ctx.given.linkToContract(ctx.given.account(), business.contractIdentifiers[0]),
      );
      return {
        supplier: a.supplier,
        ext: a.ext,
        payload: a.payload,
        business: { supplier: business.supplier, externalIdentifier: business.externalIdentifier },
      };
    }
    case 'none':
      return undefined;
  }
}

/** What a request of `driver` stands on: its scope, or — for a request to be accepted — what acceptance asks. */
export const scopeFor = (driver: EndpointDriver, toAccept = false): Scope =>
  toAccept ? (driver.accepted.scope ?? driver.scope) : driver.scope;

/**
 * The subject of a valid request of `driver`, set up as its scope asks (or, `toAccept`, as an
 * accepted request needs), and the request itself.
 */
export async function subjectFor(
  ctx: RuleContext,
  driver: EndpointDriver,
  toAccept = false,
): Promise<{ scope: Scope; account?: SubjectAccount; request: CallOptions }> {
  const scope = scopeFor(driver, toAccept);
  const account = await setUp(ctx, scope);
  return { scope, account, request: requestAbout(ctx, driver, account, toAccept) };
}

/**
 * What a rule that sends an accepted request stands on: an Ongoing supplier for a subject the rule
 * does not set up, the import chain for any other, then the sample's and the acceptance's own needs.
 */
export const acceptedNeeds = (driver: EndpointDriver): Need[] => [
  ...(scopeFor(driver, true) === 'none' ? (['ongoingSupplier'] as const) : TO_IMPORT),
  ...(driver.sampleNeeds ?? []),
  ...(driver.accepted.needs ?? []),
];

/**
 * What a refusal family's rule stands on: the import chain, and — where its last word is the valid
 * request accepted, not the driver's probe — what an accepted request needs too.
 */
export const refusalNeeds = (driver: EndpointDriver, probed: boolean): readonly Need[] =>
  probed ? TO_IMPORT : [...new Set([...TO_IMPORT, ...acceptedNeeds(driver)])];

/**
 * Where a driver sees no effect, what is left to show that refusals kept nothing: the valid request,
 * sent last, is accepted with its documented status (§4). `after` says what came before it.
 */
export const acceptedProbe = (
  endpoint: EndpointId,
  driver: EndpointDriver,
  request: CallOptions,
  what: string,
  after: string,
): Probe => ({
  what: `the valid ${what} is accepted with its documented status`,
  run: async (ctx) => {
    const res = await ctx.api.call(endpoint, { ...request, step: `the valid ${what}` });
    ctx.expect.status(res, acceptedStatuses(driver), `the valid ${what}, ${after}`);
  },
});
