/**
 * Race faults: an implementation whose check and write are not atomic (check-then-act, no unique
 * constraint). Each wrapper reads the state the faithful handler would check, yields to the event
 * loop for a while (as a database round trip would), and then lets the faithful handler decide on
 * the state it read before the wait — so requests that arrive together all pass the check. The
 * faithful handlers themselves stay atomic: they check and write without an `await` in between.
 */
import { delay } from '../clock.js';
import type { Reply } from '../reply.js';
import type { Account, Business, ImportProcess } from '../store.js';
import { body, fault } from './helpers.js';
import type { FaultDefinition } from './types.js';

/** The gap between the check and the write: long enough that simultaneous requests overlap. */
const CHECK_TO_WRITE_MS = 30;

type AccountKey = { import_supplier?: string; external_account_number?: string };

/** races.payment-instruction-crossed: the one slot per server that concurrent requests overwrite. */
const sharedSlot = new WeakMap<object, AccountKey>();
const accountKeyOf = (k: AccountKey) => ({
  import_supplier: k.import_supplier,
  external_account_number: k.external_account_number,
});

/**
 * The notes duplicate check of a non-atomic implementation: the account's notes are read, the wait
 * passes, and the faithful handler then checks against the notes as they were before the wait (those
 * written meanwhile are hidden from it, and put back after).
 */
async function checkNotesBeforeTheWait(
  env: { store: { importedAccount(supplier: string, ext: string): Account | undefined } },
  key: AccountKey,
  write: () => Reply | Promise<Reply>,
): Promise<Reply> {
  const account = () => env.store.importedAccount(key.import_supplier ?? '', key.external_account_number ?? '');
  const seen = account()?.notes.length;
  await delay(CHECK_TO_WRITE_MS);
  const a = account();
  if (!a || seen === undefined) return write();
  const later = a.notes.splice(seen);
  try {
    return await write();
  } finally {
    // Put back in place (the store holds this array), one at a time: a spread of a long list overflows the stack.
    const written = a.notes.splice(seen);
    for (const note of [...later, ...written]) a.notes.push(note);
  }
}

