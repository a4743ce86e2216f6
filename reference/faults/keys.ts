/**
 * Faults that key a documented statement too widely: what the spec scopes to one account (or to one
 * supplier code and external number) is compared across the supplier. Each shows only when the same
 * key is used twice in neighbouring scopes, which the `keys.*` rules do and no older rule does (every
 * entity a run creates is otherwise unique). Not here: a business looked up by its key attributes
 * alone, which every business rule already catches (a run's businesses share name, number and type).
 */
import type { ServerEnv } from '../handlers/shared.js';
import type { Account } from '../store.js';
import { alter, body, fault } from './helpers.js';
import type { FaultDefinition } from './types.js';

/** The imported accounts of `supplier` other than `account`. */
const othersOf = (env: ServerEnv, supplier: string, account: Account): Account[] =>
  env.store
    .processesOf(supplier)
    .map((p) => p.account)
    .filter((a): a is Account => a !== null && a !== account);

type AccountBody = { import_supplier?: unknown; external_account_number?: unknown };

/** The imported account a §4.2 request names, when it exists. */
function accountOf(env: ServerEnv, req: { body: unknown }): Account | undefined {
  const b = body<AccountBody>(req.body);
  return env.store.importedAccount(String(b.import_supplier), String(b.external_account_number));
}

export const keyFaults: FaultDefinition[] = [
  fault(
    {
      id: 'keys.note-dedup-across-accounts',
      placement: { by: ['keys.note.other-account'] },
      spec: '§4.2 notes rule 2',
      subtle: true,
      description:
        'Note dedup compares with the notes of every account of the supplier, not only the account the note is for.',
    },
    {
      around: {
        createNotes: async (req, env, next) => {
          const account = accountOf(env, req);
          if (!account) return next(req);
          const own = account.notes;
          account.notes = [...own, ...othersOf(env, account.supplier, account).flatMap((a) => a.notes)];
          const seen = new Set(account.notes);
          try {
            return await next(req);
          } finally {
            account.notes = [...own, ...account.notes.filter((n) => !seen.has(n))];
          }
        },
      },
    },
  ),
  fault(
    {
      id: 'keys.transaction-ids-per-supplier',
      placement: { by: ['keys.transaction.other-account'] },
      spec: '§4.2 transactions (TRANSACTION_ALREADY_EXISTS: added earlier)',
      subtle: true,
      level: 'SHOULD',
      why: 'What identifies a transaction is not stated; that a transaction of another account was not "added earlier" to this one is a strong reading (keys.transaction.other-account).',
      description:
        'Transaction ids are checked against every account of the supplier, so a transaction id used on another account is answered TRANSACTION_ALREADY_EXISTS.',
    },
    {
      around: {
        createTransactions: async (req, env, next) => {
          const account = accountOf(env, req);
          if (!account) return next(req);
          const own = account.transactionIds;
          const wider = new Set(own);
          for (const a of othersOf(env, account.supplier, account)) for (const id of a.transactionIds) wider.add(id);
          const before = new Set(wider);
          account.transactionIds = wider;
          try {
            return await next(req);
          } finally {
            for (const id of wider) if (!before.has(id)) own.add(id);
            account.transactionIds = own;
          }
        },
      },
    },
  ),
  fault(
    {
      id: 'keys.ledger-once-per-supplier',
      placement: { by: ['keys.ledger.other-account'] },
      spec: '§4.2 historical billing documents (once per ledger), §8',
      subtle: true,
      description:
        'A ledger code that took historical billing documents on any account of the supplier is refused on every other account.',
    },
    {
      around: {
        createHistoricalBillingDocuments: (req, env, next) => {
          const account = accountOf(env, req);
          const code = body<{ ledger_code?: unknown }>(req.body).ledger_code;
          if (
            account &&
            typeof code === 'string' &&
            othersOf(env, account.supplier, account).some((a) => a.ledgers.get(code)?.hasFinalizedBillingDocument)
          )
            return env.choices.ledgerAlreadyFinalized(code);
          return next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'keys.process-by-external-number',
      placement: { by: ['keys.import-process.other-supplier'] },
      spec: '§3 (an account per supplier code and external number), §4.1',
      subtle: true,
      description:
        'Staging looks up imported accounts by external account number alone, so a number imported under one supplier is refused as already imported under every other.',
    },
    alter('stageAccount', (req, env) => {
      const b = body<{ import_supplier?: unknown; external_account_number?: unknown }>(req.body);
      const supplier = String(b.import_supplier);
      const ext = String(b.external_account_number);
      if (env.store.process(supplier, ext)) return req;
      const elsewhere = [...env.store.suppliers.keys()].find(
        (s) => s !== supplier && env.store.importedAccount(s, ext) !== undefined,
      );
      // Refused as the account imported under the other supplier is: the faithful "already imported".
      return elsewhere ? { ...req, body: { ...body(req.body), import_supplier: elsewhere } } : req;
    }),
  ),
];
