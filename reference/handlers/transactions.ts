/** §4.2 transactions: dedup (`check_previously_added`) and the open statement period (`force_add_to_current_statement`). */
import { strictModel, type Transaction } from '../../src/spec/index.js';
import { formatDateTime } from '../clock.js';
import { type ErrorItem, validationError } from '../validation.js';
import { openStatementPeriodStart } from './account-migration.js';
import { type Handler, type ServerEnv, checkBody, fieldError, importedAccountOr404, isReply, reply } from './shared.js';

const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0']);

/** §4.2: both parameters are optional booleans defaulting to true. */
function booleanParam(query: URLSearchParams, name: string): boolean | Error {
  const raw = query.get(name);
  if (raw === null) return true;
  const value = raw.toLowerCase();
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
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
  return reply(400, { status: 'TRANSACTION_IMPORT_ERROR', error_detail: errors.map((e) => `${e.attr}: ${e.detail}`).join(' '), transaction_data: data ?? {} });
}

export const createTransactions: Handler = (req, env) => {
  const checkPreviouslyAdded = booleanParam(req.query, 'check_previously_added');
  const forceAdd = booleanParam(req.query, 'force_add_to_current_statement');
  const badParams = [checkPreviouslyAdded, forceAdd].filter((v): v is Error => v instanceof Error);
  if (badParams.length) return validationError(badParams.map((e) => fieldError(e.message, 'invalid_boolean', 'Must be true or false.')));

  const checked = checkBody(strictModel.TransactionsRequest, req.body, env);
  if (!checked.ok) return invalidTransactions(checked.errors, req.body, env);
  const request = checked.data;
  const account = importedAccountOr404(env, request.import_supplier, request.external_account_number);
  if (isReply(account)) return account;

  // Plan the whole request first: a refused request adds nothing (atomicity is not shown; this is the safe choice).
  const openFrom = openStatementPeriodStart(account);
  const seen = new Set(account.transactionIds);
  const added: Transaction[] = [];
  const pinnedNotes: string[] = [];
  const results = [];
  for (const tx of request.transactions) {
    const id = tx.transaction_id!;
    if (checkPreviouslyAdded && seen.has(id)) {
      results.push({ status: 'TRANSACTION_ALREADY_EXISTS', transaction_data: tx });
      continue;
    }
    let stored: Transaction & { description?: string } = tx;
    if (openFrom !== null && tx.transaction_date! < openFrom) {
      if (!forceAdd) {
        // §4.2: on a 400 the body describes the first failing transaction only.
        return reply(400, {
          status: 'TRANSACTION_IMPORT_ERROR',
          error_detail: `Transaction ${id} is dated ${tx.transaction_date}, outside the open statement period starting ${openFrom}.`,
          transaction_data: tx,
        });
      }
      // §4.2 force_add_to_current_statement: move the date inside, describe it, pin a note.
      stored = { ...tx, transaction_date: openFrom };
      if (env.choices.forcedTransactionDescription) stored.description = `Dated ${tx.transaction_date}; moved into the open statement period starting ${openFrom}.`;
      pinnedNotes.push(`Transaction ${id} dated ${tx.transaction_date} was added to the current statement on ${openFrom}.`);
    }
    seen.add(id);
    added.push(stored);
    results.push({ status: 'TRANSACTION_ADDED_TO_ACCOUNT', transaction_data: { ...stored, status: 'TRANSACTION_IMPORT_SUCCESS' } });
  }

  for (const tx of added) {
    account.transactions.push(tx);
    account.transactionIds.add(tx.transaction_id!);
  }
  const now = formatDateTime(env.now());
  for (const body of pinnedNotes) account.notes.push({ body, createdAt: now, documentPaths: [], isPinned: true });
  return reply(201, { results });
};
