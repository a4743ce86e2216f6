/** §4.2 transactions: dedup (`check_previously_added`) and the open statement period (`force_add_to_current_statement`). */
import type { EndpointId } from '../../core/spec/index.js';
import { strictModel, type Transaction } from '../../core/spec/index.js';
import { formatDateTime } from '../clock.js';
import { type ErrorItem, capErrors, validationError } from '../validation.js';
import { openStatementPeriod } from './migration.js';
import {
  type Handler,
  type ServerEnv,
  accountLookedUpFirst,
  checkBody,
  fieldError,
  importedAccountOr404,
  isReply,
  localNow,
  reply,
} from './shared.js';

const LENIENT = { true: new Set(['true', '1']), false: new Set(['false', '0']) };

/** §4.2: both parameters are optional booleans, true when absent; their spellings are a choice. */
function booleanParam(query: URLSearchParams, name: string, env: ServerEnv): boolean | Error {
  const raw = query.get(name);
  if (raw === null) return true;
  if (env.choices.booleanSpellings === 'exact')
    return raw === 'true' ? true : raw === 'false' ? false : new Error(name);
  const value = raw.toLowerCase();
  if (LENIENT.true.has(value)) return true;
  if (LENIENT.false.has(value)) return false;
  return new Error(name);
}

/**
 * A 400 for an invalid transaction payload. Which body it carries is a choice: §7.1 says validation
 * errors use the §7.1 body, §4.2 says a 400 of this endpoint is the TRANSACTION_IMPORT_ERROR body.
 */
function invalidTransactions(errors: ErrorItem[], body: unknown, env: ServerEnv) {
  if (env.choices.invalidTransactionBody === 'validation') return validationError(errors);
  const index = Number(/^transactions\.(\d+)/.exec(errors[0]?.attr ?? '')?.[1]);
  const transactions = (body as { transactions?: unknown[] } | null)?.transactions;
  const data = Number.isInteger(index) && Array.isArray(transactions) ? transactions[index] : body;
  return reply(400, {
    status: 'TRANSACTION_IMPORT_ERROR',
    error_detail: capErrors(errors)
      .map((e) => `${e.attr}: ${e.detail}`)
      .join(' '),
    transaction_data: data ?? {},
  });
}

/**
 * The request with only the transactions before the first failing one, when every error is about a
 * transaction and at least one comes before it; otherwise undefined (nothing to keep).
 */
function validPrefix(errors: ErrorItem[], body: unknown): Record<string, unknown> | undefined {
  const indexes = errors.map((e) => /^transactions\.(\d+)(\.|$)/.exec(e.attr)?.[1]);
  if (indexes.some((i) => i === undefined)) return undefined;
  const first = indexes.reduce((min, i) => Math.min(min, Number(i)), Number.POSITIVE_INFINITY);
  const request = body as { transactions: unknown[] };
  return first > 0 ? { ...request, transactions: request.transactions.slice(0, first) } : undefined;
}

export const createTransactions: Handler = (req, env) => {
  const early = accountLookedUpFirst(req.body, env);
  if (early) return early;
  const checkPreviouslyAdded = booleanParam(req.query, 'check_previously_added', env);
  const forceAdd = booleanParam(req.query, 'force_add_to_current_statement', env);
  const badParams = [checkPreviouslyAdded, forceAdd].filter((v): v is Error => v instanceof Error);
  if (badParams.length)
    return validationError(badParams.map((e) => fieldError(e.message, 'invalid_boolean', 'Must be true or false.')));

  const checked = checkBody(strictModel.TransactionsRequest, req.body, env);
  if (!checked.ok) {
    // A non-atomic server adds the transactions before the first failing one (§4.2 reports that one only).
    const prefix = env.choices.atomicTransactionRequests ? undefined : validPrefix(checked.errors, req.body);
    if (prefix) createTransactions({ ...req, body: prefix }, env);
    return invalidTransactions(checked.errors, req.body, env);
  }
  const request = checked.data;
  const account = importedAccountOr404(env, request.import_supplier, request.external_account_number);
  if (isReply(account)) return account;

  // Plan the whole request first: a refused request adds nothing (atomicity is not shown; this is the safe choice).
  const record = (tx: Transaction) => {
    account.transactions.push(tx);
    account.transactionIds.add(tx.transaction_id!);
  };
  const period = openStatementPeriod(account, env);
  const outside = (date: string) =>
    (period.from !== null && date < period.from) || (period.to !== null && date > period.to);
  // Ids added by this request, looked up next to the account's own: no copy of a set that may hold millions.
  const addedIds = new Set<string>();
  const seen = { has: (id: string) => account.transactionIds.has(id) || addedIds.has(id) };
  const added: Transaction[] = [];
  const pinnedNotes: string[] = [];
  const results = [];
  for (const tx of request.transactions) {
    const id = tx.transaction_id!;
    if (checkPreviouslyAdded && seen.has(id)) {
      results.push({ status: 'TRANSACTION_ALREADY_EXISTS', transaction_data: tx });
      continue;
    }
    // Not checked, and the choice is that a duplicate is refused anyway (a unique constraint).
    if (!checkPreviouslyAdded && seen.has(id) && env.choices.uncheckedDuplicateTransaction === 'refuse') {
      if (!env.choices.atomicTransactionRequests) for (const t of added) record(t);
      return reply(400, {
        status: 'TRANSACTION_IMPORT_ERROR',
        error_detail: `Transaction ${id} was already added.`,
        transaction_data: tx,
      });
    }
    let stored: Transaction & { description?: string } = tx;
    if (outside(tx.transaction_date!)) {
      if (!forceAdd) {
        // A non-atomic server keeps what came before the failing transaction (atomicity is not shown).
        if (!env.choices.atomicTransactionRequests) for (const t of added) record(t);
        // §4.2: on a 400 the body describes the first failing transaction only.
        return reply(400, {
          status: 'TRANSACTION_IMPORT_ERROR',
          error_detail: `Transaction ${id} is dated ${tx.transaction_date}, outside the open statement period.`,
          transaction_data: tx,
        });
      }
      // §4.2 force_add_to_current_statement: move the date inside, describe it, pin a note.
      const inside = period.from !== null && tx.transaction_date! < period.from ? period.from : period.to!;
      stored = { ...tx, transaction_date: inside };
      if (env.choices.forcedTransactionDescription)
        stored.description = `Dated ${tx.transaction_date}; moved into the open statement period (${inside}).`;
      pinnedNotes.push(
        `Transaction ${id} dated ${tx.transaction_date} was added to the current statement on ${inside}.`,
      );
    }
    addedIds.add(id);
    added.push(stored);
    results.push({
      status: 'TRANSACTION_ADDED_TO_ACCOUNT',
      transaction_data: { ...stored, status: 'TRANSACTION_IMPORT_SUCCESS' },
    });
  }

  for (const tx of added) record(tx);
  const now = formatDateTime(localNow(env));
  for (const body of pinnedNotes) account.notes.push({ body, createdAt: now, documentPaths: [], isPinned: true });
  return reply(201, { results });
};

/** This area's endpoints and their handlers (reference/areas.ts registers the area). */
export const handlers = { createTransactions } satisfies Partial<Record<EndpointId, Handler>>;
