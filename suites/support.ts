/**
 * What several suites share: a valid request for every endpoint (so a rule can vary exactly one
 * thing, such as the token), and the reads of status and listings.
 */
import { fillTemplate } from '../core/engine/templates.js';
import type { RuleContext } from '../core/engine/context.js';
import type { CallOptions } from '../core/engine/api.js';
import type { StagedAccount } from '../core/engine/given.js';
import type { HttpResponse } from '../core/http/client.js';
import type { EndpointId } from '../core/spec/index.js';

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

export type Scope = 'fresh' | 'staged' | 'imported' | 'none';

/**
 * Which account the request is about, read from the request itself: validate and stage take a new
 * account, process a staged one, every other request naming an `external_account_number` an imported
 * one; a request naming none (the business endpoints) is about no account.
 */
export function scopeOf(endpoint: EndpointId, body: unknown): Scope {
  if (endpoint === 'validateAccount' || endpoint === 'stageAccount') return 'fresh';
  if (endpoint === 'processAccount') return 'staged';
  return body && typeof body === 'object' && 'external_account_number' in body ? 'imported' : 'none';
}

/** The request of `endpoint`, valid, about `ext` of `supplier` (or about nothing, for the business endpoints). */
export function requestAbout(ctx: RuleContext, endpoint: EndpointId, account: SubjectAccount | undefined): CallOptions {
  const sample = sampleRequest(ctx, endpoint);
  if (!account) return sample;
  if (endpoint === 'validateAccount' || endpoint === 'stageAccount') return { body: account.payload };
  if (endpoint === 'createHistoricalBillingDocuments') {
    const ledgers = (account.payload.ledgers ?? []) as { ledger_code?: string }[];
    return {
      body: ctx.preconditions.payloads.billingDocuments(
        ctx.ids,
        { import_supplier: account.supplier, external_account_number: account.ext },
        ledgers[0]?.ledger_code ?? ctx.ids.other('L'),
        'PERIOD_BASED',
      ),
    };
  }
  const body = { ...(sample.body as Record<string, unknown>) };
  if ('import_supplier' in body) body.import_supplier = account.supplier;
  if ('import_supplier_code' in body) body.import_supplier_code = account.supplier;
  body.external_account_number = account.ext;
  return { ...sample, body };
}

/** The account a request is about, with the payload it was staged with (for its ledgers). */
export interface SubjectAccount {
  supplier: string;
  ext: string;
  payload: Record<string, unknown>;
}

/**
 * The account a valid request of `endpoint` is about, set up as the request needs it (a new one for
 * validate and stage, a staged one for process, an imported one for §4.2), and the request itself.
 */
export async function subjectFor(
  ctx: RuleContext,
  endpoint: EndpointId,
): Promise<{ scope: Scope; account?: SubjectAccount; request: CallOptions }> {
  const scope = scopeOf(endpoint, sampleRequest(ctx, endpoint).body);
  let account: SubjectAccount | undefined;
  if (scope === 'fresh') {
    const payload = ctx.given.account();
    account = { supplier: payload.import_supplier, ext: payload.external_account_number, payload };
  } else if (scope === 'staged' || scope === 'imported') {
    const a = scope === 'staged' ? await ctx.given.staged() : await ctx.given.imported();
    account = { supplier: a.supplier, ext: a.ext, payload: a.payload };
  }
  return { scope, account, request: requestAbout(ctx, endpoint, account) };
}

/** The once-per-ledger probe needs a ledger the account was imported with (a template may have none). */
export const ledgerless = (endpoint: EndpointId, account: SubjectAccount | undefined) =>
  endpoint === 'createHistoricalBillingDocuments' && !((account?.payload.ledgers ?? []) as unknown[]).length;

/** The configured upstream instruction (§2.7), or the template's own fields when none is configured. */
function vendorInstruction(ctx: RuleContext): Record<string, string> {
  const pi = ctx.preconditions.config.payment_instruction;
  return pi ? { vendor: pi.vendor, reference: pi.references.valid[0], type: pi.type } : {};
}

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
} from '../core/engine/observe.js';

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
