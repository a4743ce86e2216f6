/**
 * The observable-state oracle: everything the interface lets a client see of one
 * account, read back and compared with what the run did to it.
 *
 * Reads that change nothing — the status endpoint (§4.3), the all, pending and imported listings
 * (§4.3, every page followed) — make a `Snapshot`; two snapshots compare part by part, and a
 * difference names the read that showed it. Reads that change something — the dedup probes (§4.2
 * notes rule 2, §4.2 transactions), the once-per-ledger probe (§4.2, §8), staging (§3: 201 only the
 * first time), process (§3: 201 only once), the business (§2.8 unique) — are `Probe`s: each asks
 * "is this request still answered as a first request?", so a probe is valid only as the last step
 * of a rule (a probe note creates a note). `Oracle.assertState` reads the snapshot first, compares,
 * and only then runs the probes.
 *
 * The listing readers live here, below the suites, so every rule that changes or tries to change
 * state can use one oracle (suites/support.ts re-exports them).
 */
import type { HttpResponse } from '../http/client.js';
import { type EndpointId, model } from '../spec/index.js';
import { NotJudged } from './failures.js';
import type { RuleContext } from './rule.js';

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
    if (Array.isArray(results)) for (const item of results) items.push(item);
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

/**
 * The `status` a status answer states (§4.3), for a rule that only watches for one value: undefined
 * unless it is a 200 with a JSON object (a hostile target may answer `null` or garbage).
 */
export function statedStatus(res: HttpResponse): unknown {
  if (res.status !== 200 || !res.isJson) return undefined;
  const body = res.json();
  return body !== null && typeof body === 'object' ? (body as { status?: unknown }).status : undefined;
}

/** The account a snapshot is about: its supplier code and the supplier's own account number. */
export interface AccountKey {
  supplier: string;
  ext: string;
}

/** What the interface shows of one account at one moment, documented fields only. */
export interface Snapshot {
  account: AccountKey;
  /** §4.3 status: the code (200, or 404 when no import process exists) and the documented fields. */
  status: { code: number; import_status?: string; service_account_number?: string };
  /** The account's records in the all and pending listings (§2.9 fields), in a stable order (§4.3 states none). */
  all: ProcessRecord[];
  pending: ProcessRecord[];
  /** Whether any page of the imported listing names the account (its body is not shown); read on request. */
  imported?: boolean;
  /** The responses each part was read from, for the failure's exchange. */
  reads: { status: HttpResponse; all: HttpResponse; pending: HttpResponse; imported?: HttpResponse };
}

const documented = (r: ProcessRecord): ProcessRecord => ({
  external_account_number: r.external_account_number,
  service_account_number: r.service_account_number,
  account_created_at: r.account_created_at,
});

/** Records in a stable order: §4.3 states no order, so two reads may list them differently. */
const stable = (records: ProcessRecord[]) =>
  records.map(documented).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/**
 * Reads everything the interface documents about `account`: status (§4.3: 200 with the documented
 * body, or 404 when no import process exists), its records in the all and pending listings and,
 * with `importedListing`, whether the imported listing names it (that body is not shown, so only a
 * SHOULD rule may assert it).
 */
export async function snapshot(
  ctx: RuleContext,
  account: AccountKey,
  when: string,
  options: { importedListing?: boolean } = {},
): Promise<Snapshot> {
  return (await snapshots(ctx, [account], when, options))[0];
}

/** The snapshots of several accounts, each listing read once per supplier (a burst's accounts share them). */
export async function snapshots(
  ctx: RuleContext,
  accounts: readonly AccountKey[],
  when: string,
  options: { importedListing?: boolean } = {},
): Promise<Snapshot[]> {
  // The reads are independent and change nothing: they go out at once (a slow target pays one round
  // trip per page, not one per read), and are judged in a fixed order so a broken one reads the same.
  const suppliers = [...new Set(accounts.map((a) => a.supplier))];
  const reads = await settledInOrder([
    ...suppliers.flatMap((supplier) => [
      readListing(ctx, 'all', supplier, `all listing ${when}`),
      readListing(ctx, 'pending', supplier, `pending listing ${when}`),
      options.importedListing
        ? readListing(ctx, 'imported', supplier, `imported listing ${when}`)
        : Promise.resolve(undefined),
    ]),
  ]);
  const listings = new Map<string, { all: ListingRead; pending: ListingRead; imported?: ListingRead }>();
  suppliers.forEach((supplier, i) => {
    const [all, pending, imported] = reads.slice(i * 3, i * 3 + 3) as [ListingRead, ListingRead, ListingRead?];
    readable(all, when);
    readable(pending, when);
    listings.set(supplier, { all, pending, imported });
  });
  const statuses = await settledInOrder(
    accounts.map((account) => status(ctx, account.supplier, account.ext, `status ${when}`)),
  );
  const result: Snapshot[] = [];
  for (const [i, account] of accounts.entries()) {
    const st = statuses[i];
    // A read that breaks says nothing about the rule reading it (the status and listing rules judge it).
    if (st.status !== 200 && st.status !== 404)
      throw new NotJudged(`the status ${when} answered ${st.status}; the account's state could not be read`);
    const body = st.status === 200 ? ctx.expect.body(st, model.AccountTransferStatus, `status ${when}`) : undefined;
    const { all, pending, imported } = listings.get(account.supplier)!;
    const pageOf = (read: ListingRead) => read.pages.find((p) => p.text.includes(account.ext)) ?? read.first;
    result.push({
      account,
      status: {
        code: st.status,
        ...(body ? { import_status: body.status, service_account_number: body.service_account_number } : {}),
      },
      all: stable(recordsFor(all.items, account.ext)),
      pending: stable(recordsFor(pending.items, account.ext)),
      ...(imported ? { imported: listingShows(imported, account.ext) } : {}),
      reads: {
        status: st,
        all: pageOf(all),
        pending: pageOf(pending),
        ...(imported ? { imported: pageOf(imported) } : {}),
      },
    });
  }
  return result;
}

