/**
 * Races: N identical requests sent at once must create one thing, as the same N requests sent one
 * after another would (§3, §4.2, §2.8). An implementation whose check and write are not atomic
 * (check-then-act, no unique constraint) imports an account twice, creates a note twice, accepts
 * two billing document imports for one ledger or creates one business twice.
 *
 * Conflicting requests are judged by what the interface lets a client read back afterwards (status,
 * the all listing, §4.2 notes rule 2 dedup probes), not only by the answers: a re-stage sent with
 * the process (the account holds one payload whole, the first if the re-stage was refused), a dry
 * run sent with a real process (the account ends imported once), payment instructions for two
 * accounts at once (§2.7 says nothing of duplicates, so only the documented answers and the accounts'
 * state are judged) and one note body in two requests. Each order the spec allows is accepted.
 *
 * Process requests that must be on the wire together take their §8 pacing slots as one group
 * (`ctx.api.holdingSlots`) and are then sent at once: taken one at a time, the slots the other rules
 * share would let them through one after another, and a busy run would never race them. A 429 is then
 * retried.
 *
 * A duplicate observed is certain, so the rules are MUST. Its absence is not proof: each rule runs a
 * few rounds within a time budget and records how many rounds it ran. With the §8 concurrency limit
 * on, process requests answered 429 are retried as the spec tells clients to (`orRetried`).
 */
import type { RuleContext } from '../core/engine/context.js';
import { PreconditionError } from '../core/engine/failures.js';
import { defineRules } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import type { HttpResponse } from '../core/http/client.js';
import { model } from '../core/spec/index.js';
import { billingDocuments } from './billing.js';
import { alignNotes } from './notes.js';
import { accountKey, expectCompleted, readListing, recordsFor, status, transaction } from './support.js';

/** Requests sent together in one round. */
export const RACE_WIDTH = 5;
/** Rounds per rule, and the wall time after which no new round starts. */
export const RACE_ROUNDS = 3;
const RACE_BUDGET_MS = 4_000;

/** Runs `round` up to RACE_ROUNDS times within the budget (a failure stops it), and records the rounds run. */
export async function rounds(ctx: RuleContext, what: string, round: (n: number) => Promise<void>): Promise<void> {
  const started = Date.now();
  let n = 0;
  while (n < RACE_ROUNDS && (n === 0 || Date.now() - started < RACE_BUDGET_MS)) await round(++n);
  ctx.observe(
    `${n} round(s) of ${RACE_WIDTH} simultaneous ${what}: no violation seen. Absence of a violation in a few rounds is not proof that the check and the write are atomic.`,
  );
}

/** Sends `send` `width` times at once (RACE_WIDTH unless the §8 limit allows fewer in flight). */
export const together = <T>(send: (i: number) => Promise<T>, width = RACE_WIDTH): Promise<T[]> =>
  Promise.all(Array.from({ length: width }, (_, i) => send(i)));

/** When the §8 limit lets fewer process requests be in flight than a race sends, the rule says so. */
function narrowedBy(ctx: RuleContext, width: number, wanted: number): void {
  if (width < wanted)
    ctx.observe(
      width < 2
        ? 'The configured §8 limit lets one process request be in flight at a time, and the run keeps to it: no two were sent together, so no race on process was tried.'
        : `The configured §8 limit lets ${width} process requests be in flight at once, and the run keeps to it: rounds sent ${width} together, not ${wanted}.`,
    );
}

const statusesOf = (responses: HttpResponse[]) => responses.map((r) => r.status).join(', ');

/** A 429 left after the retry budget says nothing about the race: the round is not judged. */
function notLimited(responses: HttpResponse[], n: number): void {
  if (responses.some((r) => r.status === 429))
    throw new PreconditionError(
      `round ${n}: the §8 limit still answered 429 after the retry budget (${statusesOf(responses)})`,
    );
}

/**
 * A process request sent at once, without waiting for a §8 pacing slot (a race needs it on the wire
 * together with its rival); a 429 is then retried as given.process does (`orRetried`).
 */
async function processRaw(
  ctx: RuleContext,
  supplier: string,
  ext: string,
  extra: Record<string, unknown>,
  step: string,
) {
  const body = {
    external_account_number: ext,
    import_supplier_code: supplier,
    operations_team_name: ctx.preconditions.operationsTeam,
    ...extra,
  };
  return (await ctx.api.callPaced('processAccount', { body, step, pacing: 'raw' })).res;
}

/** The answer to a raw process request, or, when it was a §8 429, the answer once retried (not judged if still 429). */
async function orRetried(
  ctx: RuleContext,
  res: HttpResponse,
  supplier: string,
  ext: string,
  extra: Record<string, unknown>,
  n: number,
): Promise<HttpResponse> {
  if (res.status !== 429) return res;
  const again = await ctx.given.process(supplier, ext, extra, `round ${n}: the process again after a 429 (§8)`);
  notLimited([again], n);
  return again;
}

