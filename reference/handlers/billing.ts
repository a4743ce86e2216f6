/** §4.2 historical billing documents (once per ledger, §8). */
import type { EndpointId } from '../../core/spec/index.js';
import { strictModel } from '../../core/spec/index.js';
import { validationError } from '../validation.js';
import { type Handler, fieldError, isReply, reply, requestOnImportedAccount } from './shared.js';

export const createHistoricalBillingDocuments: Handler = (req, env) => {
  const started = requestOnImportedAccount(strictModel.HistoricalBillingDocumentsRequest, req, env);
  if (isReply(started)) return started;
  const { request, account } = started;

  // How a ledger is named here is not shown: the reference wants one the account was imported with.
  let ledger = account.ledgers.get(request.ledger_code!);
  if (!ledger && env.choices.unknownLedger === 'create') {
    ledger = { code: request.ledger_code!, hasFinalizedBillingDocument: false };
    account.ledgers.set(ledger.code, ledger);
  }
  if (!ledger)
    return validationError([fieldError('ledger_code', 'does_not_exist', 'The account has no ledger with this code.')]);
  // §4.2, §8: usable once per ledger; refused when the ledger already has a finalized billing document.
  if (ledger.hasFinalizedBillingDocument) return env.choices.ledgerAlreadyFinalized(ledger.code);

  ledger.hasFinalizedBillingDocument = true;
  // One by one: spreading a 100k-item list into push() overflows the stack.
  for (const document of request.historical_billing_documents!) account.billingDocuments.push(document);
  for (const tx of [
    ...request.historical_billing_documents!.flatMap((d) => d.transactions ?? []),
    ...(request.additional_historical_transactions ?? []),
  ]) {
    account.transactions.push(tx);
    account.transactionIds.add(tx.transaction_id!);
  }
  return reply(201); // §4.2: "201, empty body"
};

/** This area's endpoints and their handlers (reference/areas.ts registers the area). */
export const handlers = { createHistoricalBillingDocuments } satisfies Partial<Record<EndpointId, Handler>>;
