/**
 * What several suites share: a valid request for every endpoint (so a rule can vary exactly one
 * thing, such as the token), and the reads of status and listings.
 */
import { fillTemplate } from '../core/engine/templates.js';
import type { RuleContext } from '../core/engine/context.js';
import type { CallOptions } from '../core/engine/api.js';
import type { StagedAccount } from '../core/engine/given.js';
import type { HttpResponse } from '../core/http/client.js';
import { type EndpointId, model } from '../core/spec/index.js';
import { NotJudged } from '../core/engine/failures.js';

/** A date inside any open statement period of a freshly imported account: today. */
export const today = () => new Date().toISOString().slice(0, 10);

/**
 * A transaction to add to a freshly imported account: the CHARGE of the transactions template (or
 * its first), with a fresh id, dated today (inside any open statement period), `extra` applied.
 */
export function transaction(ctx: RuleContext, extra: Record<string, unknown> = {}) {
  const template = ctx.preconditions.payloads.item<Record<string, unknown>>(
    'transactions',
    'transactions',
    ctx.ids,
    { transaction_date: today(), ...extra },
    (t) => t.type === 'CHARGE',
  );
  return template as { transaction_id: string; transaction_date: string; type: string } & Record<string, unknown>;
}

/** The account a §4.2 request adds to: its supplier and the supplier's own account number. */
export type AccountRef = Pick<StagedAccount, 'supplier' | 'ext'>;

export const accountKey = (supplier: string, ext: string) => ({
  import_supplier: supplier,
  external_account_number: ext,
});

/**
 * A request for `endpoint` that is valid in every respect except that it names an account or a
 * business that does not exist (one with a fresh namespaced identifier). Used where a rule varies
 * one other thing — the token (§5), the method, the path.
 */
export function sampleRequest(ctx: RuleContext, endpoint: EndpointId): CallOptions {
  const supplier = ctx.preconditions.config.import_suppliers?.ongoing ?? 'SUPPLIER';
  const ext = ctx.ids.externalAccountNumber();
  const key = accountKey(supplier, ext);
  const params = { import_supplier_code: supplier, external_account_number: ext };
  switch (endpoint) {
    case 'validateAccount':
    case 'stageAccount':
      return { body: ctx.given.account(supplier) };
    case 'processAccount':
      return {
        body: {
          external_account_number: ext,
          import_supplier_code: supplier,
          operations_team_name: ctx.preconditions.config.operations_team ?? 'team',
        },
      };
    case 'createNotes':
      return { body: { ...key, notes: [ctx.preconditions.payloads.item('notes', 'notes', ctx.ids)] } };
    case 'createAgreements':
      return {
        body: ctx.preconditions.payloads.configured('agreements')
          ? fillTemplate(ctx.preconditions.agreementsPayload, {
              ...key,
              supply_point_identifier: ctx.ids.supplyPointIdentifier(),
            })
          : key,
      };
    case 'createSupplyPoints':
      return {
        body: ctx.preconditions.payloads.configured('supply_points')
          ? fillTemplate(ctx.preconditions.supplyPointsPayload, {
              ...key,
              new_supply_point_identifier: ctx.ids.supplyPointIdentifier(),
            })
          : key,
      };
    case 'createTransactions':
      return { body: { ...key, transactions: [transaction(ctx)] } };
    case 'createHistoricalBillingDocuments':
      return {
        body: ctx.preconditions.payloads.request('historical_billing_documents', ctx.ids, {
          ...key,
          ledger_code: ctx.ids.other('L'),
        }),
      };
    case 'createHistoricalStatements':
      return { body: ctx.preconditions.payloads.request('historical_statements', ctx.ids, key) };
    case 'createPaymentInstruction':
      return {
        body: ctx.preconditions.payloads.request('payment_instruction', ctx.ids, { ...key, ...vendorInstruction(ctx) }),
      };
    case 'createBusiness':
      return { body: ctx.given.businessPayload(1, supplier) };
    case 'createBusinessPaymentInstruction':
      return {
        body: ctx.preconditions.payloads.request('business_payment_instruction', ctx.ids, {
          import_supplier_code: supplier,
          external_business_identifier: ctx.ids.businessIdentifier(),
          ...vendorInstruction(ctx),
        }),
      };
    case 'accountTransferStatus':
    case 'allAccountImportProcesses':
    case 'pendingAccountImportProcesses':
    case 'importedAccountImportProcesses':
      return { params };
  }
}

/** The configured upstream instruction (§2.7), or the template's own fields when none is configured. */
function vendorInstruction(ctx: RuleContext): Record<string, string> {
  const pi = ctx.preconditions.config.payment_instruction;
  return pi ? { vendor: pi.vendor, reference: pi.references.valid[0], type: pi.type } : {};
}

export interface ProcessRecord {
  external_account_number: string;
  service_account_number: string | null;
  account_created_at: string | null;
}

export type Listing = 'all' | 'pending' | 'imported';
const listingEndpoint: Record<Listing, EndpointId> = {
  all: 'allAccountImportProcesses',
  pending: 'pendingAccountImportProcesses',
  imported: 'importedAccountImportProcesses',
};

export function listing(ctx: RuleContext, which: Listing, supplier: string, step?: string): Promise<HttpResponse> {
  return ctx.api.call(listingEndpoint[which], { params: { import_supplier_code: supplier }, step });
}

/** Most pages of one listing a rule reads; a longer listing leaves the rule not judged. */
export const MAX_LISTING_PAGES = 100;

/** Every page of a listing, read by `readListing`. */
export interface ListingRead {
  /** The first page: its status and shape are what the documented listings are judged by. */
  first: HttpResponse;
  /** Every page read, the first included. */
  pages: HttpResponse[];
  /** The items of every page, in order: the array itself, or each page's `results`. */
  items: unknown[];
}

