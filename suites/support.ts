/**
 * What several suites share: a valid request for every endpoint (so a rule can vary exactly one
 * thing, such as the token) about an account set up as it needs, and the reads of status and listings.
 */
import {
  type Scope,
  type SubjectAccount,
  accountKey,
  sampleRequest,
  scopeOf,
  today,
  transaction,
} from '../core/engine/drivers.js';
import type { RuleContext } from '../core/engine/context.js';
import type { StagedAccount } from '../core/engine/given.js';
import type { HttpResponse } from '../core/http/client.js';
import { model } from '../core/spec/index.js';
import { status as observedStatus } from '../core/engine/observe.js';

/** The account a §4.2 request adds to: its supplier and the supplier's own account number. */
export type AccountRef = Pick<StagedAccount, 'supplier' | 'ext'>;

// A valid request per endpoint, and what it is about, are the endpoint's driver's (core/engine/drivers.ts).
export { type Scope, type SubjectAccount, accountKey, sampleRequest, scopeOf, today, transaction };
// The subject a valid request is about, set up as its driver's scope asks, is the engine's (core/engine/subject.ts).
export { requestAbout, subjectFor } from '../core/engine/subject.js';

// The listing readers and the observation of an account moved down to the engine's oracle
// (core/engine/observe.ts), where every rule that changes state can reach them.
export {
  type ListingRead,
  type Listing,
  type ProcessRecord,
  listing,
  listingShows,
  MAX_LISTING_PAGES,
  mentions,
  readListing,
  recordsFor,
  status,
  statedStatus,
} from '../core/engine/observe.js';

/**
 * Reads an account's status and expects it COMPLETED with `number` (§4.3): the account a rule
 * created, unchanged by whatever the rule did since.
 */
export async function expectCompleted(
  ctx: RuleContext,
  account: { supplier: string; ext: string; number: string },
  step: string,
  why: string,
): Promise<void> {
  const res = await observedStatus(ctx, account.supplier, account.ext, step);
  ctx.expect.status(res, 200);
  const body = ctx.expect.body(res, model.AccountTransferStatus, 'status');
  ctx.expect.equal([body.status, body.service_account_number], ['COMPLETED', account.number], why, res);
}

export interface ValidationOutcome {
  status: number;
  /** attr of every errors item, when the body is a §7.1 body. */
  attrs: string[];
  codes: string[];
}

/** Reads the §7.1 errors of a response, tolerating bodies of any other shape. */
export function errorsOf(res: HttpResponse): ValidationOutcome {
  const body = res.isJson ? (res.json() as { errors?: unknown }) : undefined;
  const items = Array.isArray(body?.errors) ? (body.errors as { attr?: unknown; code?: unknown }[]) : [];
  return { status: res.status, attrs: items.map((e) => String(e?.attr)), codes: items.map((e) => String(e?.code)) };
}

// Comparing what an answer hands back with what was sent is the engine's (core/engine/echo.ts).
export { echoDifference, describeDifference, requestKinds } from '../core/engine/echo.js';