/** Waits for every read, then gives their values or throws the error of the first (in order) that broke. */
async function settledInOrder<T>(reads: readonly Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(reads);
  return settled.map((r) => {
    if (r.status === 'rejected') throw r.reason;
    return r.value;
  });
}

/** A listing that did not answer 200 cannot be read: not judged (the listing rules judge it). */
function readable(read: ListingRead, when: string): void {
  if (read.first.status !== 200)
    throw new NotJudged(
      `${read.first.exchange.request.url} answered ${read.first.status} ${when}; the account's state could not be read`,
    );
}

const PARTS = [
  ['status', 'the status endpoint (§4.3)'],
  ['all', 'the all-accounts listing (§4.3)'],
  ['pending', 'the pending listing (§4.3)'],
  ['imported', 'the imported listing (§4.3)'],
] as const;

/**
 * The observable state is exactly `expected`: the first part that differs fails the rule, naming
 * the read that showed it, what it showed before and what it shows now.
 */
export function expectSnapshot(ctx: RuleContext, actual: Snapshot, expected: Snapshot, why: string): void {
  for (const [part, read] of PARTS) {
    if (part === 'imported' && (actual.imported === undefined || expected.imported === undefined)) continue;
    const was = expected[part];
    const now = actual[part];
    if (JSON.stringify(was) === JSON.stringify(now)) continue;
    ctx.expect.equal(
      now,
      was,
      `${why}: ${read} changed for ${actual.account.ext} (${actual.account.supplier})`,
      actual.reads[part] ?? actual.reads.status,
    );
  }
}

/**
 * A request that changes state, sent as the last step: answered as a first request when nothing
 * before it (a refused request) did what it does. `check` judges the answer.
 */
export interface Probe {
  what: string;
  run(ctx: RuleContext): Promise<void>;
}

// The probe each endpoint offers is its driver's (core/engine/drivers.ts).

/** What a rule did to an account, as the oracle judges it: the state it must show, and the probes that end the rule. */
export interface StateModel {
  /** The snapshot the account must show now: for a refused request, the one read before it. */
  expected?: Snapshot;
  /** Why the state must be so, for the failure message. */
  why: string;
  /** Run after the snapshot, in order: each changes state, so they end the rule. */
  probes?: (Probe | undefined)[];
}

/** One oracle per rule: snapshot, compare, then probe (ctx.oracle-style use: `oracle(ctx).assertState(...)`). */
export class Oracle {
  constructor(private readonly ctx: RuleContext) {}

  /** The observable state of `account` now (no request here changes anything). */
  observe(account: AccountKey, when: string, options: { importedListing?: boolean } = {}): Promise<Snapshot> {
    return snapshot(this.ctx, account, when, options);
  }

  /** The observable states of several accounts now, each listing read once per supplier. */
  observeMany(accounts: readonly AccountKey[], when: string): Promise<Snapshot[]> {
    return snapshots(this.ctx, accounts, when);
  }

  /** The states of several accounts are still exactly what they were. */
  async expectAllUnchanged(before: readonly Snapshot[], when: string, why: string): Promise<void> {
    const after = await this.observeMany(
      before.map((b) => b.account),
      when,
    );
    after.forEach((a, i) => expectSnapshot(this.ctx, a, before[i], why));
  }

  /** The state of `before.account` is still exactly `before`. */
  async expectUnchanged(before: Snapshot, when: string, why: string): Promise<Snapshot> {
    const after = await this.observe(before.account, when, { importedListing: before.imported !== undefined });
    expectSnapshot(this.ctx, after, before, why);
    return after;
  }

  /** The account shows `model.expected` (read now and compared), then each probe is answered as a first request. */
  async assertState(model: StateModel, when: string): Promise<void> {
    if (model.expected) await this.expectUnchanged(model.expected, when, model.why);
    for (const p of model.probes ?? []) if (p) await p.run(this.ctx);
  }
}

export const oracle = (ctx: RuleContext) => new Oracle(ctx);
