/**
 * Races: N identical requests sent at once must create one thing, as the same N requests sent one
 * after another would (§3, §4.2, §2.8). An implementation whose check and write are not atomic
 * (check-then-act, no unique constraint) imports an account twice, creates a note twice, accepts
 * two billing document imports for one ledger or creates one business twice.
 *
 * A duplicate observed is certain, so the rules are MUST. Its absence is not proof: each rule runs a
 * few rounds within a time budget and records how many rounds it ran. With the §8 concurrency limit
 * on, process requests answered 429 are retried as the spec tells clients to (given.process).
 */
import type { RuleContext } from '../core/engine/context.js';
import { PreconditionError } from '../core/engine/failures.js';
import { defineRules } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import type { HttpResponse } from '../core/http/client.js';
import { model } from '../core/spec/index.js';
import { billingDocuments } from './billing.js';
import { accountKey, readListing, recordsFor, status, transaction } from './support.js';

/** Requests sent together in one round. */
export const RACE_WIDTH = 5;
/** Rounds per rule, and the wall time after which no new round starts. */
export const RACE_ROUNDS = 3;
const RACE_BUDGET_MS = 4_000;

/** Runs `round` up to RACE_ROUNDS times within the budget (a failure stops it), and records the rounds run. */
async function rounds(ctx: RuleContext, what: string, round: (n: number) => Promise<void>): Promise<void> {
  const started = Date.now();
  let n = 0;
  while (n < RACE_ROUNDS && (n === 0 || Date.now() - started < RACE_BUDGET_MS)) await round(++n);
  ctx.observe(
    `${n} round(s) of ${RACE_WIDTH} simultaneous ${what}: no duplicate seen. Absence of a duplicate in a few rounds is not proof that the check and the write are atomic.`,
  );
}

/** Sends `send` RACE_WIDTH times at once. */
const together = <T>(send: (i: number) => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({ length: RACE_WIDTH }, (_, i) => send(i)));

const statusesOf = (responses: HttpResponse[]) => responses.map((r) => r.status).join(', ');