/**
 * The status names one created account, and the all listing shows it once with that number (§4.3):
 * what the interface lets a client read after a race on process.
 */
async function importedOnce(ctx: RuleContext, supplier: string, ext: string, number: string, n: number) {
  await expectCompleted(
    ctx,
    { supplier, ext, number },
    `round ${n}: status afterwards`,
    `round ${n}: the status names the one account created`,
  );
  const read = await readListing(ctx, 'all', supplier, `round ${n}: all listing afterwards`);
  ctx.expect.status(read.first, 200);
  ctx.expect.body(read.first, model.AllAccountImportProcesses, 'all listing');
  ctx.expect.equal(
    recordsFor(read.items, ext).map((r) => r.service_account_number),
    [number],
    `round ${n}: the all listing shows ${ext} once, with the number created`,
    read.first,
  );
}

/**
 * §4.2 notes rule 2 as a probe: posts body-only notes to an imported account and says, per body,
 * whether a note with that body was already on it (NOTE_ALREADY_EXISTS).
 */
async function notesExist(
  ctx: RuleContext,
  supplier: string,
  ext: string,
  bodies: string[],
  step: string,
): Promise<{ exists: boolean[]; res: HttpResponse }> {
  const sent = bodies.map((body) => ({ body }));
  const res = await ctx.api.call('createNotes', { body: { ...accountKey(supplier, ext), notes: sent }, step });
  ctx.expect.status(res, 201, step);
  const results = alignNotes(sent, ctx.expect.body(res, model.NotesResponse, 'notes response'));
  ctx.expect.equal(results.length, bodies.length, `${step}: one result per note`, res);
  return { exists: results.map((r) => r.status === 'NOTE_ALREADY_EXISTS'), res };
}

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
          const sent = await ctx.api.holdingSlots('processAccount', RACE_WIDTH, (held) =>
            together(
              (i) =>
                processRaw(
                  ctx,
                  a.supplier,
                  a.ext,
                  {},
                  `round ${n}: process request ${i + 1} of ${held}, sent together`,
                ),
              held,
            ),
          );
          // As many as the §8 limit lets be in flight at once.
          const width = sent.length;
          if (n === 1) narrowedBy(ctx, width, RACE_WIDTH);
          const responses = await Promise.all(sent.map((r) => orRetried(ctx, r, a.supplier, a.ext, {}, n)));
          const created = responses.filter((r) => r.status === 201);
          const numbers = new Set(
            created.map((r) =>
              r.isJson ? (r.json() as { service_account_number?: unknown }).service_account_number : undefined,
            ),
          );
          ctx.expect.that(
            created.length <= 1,
            `round ${n}: ${created.length} of ${width} simultaneous process requests for ${a.ext} answered 201 (numbers ${JSON.stringify([...numbers])}); one staged account is imported once (§3: an imported account answers 400)`,
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
          await importedOnce(ctx, a.supplier, a.ext, number, n);
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
            for (const x of ctx.expect.body(r, model.NotesResponse, 'notes response')) statuses.push(x.status);
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
            for (const x of ctx.expect.body(r, model.TransactionsResponse, 'transactions response').results)
              statuses.push(x.status);
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
    {
      id: 'races.stage.during-process',
      spec: '§3 (staged → stage again: data replaced; staged → process: imported; imported → stage: 400), §1, §4.2 notes rule 2',
      level: 'MUST',
      title:
        'A re-stage sent together with the process of a staged account: one account is created, holding one of the two payloads whole (never both, never neither), the first when the re-stage was refused',
      endpoints: [
        'stageAccount',
        'processAccount',
        'createNotes',
        'accountTransferStatus',
        'allAccountImportProcesses',
      ],
      async check(ctx) {
        let restagedFirst = 0;
        let refusedAfter = 0;
        await rounds(ctx, 'process requests each sent together with a re-stage of the account', async (n) => {
          // The two payloads differ in one note each: §4.2 notes rule 2 tells which one the account holds.
          const first = ctx.given.account();
          const oldNote = ctx.ids.noteBody(`round ${n}: first staging`);
          const newNote = ctx.ids.noteBody(`round ${n}: re-stage`);
          first.notes = [{ body: oldNote }];
          const a = await ctx.given.staged(first);
          const second = { ...first, notes: [{ body: newNote }] };
          const [sentOnce, restaged] = await ctx.api.holdingSlots('processAccount', 1, () =>
            Promise.all([
              processRaw(ctx, a.supplier, a.ext, {}, `round ${n}: process, sent together with a re-stage`),
              ctx.api.call('stageAccount', {
                body: second,
                step: `round ${n}: re-stage, sent together with the process`,
              }),
            ]),
          );
          const processed = await orRetried(ctx, sentOnce, a.supplier, a.ext, {}, n);
          // §3: staged → process → 201; the re-stage is an update (200) or, after the import, refused.
          ctx.expect.status(processed, 201, `round ${n}: the process of a staged account (§3)`);
          const number = ctx.expect.body(
            processed,
            model.ProcessAccountResponse,
            'process response',
          ).service_account_number;
          ctx.expect.that(
            restaged.status === 200 || (restaged.status >= 400 && restaged.status < 500),
            `round ${n}: a re-stage of an account already staged answered ${restaged.status}; §3 allows 200 (staged, data replaced) or a refusal (imported)`,
            { res: restaged, expected: '200 or 4xx', actual: restaged.status },
          );
          await importedOnce(ctx, a.supplier, a.ext, number, n);
          const probe = await notesExist(
            ctx,
            a.supplier,
            a.ext,
            [oldNote, newNote],
            `round ${n}: which payload's note the account holds`,
          );
          const [hasOld, hasNew] = probe.exists;
          ctx.expect.that(
            hasOld !== hasNew,
            `round ${n}: the account created ${hasOld ? 'holds the notes of both payloads (mixed)' : 'holds the note of neither payload (lost)'}; it is created from the staged data, one payload or the other (§3, §1)`,
            { res: probe.res, expected: 'the note of exactly one payload', actual: { first: hasOld, second: hasNew } },
          );
          if (restaged.status !== 200) {
            refusedAfter++;
            ctx.expect.that(
              hasOld,
              `round ${n}: the re-stage was refused (${restaged.status}), yet the account holds its data; a refused staging replaces nothing (§3, §7.2)`,
              { res: probe.res, expected: 'the first payload', actual: 'the second payload' },
            );
          } else if (hasNew) restagedFirst++;
          else
            ctx.observe(
              `round ${n}: the re-stage answered 200 while the account was being processed, and the account holds the first payload; the state during IN_PROGRESS is not shown (§3), so this is recorded, not failed.`,
            );
        });
        ctx.observe(`orders seen: re-stage before the process ${restagedFirst}, refused after it ${refusedAfter}`);
      },
    },
    {
      id: 'races.process.dry-run-during-process',
      spec: '§4.1 process rules 2 and 3, §3 (staged → imported once; dry run: nothing created)',
      level: 'MUST',
      title:
        'A dry run sent together with a real process of one staged account: the dry run creates nothing and undoes nothing, and the account ends imported once',
      endpoints: ['processAccount', 'accountTransferStatus', 'allAccountImportProcesses'],
      async check(ctx) {
        await rounds(ctx, 'dry runs each sent together with a real process', async (n) => {
          const a = await ctx.given.staged();
          const [dryOnce, realOnce] = await ctx.api.holdingSlots('processAccount', 2, async (held) => {
            if (n === 1) narrowedBy(ctx, held, 2);
            const dryRun = () =>
              processRaw(
                ctx,
                a.supplier,
                a.ext,
                { dry_run: true },
                `round ${n}: a dry run, sent together with a real process`,
              );
            const realRun = () =>
              processRaw(ctx, a.supplier, a.ext, {}, `round ${n}: a real process, sent together with a dry run`);
            // One slot (a §8 limit of 1): one after the other, so the run keeps to the limit.
            return held >= 2 ? Promise.all([dryRun(), realRun()]) : [await dryRun(), await realRun()];
          });
          const [dry, real] = await Promise.all([
            orRetried(ctx, dryOnce, a.supplier, a.ext, { dry_run: true }, n),
            orRetried(ctx, realOnce, a.supplier, a.ext, {}, n),
          ]);
          notLimited([dry, real], n);
          // §4.1 process rule 2: a dry run is rolled back — it never answers 201.
          ctx.expect.that(
            dry.status !== 201 && dry.status >= 400 && dry.status < 500,
            `round ${n}: a dry run answered ${dry.status}; a dry run creates nothing and answers 400 (§4.1 process rule 2)`,
            { res: dry, expected: '400', actual: dry.status },
          );
          let created = real;
          if (real.status !== 201) {
            // The spec does not say what a process meets while a dry run is in progress; once both
            // have answered, the dry run must have left the account staged: a real process imports it.
            ctx.expect.refused(real, `round ${n}: a real process sent together with a dry run`);
            created = await ctx.given.process(
              a.supplier,
              a.ext,
              {},
              `round ${n}: the real process again, after the dry run answered`,
            );
            notLimited([created], n);
            ctx.expect.status(
              created,
              201,
              `round ${n}: after a dry run the account is still staged, so a real process imports it (§3)`,
            );
          }
          const number = ctx.expect.body(
            created,
            model.ProcessAccountResponse,
            'process response',
          ).service_account_number;
          const told =
            dry.status === 400 && dry.isJson
              ? (dry.json() as { service_account_number?: unknown }).service_account_number
              : undefined;
          ctx.expect.that(
            told === undefined || told === number,
            `round ${n}: the dry run was told the account was imported as ${JSON.stringify(told)}, but the real process created ${number} (§4.1 process rule 3)`,
            { res: dry, expected: number, actual: told },
          );
          await importedOnce(ctx, a.supplier, a.ext, number, n);
        });
      },
    },
    {
      id: 'races.payments.instructions-at-once',
      spec: '§4.2 payment instruction (201 {service_account_number, reference}), §2.7, §7.2',
      level: 'MUST',
      title:
        'Payment instructions for two accounts sent at once: each is answered with a documented status, each 201 names its own account and reference, and both accounts stay as they were',
      needs: [...TO_IMPORT, 'paymentInstruction'],
      endpoints: ['createPaymentInstruction', 'accountTransferStatus'],
      async check(ctx) {
        // §2.7 and §4.2 say nothing about an instruction sent twice: duplicates may be stored or refused.
        const { vendor, type } = ctx.preconditions.paymentInstruction;
        const accounts = [await ctx.given.imported(), await ctx.given.imported()];
        await rounds(ctx, 'payment instructions for two accounts', async (n) => {
          const sent = Array.from({ length: RACE_WIDTH }, (_, i) => ({
            account: accounts[i % 2],
            reference: ctx.preconditions.nextValidPaymentReference(),
          }));
          const responses = await Promise.all(
            sent.map(({ account, reference }, i) =>
              ctx.api.call('createPaymentInstruction', {
                body: ctx.preconditions.payloads.request('payment_instruction', ctx.ids, {
                  ...accountKey(account.supplier, account.ext),
                  vendor,
                  reference,
                  type,
                }),
                step: `round ${n}: instruction ${i + 1} of ${RACE_WIDTH} (account ${account.ext}), sent together`,
              }),
            ),
          );
          responses.forEach((r, i) => {
            const { account, reference } = sent[i];
            // §7.2: 201, or 400 / 500 for trouble with the vendor; nothing else is documented here.
            ctx.expect.status(r, [201, 400, 500], `round ${n}: instruction ${i + 1}`);
            if (r.status !== 201) return;
            const body = ctx.expect.body(r, model.PaymentInstructionResponse, 'payment instruction response');
            ctx.expect.equal(
              [body.service_account_number, body.reference],
              [account.number, reference],
              `round ${n}: instruction ${i + 1} was for account ${account.number}; a simultaneous request's account or reference came back`,
              r,
            );
          });
          for (const account of accounts) {
            await expectCompleted(
              ctx,
              account,
              `round ${n}: status of ${account.ext} afterwards`,
              `round ${n}: payment instructions leave the account as it was`,
            );
          }
        });
      },
    },
    {
      id: 'races.notes.same-body-two-requests',
      spec: '§4.2 notes rule 2 (same body; created_at compared only when given)',
      level: 'MUST',
      title:
        'A note without created_at sent in two simultaneous requests is created once: one NOTE_CREATION_SUCCESS across both, and a later request says NOTE_ALREADY_EXISTS',
      endpoints: ['createNotes'],
      async check(ctx) {
        const a = await ctx.given.imported();
        await rounds(ctx, 'pairs of requests with one note body (no created_at)', async (n) => {
          const note = { body: ctx.ids.noteBody(`same body, round ${n}`) };
          const responses = await Promise.all(
            [1, 2].map((i) =>
              ctx.api.call('createNotes', {
                body: { ...accountKey(a.supplier, a.ext), notes: [note] },
                step: `round ${n}: request ${i} of 2, sent together`,
              }),
            ),
          );
          const statuses: string[] = [];
          for (const r of responses) {
            ctx.expect.status(r, 201, `round ${n}: a notes request`);
            for (const x of ctx.expect.body(r, model.NotesResponse, 'notes response')) statuses.push(x.status);
          }
          ctx.expect.equal(
            statuses.filter((s) => s === 'NOTE_CREATION_SUCCESS').length,
            1,
            `round ${n}: NOTE_CREATION_SUCCESS results for one note body sent in two requests at once (statuses ${statuses.join(', ')})`,
            responses[0],
          );
          const probe = await notesExist(ctx, a.supplier, a.ext, [note.body], `round ${n}: the same note once more`);
          ctx.expect.equal(probe.exists, [true], `round ${n}: the note is on the account afterwards`, probe.res);
        });
      },
    },
  ],
  { tags: ['races'], needs: TO_IMPORT },
);
