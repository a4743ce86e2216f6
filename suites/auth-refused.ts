/**
 * §5.3, §7.2: "A missing or invalid token gives 401" — a refused request is not performed. One rule
 * per POST endpoint of the spec model (a new endpoint gets its rule from the model): the request, valid
 * in every respect and aimed at a real account (or a new business), is sent without a token and with
 * a bad one; afterwards what the interface documents about that account — its status, its records
 * in the all and pending listings (the imported listing's body is not shown, so it is left to the
 * SHOULD rules) — is exactly as it was, and where the interface offers a probe the
 * same request sent with the token is answered as a first one (a note created, a transaction added,
 * the ledger's billing documents accepted once, the business created, the account staged or created).
 */
import { randomBytes } from 'node:crypto';
import type { RuleContext } from '../core/engine/context.js';
import type { CallOptions } from '../core/engine/api.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import { defineRules, type Rule } from '../core/engine/rule.js';
import type { HttpResponse } from '../core/http/client.js';
import { type EndpointId, model } from '../core/spec/index.js';
import { observeAccount, sampleRequest } from './support.js';

/** The two refusals of §5.3: no token, and a token the service never issued. */
const refusedCredentials = (): { what: string; auth: 'none' | { authorization: string } }[] => [
  { what: 'without a token', auth: 'none' },
  { what: 'with an invalid token', auth: { authorization: `Token ${randomBytes(20).toString('hex')}` } },
];

type Scope = 'fresh' | 'staged' | 'imported' | 'none';

/**
 * Which account the request is about, read from the request itself: validate and stage take a new
 * account, process a staged one, every other request naming an `external_account_number` an imported
 * one; a request naming none (the business endpoints) is about no account.
 */
function scopeOf(endpoint: EndpointId, body: unknown): Scope {
  if (endpoint === 'validateAccount' || endpoint === 'stageAccount') return 'fresh';
  if (endpoint === 'processAccount') return 'staged';
  return body && typeof body === 'object' && 'external_account_number' in body ? 'imported' : 'none';
}

/**
 * The probe a request offers: the same request, sent with the token, answered as a first request
 * (§3, §4.1, §4.2 notes rule 2, §4.2 transactions, §4.2 historical billing documents "usable once
 * per ledger", §4.4). Endpoints without one are judged by the read side alone.
 */
const probes: Partial<Record<EndpointId, (ctx: RuleContext, res: HttpResponse) => void>> = {
  stageAccount: (ctx, res) => ctx.expect.status(res, 201, 'the account is staged for the first time (§3)'),
  processAccount: (ctx, res) => ctx.expect.status(res, 201, 'the account is created now (§3 staged → imported)'),
  createNotes: (ctx, res) => {
    ctx.expect.status(res, 201);
    const results = ctx.expect.body(res, model.NotesResponse, 'notes response');
    ctx.expect.equal(
      results.map((r) => r.status),
      ['NOTE_CREATION_SUCCESS'],
      'the note is created now, so it was not stored by the refused requests (§4.2 notes rule 2)',
      res,
    );
  },
  createTransactions: (ctx, res) => {
    ctx.expect.status(res, 201);
    const body = ctx.expect.body(res, model.TransactionsResponse, 'transactions response');
    ctx.expect.equal(
      body.results.map((r) => r.status),
      ['TRANSACTION_ADDED_TO_ACCOUNT'],
      'the transaction is added now, so the refused requests did not add it (§4.2 transactions)',
      res,
    );
  },
  createHistoricalBillingDocuments: (ctx, res) =>
    ctx.expect.status(res, 201, 'the ledger still takes its historical billing documents once (§4.2, §8)'),
  createBusiness: (ctx, res) =>
    ctx.expect.status(res, 201, 'the business is created now, so the refused requests did not create it (§4.4)'),
};

/** The request of `endpoint`, valid, about `ext` of `supplier` (or about nothing, for the business endpoints). */
function requestAbout(
  ctx: RuleContext,
  endpoint: EndpointId,
  account: { supplier: string; ext: string; payload: Record<string, unknown> } | undefined,
): CallOptions {
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

const postEndpoints = Object.values(model.endpoints).filter((e) => e.method === 'POST');

const perEndpoint: Rule[] = postEndpoints.map((e) => ({
  id: `auth.refused-has-no-effect.${e.id}`,
  spec: '§5.3, §7.2',
  level: 'MUST',
  title: `${e.method} ${e.path} refused with 401 (no token, an invalid token) leaves the observable state as it was`,
  needs: TO_IMPORT,
  endpoints: [e.id],
  tags: ['auth'],
  async check(ctx) {
    const scope = scopeOf(e.id, sampleRequest(ctx, e.id).body);
    let account: { supplier: string; ext: string; payload: Record<string, unknown> } | undefined;
    if (scope === 'fresh') {
      const payload = ctx.given.account();
      account = { supplier: payload.import_supplier, ext: payload.external_account_number, payload };
    } else if (scope === 'staged' || scope === 'imported') {
      const a = scope === 'staged' ? await ctx.given.staged() : await ctx.given.imported();
      account = { supplier: a.supplier, ext: a.ext, payload: a.payload };
    }
    const request = requestAbout(ctx, e.id, account);
    const before =
      account && (await observeAccount(ctx, account.supplier, account.ext, 'before', { importedListing: false }));
    for (const { what, auth } of refusedCredentials()) {
      const res = await ctx.api.call(e.id, { ...request, auth, step: `send ${what}` });
      ctx.expect.status(res, 401, what);
    }
    if (account && before) {
      const after = await observeAccount(ctx, account.supplier, account.ext, 'after the refused requests', {
        importedListing: false,
      });
      ctx.expect.equal(
        after.state,
        before.state,
        `what the interface shows of ${account.ext} (status, listings) must not change after requests refused with 401`,
        after.res,
      );
    }
    // The once-per-ledger probe needs a ledger the account was imported with (a template may have none).
    const ledgerless =
      e.id === 'createHistoricalBillingDocuments' && !((account?.payload.ledgers ?? []) as unknown[]).length;
    const probe = ledgerless ? undefined : probes[e.id];
    if (probe) {
      const res =
        e.id === 'processAccount' && account
          ? await ctx.given.process(account.supplier, account.ext, {}, 'probe: the same request with the token')
          : await ctx.api.call(e.id, { ...request, step: 'probe: the same request with the token' });
      probe(ctx, res);
    }
  },
}));

export default defineRules('auth', perEndpoint);
