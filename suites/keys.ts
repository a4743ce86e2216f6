/**
 * Every keyed statement of the interface, tried in a neighbouring scope. A rule elsewhere repeats a
 * key where it must collide (the same note on the same account, the same business again); every
 * entity a run creates is otherwise unique, so a server that keys a statement too widely — compares
 * across the accounts of a supplier what the spec scopes to one account, looks up across suppliers
 * what belongs to one — passes every such rule. Here each key of `KEYS` is sent twice, the second
 * time in the next scope out (another account, another supplier, another external identifier), and
 * the second must be taken as new, as the spec's words for the key imply.
 *
 * A scope is tried only where the spec's wording makes independence certain: what the spec leaves
 * open (docs/freedoms.md) gets no rule here, and `open` in the table says why. Scopes another rule
 * already tries are named in `triedBy`, so the table is the whole picture (docs/design.md §10).
 */
import type { RuleContext } from '../core/engine/context.js';
import type { ImportedAccount } from '../core/engine/given.js';
import { type Need, TO_IMPORT } from '../core/engine/needs.js';
import { defineRules, type RuleInput } from '../core/engine/rule.js';
import type { Level } from '../core/engine/verdict.js';
import type { HttpResponse } from '../core/http/client.js';
import { type EndpointId, model } from '../core/spec/index.js';
import { billingDocuments } from './billing.js';
import { completeNote } from './notes.js';
import { accountKey, expectCompleted, transaction } from './support.js';

/** One neighbouring scope of a key, and the rule that repeats the key there. */
export interface NeighbourScope {
  /** The rule id's last part: what differs from the first use of the key. */
  scope: string;
  level: Level;
  why?: string;
  title: string;
  needs?: readonly Need[];
  endpoints: EndpointId[];
  check(ctx: RuleContext): Promise<void>;
}

/** A keyed statement of the spec: what it is unique by, in the spec's words, and the scopes tried. */
export interface KeyedStatement {
  /** The rule ids' middle part (`keys.<key>.<scope>`). */
  key: string;
  spec: string;
  /** The spec's sentence for the key, verbatim (test/suites/keys.test.ts holds it to the spec). */
  quote: string;
  /** What the key is made of. */
  attributes: readonly string[];
  scopes: readonly NeighbourScope[];
  /** Rules of other areas that already change one attribute of the key. */
  triedBy?: readonly string[];
  /** Scopes left untried because the spec leaves them open. */
  open?: string;
}

const NOTE_CREATED = 'NOTE_CREATION_SUCCESS';
const ADDED = 'TRANSACTION_ADDED_TO_ACCOUNT';

/** Sends one note to an account that must take it; returns the note's status. */
async function noteStatus(
  ctx: RuleContext,
  a: ImportedAccount,
  note: { body: string; created_at: string },
  step: string,
) {
  const res = await ctx.api.call('createNotes', {
    body: { ...accountKey(a.supplier, a.ext), notes: [completeNote(ctx, note)] },
    step,
  });
  ctx.expect.status(res, 201, step);
  const results = ctx.expect.body(res, model.NotesResponse, 'notes response');
  ctx.expect.equal(results.length, 1, 'one result per note sent (§4.2)', res);
  return { res, status: results[0].status };
}

/** Sends one transaction to an account that must take it; returns its status. */
async function transactionStatus(ctx: RuleContext, a: ImportedAccount, tx: Record<string, unknown>, step: string) {
  const res = await ctx.api.call('createTransactions', {
    body: { ...accountKey(a.supplier, a.ext), transactions: [tx] },
    step,
  });
  ctx.expect.status(res, 201, step);
  const { results } = ctx.expect.body(res, model.TransactionsResponse, 'transactions response');
  ctx.expect.equal(results.length, 1, 'one result per transaction sent (§4.2)', res);
  return { res, status: results[0].status };
}

/**
 * Sends one item to two imported accounts of the supplier, each of which must take it as new:
 * `expected` for the first, and for the second, since the key belongs to one account (`why`).
 */
async function newOnBothAccounts(
  ctx: RuleContext,
  what: string,
  send: (a: ImportedAccount, step: string) => Promise<{ res: HttpResponse; status: string }>,
  expected: string,
  why: string,
): Promise<void> {
  const [a, b] = await Promise.all([ctx.given.imported(), ctx.given.imported()]);
  ctx.expect.equal((await send(a, `the ${what} on the first account`)).status, expected, `the first ${what} is taken`);
  const second = await send(b, `the same ${what} on the second account`);
  ctx.expect.equal(second.status, expected, why, second.res);
}