export const raceFaults: FaultDefinition[] = [
  fault(
    {
      id: 'races.process-twice',
      spec: '§3 (staged → imported once; imported → 400), §4.1 process rule 3',
      subtle: true,
      description:
        'Process checks that the account is not imported, waits, then creates it: simultaneous requests import one account twice.',
    },
    {
      around: {
        processAccount: async (req, env, next) => {
          const b = body<{ import_supplier_code?: string; external_account_number?: string }>(req.body);
          const read = (): ImportProcess | undefined =>
            env.store.process(b.import_supplier_code ?? '', b.external_account_number ?? '');
          const before = read();
          const seen = before ? { account: before.account, inProgress: before.inProgress } : undefined;
          await delay(CHECK_TO_WRITE_MS);
          const process = read();
          // Decide on what was read before the wait: the account was neither created nor in progress then.
          if (process && seen && !seen.account && !seen.inProgress) {
            process.account = null;
            process.inProgress = false;
          }
          return next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'races.note-twice',
      spec: '§4.2 notes rule 2',
      subtle: true,
      description:
        'Notes are checked for duplicates, then written after a wait: the same note sent twice at once is created twice.',
    },
    {
      around: {
        createNotes: async (req, env, next) => {
          const b = body<AccountKey>(req.body);
          return checkNotesBeforeTheWait(env, b, () => next(req));
        },
      },
    },
  ),
  fault(
    {
      id: 'races.billing-twice',
      spec: '§4.2 historical billing documents (usable once per ledger), §8',
      subtle: true,
      description:
        'The ledger is checked for a finalized billing document, then written after a wait: two imports sent at once are both accepted.',
    },
    {
      around: {
        createHistoricalBillingDocuments: async (req, env, next) => {
          const b = body<AccountKey & { ledger_code?: string }>(req.body);
          const ledger = () =>
            env.store
              .importedAccount(b.import_supplier ?? '', b.external_account_number ?? '')
              ?.ledgers.get(b.ledger_code ?? '');
          const seen = ledger()?.hasFinalizedBillingDocument;
          await delay(CHECK_TO_WRITE_MS);
          const l = ledger();
          if (l && seen === false) l.hasFinalizedBillingDocument = false;
          return next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'races.business-twice',
      spec: '§2.8 (a business is unique by its external identifier and key attributes)',
      subtle: true,
      description:
        'A business is checked for uniqueness, then created after a wait: the same business sent twice at once is created twice.',
    },
    {
      around: {
        createBusiness: async (req, env, next) => {
          const { store } = env;
          const seenBusinesses = store.businesses.length;
          const seenContracts = new Set(store.contracts.keys());
          await delay(CHECK_TO_WRITE_MS);
          // The uniqueness checks run against the businesses and contracts as they were before the wait.
          const laterBusinesses = store.businesses.splice(seenBusinesses);
          const laterContracts = [...store.contracts].filter(([id]) => !seenContracts.has(id));
          for (const [id] of laterContracts) store.contracts.delete(id);
          let r: Reply | undefined;
          try {
            r = await next(req);
          } finally {
            const created: Business[] = store.businesses.splice(seenBusinesses);
            for (const business of [...laterBusinesses, ...created]) store.businesses.push(business);
            for (const [id, business] of laterContracts)
              if (!store.contracts.has(id)) store.contracts.set(id, business);
            // A database hands the second row its own id, as the store's numbering would not here.
            for (const business of created) {
              if (store.businesses.some((other) => other !== business && other.id === business.id)) {
                business.id = store.businesses.reduce((top, x) => Math.max(top, x.id), 0) + 1;
                if (r?.status === 201) r = { ...r, body: { ...(r.body as object), service_business_id: business.id } };
              }
            }
          }
          return r!;
        },
      },
    },
  ),
  fault(
    {
      id: 'races.first-staging-twice',
      spec: '§3 (none → staged: 201; staged → stage again: 200)',
      subtle: true,
      description:
        'Staging looks the import process up, waits, then creates it: simultaneous first stagings of one account each create a process (several 201s).',
    },
    {
      around: {
        stageAccount: async (req, env, next) => {
          const b = body<AccountKey>(req.body);
          const read = () => env.store.process(b.import_supplier ?? '', b.external_account_number ?? '');
          const seen = read() !== undefined;
          await delay(CHECK_TO_WRITE_MS);
          const now = read();
          // Decide on what was read before the wait: no process existed then, so a new one is created.
          if (!seen && now && !now.account)
            for (const [k, p] of env.store.processes) if (p === now) env.store.processes.delete(k);
          return next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'races.transaction-twice',
      spec: '§4.2 transactions (check_previously_added: TRANSACTION_ALREADY_EXISTS)',
      subtle: true,
      description:
        'Transaction ids are checked, then written after a wait: the same transaction sent in two requests at once is added twice.',
    },
    {
      around: {
        createTransactions: async (req, env, next) => {
          const b = body<AccountKey & { transactions?: { transaction_id?: string }[] }>(req.body);
          const account = () => env.store.importedAccount(b.import_supplier ?? '', b.external_account_number ?? '');
          const ids = (Array.isArray(b.transactions) ? b.transactions : []).map((t) => t?.transaction_id ?? '');
          const before = account();
          const had = new Set(ids.filter((id) => before?.transactionIds.has(id)));
          await delay(CHECK_TO_WRITE_MS);
          const a = account();
          if (!a) return next(req);
          // The duplicate check runs against the ids as they were before the wait.
          const later = ids.filter((id) => !had.has(id) && a.transactionIds.has(id));
          for (const id of later) a.transactionIds.delete(id);
          try {
            return await next(req);
          } finally {
            for (const id of later) a.transactionIds.add(id);
          }
        },
      },
    },
  ),
  // Conflicting requests at other moments, not only identical bursts: each fault sits where no
  // earlier rule looked.
  fault(
    {
      id: 'races.process-mixes-restaged-data',
      spec: '§3 (staged → stage again: data replaced; staged → process: imported), §1',
      subtle: true,
      description:
        'Process copies the staged notes it reads first, waits, then builds the account from the staged data as it is then: a re-stage in between gives an account with the notes of both payloads.',
    },
    {
      around: {
        processAccount: async (req, env, next) => {
          const b = body<{ import_supplier_code?: string; external_account_number?: string; dry_run?: unknown }>(
            req.body,
          );
          const read = () => env.store.process(b.import_supplier_code ?? '', b.external_account_number ?? '');
          const before = read();
          const notes = before && !before.account && !before.inProgress ? before.payload.notes : undefined;
          await delay(CHECK_TO_WRITE_MS);
          const r = await next(req);
          const account = read()?.account;
          // The notes read before the wait are imported in a step of their own.
          if (r.status === 201 && account && notes && read()?.payload.notes !== notes)
            for (const n of notes)
              account.notes.push({
                body: n.body ?? null,
                createdAt: n.created_at ?? account.createdAt,
                documentPaths: (n.document_paths ?? []).map((d) => d.document_path ?? ''),
                isPinned: n.is_pinned ?? false,
              });
          return r;
        },
      },
    },
  ),
  fault(
    {
      id: 'races.dry-run-undoes-import',
      spec: '§4.1 process rule 2 (a dry run is rolled back), §3 (staged → imported)',
      subtle: true,
      description:
        'A dry run rolls back by restoring the import process as it read it before a wait: a real process that finished meanwhile is undone.',
    },
    {
      around: {
        processAccount: async (req, env, next) => {
          const b = body<{ import_supplier_code?: string; external_account_number?: string; dry_run?: unknown }>(
            req.body,
          );
          if (b.dry_run !== true) return next(req);
          const read = () => env.store.process(b.import_supplier_code ?? '', b.external_account_number ?? '');
          const seen = read() ? { account: read()!.account } : undefined;
          await delay(CHECK_TO_WRITE_MS);
          const r = await next(req);
          const now = read();
          // The roll-back writes back what was read before the wait.
          if (now && seen && seen.account === null) now.account = null;
          return r;
        },
      },
    },
  ),
  fault(
    {
      id: 'races.payment-instruction-crossed',
      spec: '§4.2 payment instruction (201 {service_account_number, reference}), §2.7',
      subtle: true,
      description:
        'The account a payment instruction is for is kept in one slot shared by requests while the vendor is asked: simultaneous instructions are answered with (and stored on) the account of another request.',
    },
    {
      around: {
        createPaymentInstruction: async (req, env, next) => {
          const b = body<AccountKey>(req.body);
          sharedSlot.set(env.store, b);
          await delay(CHECK_TO_WRITE_MS);
          const slot = sharedSlot.get(env.store) ?? b;
          return next({ ...req, body: { ...(req.body as object), ...accountKeyOf(slot) } });
        },
      },
    },
  ),
  fault(
    {
      id: 'races.note-without-created-at-twice',
      spec: '§4.2 notes rule 2 (same body; created_at only when given)',
      subtle: true,
      description:
        'Notes sent without created_at are checked for a duplicate body, then written after a wait: the same body sent in two requests at once is created twice (notes with created_at stay atomic).',
    },
    {
      around: {
        createNotes: async (req, env, next) => {
          const b = body<AccountKey & { notes?: unknown }>(req.body);
          const notes = Array.isArray(b.notes) ? b.notes : [];
          if (!notes.length || notes.some((n) => n && typeof n === 'object' && 'created_at' in n)) return next(req);
          return checkNotesBeforeTheWait(env, b, () => next(req));
        },
      },
    },
  ),
];
