/** §4.3: the status endpoint and the three listings of a supplier's account import processes. */
import type { ImportProcess } from '../store.js';
import { type Handler, type ServerEnv, reply } from './shared.js';

export const accountTransferStatus: Handler = (req, env) => {
  const process = env.store.process(req.params.import_supplier_code, req.params.external_account_number);
  // §4.3: 404 when no import process exists for the supplier code and external number.
  if (!process)
    return env.choices.notFound('No import process exists for this import supplier and external account number.');
  if (process.account) return reply(200, { status: 'COMPLETED', service_account_number: process.account.number });
  // §3: UNKNOWN while no account exists; the number is an empty string until then.
  return reply(200, { status: process.inProgress ? 'IN_PROGRESS' : 'UNKNOWN', service_account_number: '' });
};

/** §2.9: a pending record has null number and creation time. */
const record = (p: ImportProcess) => ({
  external_account_number: p.externalAccountNumber,
  service_account_number: p.account?.number ?? null,
  account_created_at: p.account?.createdAt ?? null,
});

function listing(filter: (p: ImportProcess) => boolean): Handler {
  return (req, env: ServerEnv) => {
    const supplier = req.params.import_supplier_code;
    // Unknown supplier codes: not shown; the reference answers 404 rather than an empty list.
    if (!env.store.suppliers.has(supplier)) {
      return env.choices.unknownSupplierListing === 'empty'
        ? reply(200, [])
        : env.choices.notFound('No import supplier with this code.');
    }
    return reply(200, env.store.processesOf(supplier).filter(filter).map(record));
  };
}

export const allAccountImportProcesses = listing(() => true);
export const pendingAccountImportProcesses = listing((p) => p.account === null);
/** §4.3: the imported listing's body is not shown; the reference uses the §2.9 record shape. */
export const importedAccountImportProcesses = listing((p) => p.account !== null);