/** The page after `body`, when it is a page object (`{count, next, previous, results}`) with a `next` link. */
function nextLink(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const next = (body as { next?: unknown }).next;
  return typeof next === 'string' && next !== '' ? next : undefined;
}

/**
 * Where a `next` link leads, as a path under the target's base URL. A relative link is resolved
 * against the page that gave it; an absolute one is followed on the target whatever host it names
 * (behind a gateway the service may name itself otherwise), and the token never leaves the target
 * (docs/design.md §6). Only paths of the interface (`/v1/data-import/…`) are followed.
 */
function nextPath(link: string, page: HttpResponse): string | undefined {
  const here = new URL(page.exchange.request.url, 'http://target.invalid');
  let url: URL;
  try {
    url = new URL(link, here);
  } catch {
    return undefined;
  }
  const at = url.pathname.indexOf('/v1/data-import/');
  return at < 0 ? undefined : `${url.pathname.slice(at)}${url.search}`;
}

/**
 * Reads a listing whole. §4.3 documents the all and pending listings as arrays and does not show
 * the imported listing's body, which may be paginated (`{count, next, previous, results}`): a page
 * object with a `next` link (relative or absolute) is followed, at most `MAX_LISTING_PAGES` pages.
 * Rules look for records in `items` (or in every page), never in the first page alone.
 */
export async function readListing(
  ctx: RuleContext,
  which: Listing,
  supplier: string,
  step?: string,
): Promise<ListingRead> {
  const first = await listing(ctx, which, supplier, step);
  const pages = [first];
  const items: unknown[] = [];
  const seen = new Set([nextPath('', first)]);
  for (let page = first; ; ) {
    if (page.status !== 200 || !page.isJson) break;
    const body = page.json();
    const results = Array.isArray(body) ? body : (body as { results?: unknown } | null)?.results;
    if (Array.isArray(results)) items.push(...results);
    else if (body !== null && body !== undefined) items.push(body);
    const link = nextLink(body);
    if (link === undefined) break;
    const path = nextPath(link, page);
    if (path === undefined || seen.has(path))
      throw new NotJudged(
        `the ${which} listing's next link ${JSON.stringify(link)} leads ${path === undefined ? 'outside the interface' : 'back to a page already read'}; the listing cannot be read whole`,
      );
    if (pages.length >= MAX_LISTING_PAGES)
      throw new NotJudged(`the ${which} listing has more than ${MAX_LISTING_PAGES} pages; it was not read whole`);
    seen.add(path);
    page = await ctx.api.request('GET', path, { step: step ? `${step}, page ${pages.length + 1}` : undefined });
    pages.push(page);
    if (page.status !== 200 || !page.isJson)
      throw new NotJudged(
        `page ${pages.length} of the ${which} listing answered ${page.status}; it was not read whole`,
      );
  }
  return { first, pages, items };
}

/** Whether any page of a listing names `ext` (for the imported listing, whose body is not shown). */
export const listingShows = (read: ListingRead, ext: string) => read.pages.some((p) => p.text.includes(ext));

/** The records of a documented listing (all, pending) that are about `ext`. */
export function recordsFor(body: unknown, ext: string): ProcessRecord[] {
  return Array.isArray(body)
    ? (body as ProcessRecord[]).filter((r) => r && typeof r === 'object' && r.external_account_number === ext)
    : [];
}

/** Whether `value` appears anywhere in a JSON value: for the imported listing, whose body is not shown. */
export function mentions(body: unknown, value: string): boolean {
  // A walk with its own stack: a hostile answer may nest 100k levels deep.
  const pending = [body];
  while (pending.length) {
    const node = pending.pop();
    if (node === value) return true;
    if (node && typeof node === 'object') for (const child of Object.values(node)) pending.push(child);
  }
  return false;
}

export function status(ctx: RuleContext, supplier: string, ext: string, step?: string): Promise<HttpResponse> {
  return ctx.api.call('accountTransferStatus', {
    params: { import_supplier_code: supplier, external_account_number: ext },
    step,
  });
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

/**
 * What the interface lets a client read about one account (§4.3, §2.9), documented fields only: the
 * status endpoint's code and fields, the account's records in the all and pending listings, and
 * (with `importedListing`) whether any page of the imported listing names it — that listing's body
 * is not shown, so a rule that asserts it is SHOULD.
 */
export async function observeAccount(
  ctx: RuleContext,
  supplier: string,
  ext: string,
  when: string,
  options: { importedListing: boolean },
) {
  const st = await status(ctx, supplier, ext, `status ${when}`);
  // §4.3: 200 with the documented body, or 404 when no import process exists.
  ctx.expect.status(st, [200, 404], `status ${when}`);
  const stBody = st.status === 200 ? ctx.expect.body(st, model.AccountTransferStatus, `status ${when}`) : undefined;
  const record = (r: ProcessRecord) => ({
    external_account_number: r.external_account_number,
    service_account_number: r.service_account_number,
    account_created_at: r.account_created_at,
  });
  const all = await readListing(ctx, 'all', supplier, `all listing ${when}`);
  const pending = await readListing(ctx, 'pending', supplier, `pending listing ${when}`);
  const imported = options.importedListing
    ? listingShows(await readListing(ctx, 'imported', supplier, `imported listing ${when}`), ext)
    : undefined;
  return {
    state: {
      status: st.status,
      ...(stBody ? { import_status: stBody.status, service_account_number: stBody.service_account_number } : {}),
      all: recordsFor(all.items, ext).map(record),
      pending: recordsFor(pending.items, ext).map(record),
      ...(imported === undefined ? {} : { imported_listing_shows_it: imported }),
    },
    res: st,
  };
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