export default defineRules(
  'races',
  [
    {
      id: 'races.process.one-account',
      spec: '§3 (staged → imported; imported → 400), §4.1 process rules 3 and 4',
      level: 'MUST',
      title:
        'Processing one staged account with several simultaneous requests creates one account: one 201, one service_account_number, and status and listing agree',
      endpoints: ['processAccount', 'accountTransferStatus', 'allAccountImportProcesses'],
      async check(ctx) {
        await rounds(ctx, 'process requests for one staged account', async (n) => {
          const a = await ctx.given.staged();
          const responses = await together((i) =>
            ctx.given.process(
              a.supplier,
              a.ext,
              {},
              `round ${n}: process request ${i + 1} of ${RACE_WIDTH}, sent together`,
            ),
          );
          const created = responses.filter((r) => r.status === 201);
          const numbers = new Set(
            created.map((r) =>
              r.isJson ? (r.json() as { service_account_number?: unknown }).service_account_number : undefined,
            ),
          );
          ctx.expect.that(
            created.length <= 1,
            `round ${n}: ${created.length} of ${RACE_WIDTH} simultaneous process requests for ${a.ext} answered 201 (numbers ${JSON.stringify([...numbers])}); one staged account is imported once (§3: an imported account answers 400)`,
            {
              res: created[1],
              expected: 'one 201',
              actual: statusesOf(responses),
            },
          );
          if (created.length === 0) {
            if (responses.some((r) => r.status === 429))
              throw new PreconditionError(
                `round ${n}: the §8 limit still answered 429 after the retry budget (${statusesOf(responses)})`,
              );
            // None was created, so nothing was duplicated; the status must then show no account either.
            const res = await status(ctx, a.supplier, a.ext, `round ${n}: status after no request succeeded`);
            ctx.expect.status(res, 200);
            ctx.expect.equal(
              ctx.expect.body(res, model.AccountTransferStatus, 'status').service_account_number,
              '',
              `round ${n}: no process request answered 201, so no account may exist`,
              res,
            );
            return;
          }
          const number = ctx.expect.body(
            created[0],
            model.ProcessAccountResponse,
            'process response',
          ).service_account_number;
          for (const r of responses) {
            const other =
              r.status === 400 && r.isJson
                ? (r.json() as { service_account_number?: unknown }).service_account_number
                : undefined;
            ctx.expect.that(
              other === undefined || other === number,
              `round ${n}: a simultaneous request was told the account was imported as ${JSON.stringify(other)}, but the 201 created ${number} (§4.1 process rule 3)`,
              { res: r, expected: number, actual: other },
            );
          }
          const res = await status(ctx, a.supplier, a.ext, `round ${n}: status afterwards`);
          ctx.expect.status(res, 200);
          const body = ctx.expect.body(res, model.AccountTransferStatus, 'status');
          ctx.expect.equal(
            [body.status, body.service_account_number],
            ['COMPLETED', number],
            `round ${n}: the status names the one account created`,
            res,
          );
          const read = await readListing(ctx, 'all', a.supplier, `round ${n}: all listing afterwards`);
          const all = read.first;
          ctx.expect.status(all, 200);
          ctx.expect.body(all, model.AllAccountImportProcesses, 'all listing');
          const records = recordsFor(read.items, a.ext);
          ctx.expect.equal(
            records.map((r) => r.service_account_number),
            [number],
            `round ${n}: the all listing shows ${a.ext} once, with the number created`,
            all,
          );
        });
      },
    },
    {
      id: 'races.notes.one-note',
      spec: '§4.2 notes rule 2',
      level: 'MUST',
      title:
        'The same note sent in several simultaneous requests is created once: one NOTE_CREATION_SUCCESS, the others NOTE_ALREADY_EXISTS',
      endpoints: ['createNotes'],
      async check(ctx) {
        const a = await ctx.given.imported();
        await rounds(ctx, 'notes requests with the same note', async (n) => {
          const note = { body: ctx.ids.noteBody(`race ${n}`), created_at: `2023-0${n}-04T05:06:07Z` };
          const responses = await together((i) =>
            ctx.api.call('createNotes', {
              body: { ...accountKey(a.supplier, a.ext), notes: [note] },
              step: `round ${n}: request ${i + 1} of ${RACE_WIDTH}, sent together`,
            }),
          );
          const statuses: string[] = [];
          for (const r of responses) {
            ctx.expect.status(r, 201, `round ${n}: a notes request`);
            statuses.push(...ctx.expect.body(r, model.NotesResponse, 'notes response').map((x) => x.status));
          }
          const created = statuses.filter((s) => s === 'NOTE_CREATION_SUCCESS').length;
          ctx.expect.equal(
            created,
            1,
            `round ${n}: NOTE_CREATION_SUCCESS results for one note sent ${RACE_WIDTH} times at once (statuses ${statuses.join(', ')})`,
            responses[0],
          );
        });
      },
    },
    {
      id: 'races.billing.one-import',
      spec: '§4.2 historical billing documents (usable once per ledger), §8',
      level: 'MUST',
      title:
        'Several simultaneous historical billing document imports for one ledger: exactly one is accepted (201), the others are refused',
      endpoints: ['createHistoricalBillingDocuments'],
      async check(ctx) {
        await rounds(ctx, 'billing document imports for one ledger', async (n) => {
          const a = await ctx.given.imported();
          const ledger = a.payload.ledgers![0].ledger_code!;
          const responses = await together((i) =>
            ctx.api.call('createHistoricalBillingDocuments', {
              body: billingDocuments(ctx, a, ledger, 'ITEM_BASED'),
              step: `round ${n}: import ${i + 1} of ${RACE_WIDTH} for ledger ${ledger}, sent together`,
            }),
          );
          const accepted = responses.filter((r) => r.status === 201);
          ctx.expect.that(
            accepted.length <= 1,
            `round ${n}: ${accepted.length} of ${RACE_WIDTH} simultaneous imports for ledger ${ledger} were accepted (${statusesOf(responses)}); the import is usable once per ledger`,
            {
              res: accepted[1],
              expected: 'one 201',
              actual: statusesOf(responses),
            },
          );
          ctx.expect.equal(
            accepted.length,
            1,
            `round ${n}: one of the simultaneous imports for a ledger without documents is accepted (${statusesOf(responses)})`,
            responses[0],
          );
          for (const r of responses)
            if (r.status !== 201) ctx.expect.refused(r, `round ${n}: a second import for ledger ${ledger}`);
        });
      },
    },
    {
      id: 'races.business.one-business',
      spec: '§2.8 (a business is unique by its external identifier together with key attributes), §4.4',
      level: 'MUST',
      title:
        'The same business sent in several simultaneous requests is created once: every success names one service_business_id',
      needs: ['ongoingSupplier'],
      endpoints: ['createBusiness'],
      async check(ctx) {
        await rounds(ctx, 'requests creating the same business', async (n) => {
          const payload = ctx.given.businessPayload(2);
          const responses = await together((i) =>
            ctx.api.call('createBusiness', {
              body: payload,
              step: `round ${n}: request ${i + 1} of ${RACE_WIDTH}, sent together`,
            }),
          );
          const succeeded = responses.filter((r) => r.status >= 200 && r.status < 300);
          ctx.expect.that(
            succeeded.some((r) => r.status === 201),
            `round ${n}: one of the simultaneous requests creates the business (201), got ${statusesOf(responses)}`,
            { res: responses[0] },
          );
          const ids = new Set(
            succeeded.map((r) =>
              r.isJson ? (r.json() as { service_business_id?: unknown }).service_business_id : undefined,
            ),
          );
          ctx.expect.that(
            ids.size === 1,
            `round ${n}: one business sent ${RACE_WIDTH} times at once was created as ${ids.size} businesses (service_business_id ${JSON.stringify([...ids])}); a business is unique by its external identifier and key attributes (§2.8)`,
            {
              res: succeeded[1],
              expected: 'one service_business_id',
              actual: [...ids],
            },
          );
        });
      },
    },
    {
      id: 'races.stage.one-first-staging',
      spec: '§3 (none → staged: 201; staged → stage again: 200), §4.1',
      level: 'MUST',
      title:
        'Simultaneous first stagings of one account: exactly one 201, the others 200 (or refused), and one import process in the listings',
      endpoints: ['stageAccount', 'allAccountImportProcesses', 'pendingAccountImportProcesses'],
      async check(ctx) {
        await rounds(ctx, 'first stagings of one account', async (n) => {
          const payload = ctx.given.account();
          const { import_supplier: supplier, external_account_number: ext } = payload;
          const responses = await together((i) =>
            ctx.api.call('stageAccount', {
              body: payload,
              step: `round ${n}: staging ${i + 1} of ${RACE_WIDTH}, sent together`,
            }),
          );
          const created = responses.filter((r) => r.status === 201);
          ctx.expect.equal(
            created.length,
            1,
            `round ${n}: 201 answers to ${RACE_WIDTH} simultaneous first stagings of ${ext} (${statusesOf(responses)}); only the first staging creates the import process (§3)`,
            created[1] ?? responses[0],
          );
          for (const r of responses)
            if (r.status !== 201 && r.status !== 200) ctx.expect.refused(r, `round ${n}: a simultaneous staging`);
          for (const which of ['all', 'pending'] as const) {
            const read = await readListing(ctx, which, supplier, `round ${n}: ${which} listing afterwards`);
            ctx.expect.equal(
              recordsFor(read.items, ext).length,
              1,
              `round ${n}: the ${which} listing shows one import process for ${ext}`,
              read.first,
            );
          }
        });
      },
    },
    {
      id: 'races.transactions.one-transaction',
      spec: '§4.2 transactions (check_previously_added, TRANSACTION_ALREADY_EXISTS)',
      level: 'MUST',
      title:
        'The same transaction id sent in several simultaneous requests is added once: one TRANSACTION_ADDED_TO_ACCOUNT, the others TRANSACTION_ALREADY_EXISTS',
      endpoints: ['createTransactions'],
      async check(ctx) {
        const a = await ctx.given.imported();
        await rounds(ctx, 'transactions requests with the same transaction id', async (n) => {
          const tx = transaction(ctx);
          const responses = await together((i) =>
            ctx.api.call('createTransactions', {
              body: { ...accountKey(a.supplier, a.ext), transactions: [tx] },
              step: `round ${n}: request ${i + 1} of ${RACE_WIDTH}, sent together`,
            }),
          );
          const statuses: string[] = [];
          for (const r of responses) {
            ctx.expect.status(r, 201, `round ${n}: a transactions request`);
            statuses.push(
              ...ctx.expect.body(r, model.TransactionsResponse, 'transactions response').results.map((x) => x.status),
            );
          }
          ctx.expect.equal(
            statuses.filter((s) => s === 'TRANSACTION_ADDED_TO_ACCOUNT').length,
            1,
            `round ${n}: TRANSACTION_ADDED_TO_ACCOUNT results for one transaction sent ${RACE_WIDTH} times at once (statuses ${statuses.join(', ')})`,
            responses[0],
          );
        });
      },
    },
  ],
  { tags: ['races'], needs: TO_IMPORT },
);
