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

const DECIMAL = /^-?\d+(\.\d+)?$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;
const DOCUMENT_PATH_KEYS = new Set(['document_path', 'statement_path']);

/**
 * Whether an echoed value is the value sent, as "the validated data" may spell it: a number and a
 * decimal string of the same value (§2.4 "number or decimal string"), one datetime instant in another
 * ISO 8601 spelling (§2.1), a document path with or without its leading slash (§2.1: "A leading slash
 * on the payload path is accepted").
 */
function sameValue(sent: unknown, echoed: unknown, key: string): boolean {
  if (sent === echoed) return true;
  const numeric = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && DECIMAL.test(v));
  if (numeric(sent) && numeric(echoed)) return Number(sent) === Number(echoed);
  if (typeof sent !== 'string' || typeof echoed !== 'string') return false;
  if (DOCUMENT_PATH_KEYS.has(key)) return sent.replace(/^\//, '') === echoed.replace(/^\//, '');
  if (ISO_DATETIME.test(sent) && ISO_DATETIME.test(echoed)) return Date.parse(sent) === Date.parse(echoed);
  return false;
}

/**
 * The first documented field sent that does not come back with an equal value in an echo of the
 * validated data (§4.1 validate, §4.2 historical statements): a dot path and what was found there,
 * or undefined. Fields the echo adds are not looked at (§9.2: the interface grows); arrays keep
 * their elements, in order (§7.1 attrs index them).
 */
export function echoDifference(
  sent: unknown,
  echoed: unknown,
  path = '',
  key = '',
): { path: string; sent: unknown; echoed: unknown } | undefined {
  const at = (k: string | number) => (path === '' ? String(k) : `${path}.${k}`);
  if (Array.isArray(sent)) {
    if (!Array.isArray(echoed) || echoed.length !== sent.length) return { path: path || '(body)', sent, echoed };
    for (let i = 0; i < sent.length; i++) {
      const d = echoDifference(sent[i], echoed[i], at(i), key);
      if (d) return d;
    }
    return undefined;
  }
  if (sent !== null && typeof sent === 'object') {
    if (echoed === null || typeof echoed !== 'object' || Array.isArray(echoed))
      return { path: path || '(body)', sent, echoed };
    for (const [k, v] of Object.entries(sent)) {
      if (v === undefined) continue;
      const d = echoDifference(v, (echoed as Record<string, unknown>)[k], at(k), k);
      if (d) return d;
    }
    return undefined;
  }
  return sameValue(sent, echoed, key) ? undefined : { path: path || '(body)', sent, echoed };
}
