/** Faults of §4.2 transactions. */
import { openStatementPeriodStart } from '../handlers/migration.js';
import { reply } from '../reply.js';
import { validationError } from '../validation.js';
import { alter, body, fault, keptFirstPage, keptUntilImport, rewrite } from './helpers.js';
import type { FaultDefinition } from './types.js';

type TxBody = {
  import_supplier: string;
  external_account_number: string;
  transactions: {
    transaction_id?: string;
    transaction_date?: string;
    type?: string;
    amount?: unknown;
    line_items?: unknown;
  }[];
};

const withoutParam = (name: string) =>
  alter('createTransactions', (req) => {
    const query = new URLSearchParams(req.query);
    query.delete(name);
    return { ...req, query };
  });

type Results = { results: { status: string; transaction_data: Record<string, unknown> }[] };
const isResults = (x: unknown): x is Results => !!x && Array.isArray((x as Results).results);

export const transactionFaults: FaultDefinition[] = [
  fault(
    {
      id: 'transactions.large-batch-partly-added',
      spec: '§4.2 transactions (per-item statuses)',
      subtle: true,
      description:
        'A request of more than 20 transactions answers TRANSACTION_ADDED_TO_ACCOUNT for each, but only the first 20 new ones are added (a bulk insert cut at its page size).',
      // An edge value (a batch past a bulk insert's page) where no dedup rule sends one.
      placement: { by: ['transactions.create.added-is-stored'] },
    },
    keptFirstPage(
      'createTransactions',
      'transactions',
      (account) => account.transactions,
      (account, dropped) => account.transactionIds.delete(dropped.transaction_id as string),
    ),
  ),
  fault(
    {
      id: 'transactions.check-flag-ignored',
      spec: '§4.2 transactions (check_previously_added)',
      subtle: true,
      description: 'check_previously_added is parsed but ignored: false still skips transactions added earlier.',
    },
    withoutParam('check_previously_added'),
  ),
  fault(
    {
      id: 'transactions.force-flag-ignored',
      spec: '§4.2 transactions (force_add_to_current_statement)',
      subtle: true,
      description:
        'force_add_to_current_statement is parsed but ignored: false still moves out-of-period transactions.',
    },
    withoutParam('force_add_to_current_statement'),
  ),
  fault(
    {
      id: 'transactions.never-forced',
      spec: '§4.2 transactions (force_add_to_current_statement default true)',
      subtle: true,
      description: 'Forcing defaults to false, so an out-of-period transaction is refused unless forcing is asked for.',
    },
    alter('createTransactions', (req) => {
      const query = new URLSearchParams(req.query);
      if (!query.has('force_add_to_current_statement')) query.set('force_add_to_current_statement', 'false');
      return { ...req, query };
    }),
  ),
  fault(
    {
      id: 'transactions.error-lists-every-failing',
      spec: '§4.2 transactions (400 for the first failing transaction only)',
      subtle: true,
      description: 'The 400 body describes every failing transaction, not only the first.',
    },
    rewrite('createTransactions', (r, req, env) => {
      if (r.status !== 400 || body(r.body).status !== 'TRANSACTION_IMPORT_ERROR') return r;
      const b = body<TxBody>(req.body);
      const account = env.store.importedAccount(b.import_supplier, b.external_account_number);
      const from = account ? openStatementPeriodStart(account) : null;
      const failing = b.transactions
        .filter((t) => from !== null && (t.transaction_date ?? '') < from)
        .map((t) => t.transaction_id);
      return reply(400, {
        ...body(r.body),
        error_detail: `Transactions ${failing.join(', ')} are outside the open statement period.`,
      });
    }),
  ),
  fault(
    {
      id: 'transactions.error-last-failing',
      spec: '§4.2 transactions (the first failing transaction)',
      subtle: true,
      description: 'The 400 body describes the last failing transaction instead of the first.',
    },
    rewrite('createTransactions', (r, req, env) => {
      if (r.status !== 400 || body(r.body).status !== 'TRANSACTION_IMPORT_ERROR') return r;
      const b = body<TxBody>(req.body);
      const account = env.store.importedAccount(b.import_supplier, b.external_account_number);
      const from = account ? openStatementPeriodStart(account) : null;
      const last = [...b.transactions].reverse().find((t) => from !== null && (t.transaction_date ?? '') < from);
      return reply(400, {
        status: 'TRANSACTION_IMPORT_ERROR',
        error_detail: `Transaction ${last?.transaction_id} is outside the open statement period.`,
        transaction_data: last,
      });
    }),
  ),
  fault(
    {
      id: 'transactions.error-without-status',
      spec: '§4.2 transactions (400 body)',
      subtle: false,
      description: 'The transaction-import 400 has no status field.',
    },
    rewrite('createTransactions', (r) =>
      r.status === 400 && body(r.body).status === 'TRANSACTION_IMPORT_ERROR'
        ? reply(400, { error_detail: body(r.body).error_detail, transaction_data: body(r.body).transaction_data })
        : r,
    ),
  ),
  fault(
    {
      id: 'transactions.no-dedup',
      spec: '§4.2 transactions (check_previously_added default true)',
      subtle: false,
      description: 'Transactions are never checked against earlier ones.',
    },
    alter('createTransactions', (req) => {
      const query = new URLSearchParams(req.query);
      query.set('check_previously_added', 'false');
      return { ...req, query };
    }),
  ),
  fault(
    {
      id: 'transactions.dedup-within-request-only',
      spec: '§4.2 transactions',
      subtle: true,
      description:
        'Only duplicates within one request are recognised; transactions added by earlier requests are added again.',
    },
    {
      around: {
        createTransactions: async (req, env, next) => {
          const b = body<TxBody>(req.body);
          const account = env.store.importedAccount(b.import_supplier, b.external_account_number);
          if (!account) return next(req);
          const earlier = account.transactionIds;
          account.transactionIds = new Set();
          try {
            return await next(req);
          } finally {
            for (const id of earlier) account.transactionIds.add(id);
          }
        },
      },
    },
  ),
  fault(
    {
      id: 'transactions.supply-charge-items-refused',
      spec: '§2.4 (line_items, tax_items on SUPPLY_CHARGE)',
      subtle: true,
      description: 'A SUPPLY_CHARGE with line items is refused.',
    },
    {
      around: {
        createTransactions: (req, _env, next) => {
          const txs = body<TxBody>(req.body).transactions;
          const i = Array.isArray(txs)
            ? txs.findIndex((t) => t?.type === 'SUPPLY_CHARGE' && t.line_items !== undefined)
            : -1;
          return i >= 0
            ? validationError([
                { attr: `transactions.${i}.line_items`, code: 'invalid', detail: 'Line items are not supported.' },
              ])
            : next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'transactions.decimal-string-refused',
      spec: '§2.4 (amount: number or decimal string)',
      subtle: true,
      description: 'An amount written as a decimal string is refused.',
    },
    {
      around: {
        createTransactions: (req, _env, next) => {
          const txs = body<TxBody>(req.body).transactions;
          const i = Array.isArray(txs) ? txs.findIndex((t) => typeof t?.amount === 'string') : -1;
          return i >= 0
            ? validationError([{ attr: `transactions.${i}.amount`, code: 'invalid', detail: 'A number is required.' }])
            : next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'transactions.type-unvalidated',
      spec: '§2.4 (type)',
      subtle: false,
      description: 'Any transaction type is accepted.',
    },
    { ignoreIssue: (e) => e.code === 'invalid_choice' && /(^|\.)transactions\.\d+\.type$/.test(e.attr) },
  ),
  fault(
    {
      id: 'transactions.success-status-missing',
      spec: '§3 (TRANSACTION_IMPORT_SUCCESS in transaction_data)',
      subtle: false,
      description: 'transaction_data never carries status TRANSACTION_IMPORT_SUCCESS.',
      level: 'SHOULD',
      why: 'TRANSACTION_IMPORT_SUCCESS "also appears" in transaction_data; the spec does not say every added transaction carries it.',
    },
    rewrite('createTransactions', (r) =>
      r.status === 201 && isResults(r.body)
        ? reply(201, {
            results: r.body.results.map((x) => ({
              ...x,
              transaction_data: { ...x.transaction_data, status: undefined },
            })),
          })
        : r,
    ),
  ),
  fault(
    {
      id: 'transactions.forced-date-kept',
      spec: '§4.2 transactions (its date is changed to fall inside)',
      subtle: true,
      description: 'A forced transaction keeps its out-of-period date.',
      level: 'SHOULD',
      why: 'The stored date cannot be read through the interface; transaction_data (content not shown) is the only view, so the move is checked where it shows there.',
    },
    rewrite('createTransactions', (r, req) => {
      if (r.status !== 201 || !isResults(r.body)) return r;
      const sent = body<TxBody>(req.body).transactions;
      return reply(201, {
        results: r.body.results.map((x, i) => ({
          ...x,
          transaction_data: { ...x.transaction_data, transaction_date: sent[i]?.transaction_date },
        })),
      });
    }),
  ),
  {
    id: 'transactions.kept-for-staged-account',
    placement: {
      by: ['refused.unknown-account.create-transactions'],
      beside: ['refused.', 'conventions.types.', 'relations.defect.'],
    },
    spec: '§7.2 (404: account not found), §4.2 (data added to an imported account)',
    subtle: true,
    description:
      'Transactions sent for an account that is staged but not imported are refused 404, yet kept and added when the account is created.',
    create: () =>
      keptUntilImport<TxBody['transactions'][number]>(
        'createTransactions',
        (b) => (Array.isArray(b.transactions) ? structuredClone(b.transactions as TxBody['transactions']) : undefined),
        (account, transactions) => {
          for (const tx of transactions)
            if (typeof tx?.transaction_id === 'string') {
              account.transactions.push(tx as (typeof account.transactions)[number]);
              account.transactionIds.add(tx.transaction_id);
            }
        },
      ),
  },
];