/** The service account number of a 201 of process, or a failure saying the body does not carry one. */
function createdNumber(ctx: RuleContext, res: HttpResponse, what: string): string {
  ctx.expect.status(res, 201, what);
  return ctx.expect.body(res, model.ProcessAccountResponse, 'process response').service_account_number;
}

/** The key table: every keyed statement of §2.8, §3, §4.1–§4.4 and the scopes tried for it. */
export const KEYS: readonly KeyedStatement[] = [
  {
    key: 'import-process',
    spec: '§3 (UNKNOWN: no account for the supplier code and external number), §4.3 status path',
    quote: '| `UNKNOWN` | No account exists for the supplier code and external number',
    attributes: ['import supplier code', 'external account number'],
    scopes: [
      {
        scope: 'other-supplier',
        level: 'MUST',
        title:
          'An external account number imported under one supplier is staged (201) and processed (201, another account number) under another Ongoing supplier, and the first account stays as it was',
        needs: ['ongoingSupplier', 'otherOngoingSupplier', 'operationsTeam'],
        endpoints: ['stageAccount', 'processAccount', 'accountTransferStatus'],
        async check(ctx) {
          const first = await ctx.given.imported();
          const other = ctx.preconditions.otherOngoingSupplier;
          const payload = { ...ctx.given.account(other), external_account_number: first.ext };
          ctx.expect.status(
            await ctx.given.stage(payload, `stage ${first.ext} under the other supplier`),
            201,
            'the other supplier has no import process for this number: a first staging (§3 none → staged)',
          );
          const number = createdNumber(
            ctx,
            await ctx.given.process(other, first.ext, {}, `process ${first.ext} under the other supplier`),
            'the account of the other supplier is created (§3 staged → imported)',
          );
          ctx.expect.that(
            number !== first.number,
            `the account created under the other supplier got the number of the first supplier's account (${first.number}): one account for two (supplier, external number) keys (§3)`,
            { expected: `a number other than ${first.number}`, actual: number },
          );
          await expectCompleted(
            ctx,
            first,
            'status of the first account afterwards',
            "the first supplier's account is untouched by the other supplier's (§3, §4.3)",
          );
        },
      },
    ],
    triedBy: ['notes.404.wrong-supplier-existing', 'status.listings-per-supplier'],
  },
  {
    key: 'note',
    spec: '§4.2 notes rule 2',
    quote:
      'A note is created only if no note on the account has the same `body` and, when given, the same `created_at`.',
    attributes: ['account', 'body', 'created_at (when given)'],
    scopes: [
      {
        scope: 'other-account',
        level: 'MUST',
        title:
          'A note with the body and created_at of a note on another account of the same supplier is created (NOTE_CREATION_SUCCESS)',
        endpoints: ['createNotes'],
        async check(ctx) {
          const note = { body: ctx.ids.noteBody('key'), created_at: '2024-01-02T03:04:05Z' };
          await newOnBothAccounts(
            ctx,
            'note',
            (a, step) => noteStatus(ctx, a, note, step),
            NOTE_CREATED,
            'no note on the second account has this body and created_at: dedup is per account (§4.2 notes rule 2: "no note on the account")',
          );
        },
      },
    ],
    triedBy: ['notes.dedup.other-created-at-creates', 'notes.dedup.other-body-creates'],
  },
  {
    key: 'transaction',
    spec: '§4.2 transactions (check_previously_added, per-item statuses)',
    quote: '`TRANSACTION_ALREADY_EXISTS` (added earlier, skipped now)',
    attributes: ['account', 'transaction_id'],
    scopes: [
      {
        scope: 'other-account',
        level: 'SHOULD',
        why: 'The request adds data to one account and TRANSACTION_ALREADY_EXISTS means "added earlier", which a transaction of another account was not, to this one; but the spec does not say what identifies a transaction, and a supplier-wide transaction id is a reading it does not exclude in words.',
        title:
          'A transaction with the transaction_id of one added to another account of the same supplier is added (TRANSACTION_ADDED_TO_ACCOUNT)',
        endpoints: ['createTransactions'],
        async check(ctx) {
          const tx = transaction(ctx);
          await newOnBothAccounts(
            ctx,
            'transaction',
            (a, step) => transactionStatus(ctx, a, tx, step),
            ADDED,
            'the transaction was never added to the second account, so it is not "added earlier" there (§4.2 TRANSACTION_ALREADY_EXISTS)',
          );
        },
      },
    ],
    triedBy: ['transactions.dedup.already-exists'],
  },
  {
    key: 'ledger',
    spec: '§4.2 historical billing documents, §8, §2.3 ledger',
    quote: 'Usable once per ledger. It is refused when the ledger already has a finalized billing document',
    attributes: ['account', 'ledger_code'],
    scopes: [
      {
        scope: 'other-account',
        level: 'MUST',
        title:
          'Historical billing documents for a ledger are imported (201) though another account of the supplier has a ledger of the same code that took its documents',
        endpoints: ['createHistoricalBillingDocuments'],
        async check(ctx) {
          const a = await ctx.given.imported();
          const code = a.payload.ledgers![0].ledger_code!;
          const payload = ctx.given.account();
          payload.ledgers = [{ ...payload.ledgers![0], ledger_code: code }, ...payload.ledgers!.slice(1)];
          const b = await ctx.given.imported(payload);
          const post = (x: ImportedAccount, step: string) =>
            ctx.api.call('createHistoricalBillingDocuments', {
              body: billingDocuments(ctx, x, code, 'PERIOD_BASED'),
              step,
            });
          ctx.expect.status(await post(a, `documents for ledger ${code} of the first account`), 201);
          ctx.expect.status(
            await post(b, `documents for ledger ${code} of the second account`),
            201,
            "a ledger is the account's (§2.3 ledgers of the account payload): the second account's ledger has no finalized billing document (§4.2 once per ledger)",
          );
        },
      },
    ],
    triedBy: ['billing.once-per-ledger.other-ledger'],
  },
  {
    key: 'business',
    spec: '§2.8 (unique by external identifier and key attributes), §4.4',
    quote: 'A business is unique by its external identifier together with key attributes (name, number, type).',
    attributes: ['external_business_identifier', 'company_name', 'company_number', 'business_type'],
    scopes: [
      {
        scope: 'other-identifier',
        level: 'MUST',
        title:
          'A business with the name, number and type of an existing one but another external identifier is created: 201 with another service_business_id',
        needs: ['ongoingSupplier'],
        endpoints: ['createBusiness'],
        async check(ctx) {
          const first = await ctx.given.business(1);
          const payload = ctx.given.businessPayload(1);
          const { company_name, company_number, business_type } = first.payload.business!;
          payload.business = { ...payload.business!, company_name, company_number, business_type };
          const res = await ctx.given.createBusiness(
            payload,
            'the same key attributes under another external identifier',
          );
          ctx.expect.status(
            res,
            201,
            'another external identifier is another key (§2.8: unique by the identifier together with the key attributes), so a new business',
          );
          const body = ctx.expect.body(res, model.BusinessResponse, 'business response');
          ctx.expect.that(
            body.service_business_id !== first.serviceBusinessId,
            `the business under another external identifier got the existing business's id (${first.serviceBusinessId}) (§2.8)`,
            { res, expected: `an id other than ${first.serviceBusinessId}`, actual: body.service_business_id },
          );
          ctx.expect.equal(
            body.external_business_identifier,
            payload.external_business_identifier,
            'the new business is named by its own external identifier (§4.4)',
            res,
          );
        },
      },
    ],
    triedBy: ['business.duplicate.not-created-twice', 'business.same-identifier-other-attributes'],
    open: 'the same external identifier with one key attribute changed is a freedom (docs/freedoms.md §2.8), recorded by the INFO rule business.same-identifier-other-attributes; whether the supplier is part of the key is not stated',
  },
  {
    key: 'contract',
    spec: '§2.3 (business.business_contract_identifier)',
    quote: 'It must equal the `identifier` of a business contract created earlier through the business endpoint',
    attributes: ['identifier'],
    scopes: [],
    triedBy: ['business.link.known-contract', 'business.link.unknown-contract', 'business.create.all-contracts'],
    open: 'the scope of a contract identifier (per business, per supplier, or the whole service) is not shown, so no neighbouring scope is certain to be independent',
  },
];

/** The rules of the table: one per key and neighbouring scope. */
export const keyRules = (table: readonly KeyedStatement[] = KEYS): RuleInput[] =>
  table.flatMap((k) =>
    k.scopes.map(
      (s): RuleInput => ({
        id: `keys.${k.key}.${s.scope}`,
        spec: k.spec,
        level: s.level,
        ...(s.why ? { why: s.why } : {}),
        title: s.title,
        endpoints: s.endpoints,
        ...(s.needs ? { needs: s.needs } : {}),
        check: s.check,
      }),
    ),
  );

export default defineRules('keys', keyRules(), { tags: ['keys'], needs: TO_IMPORT });
