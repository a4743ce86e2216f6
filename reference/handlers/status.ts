/** §4.3: the status endpoint and the three listings of a supplier's account import processes. */
import type { EndpointId } from '../../core/spec/index.js';
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
const importedRecords = listing((p) => p.account !== null);

/**
 * §4.3: the imported listing's body is not shown; the reference uses the §2.9 record shape, as one
 * array or (a server's choice) in pages `{count, next, previous, results}` chosen by `?page=`.
 */
export const importedAccountImportProcesses: Handler = async (req, env) => {
  const answer = await importedRecords(req, env);
  const paging = env.choices.importedListingPages;
  if (!paging || answer.status !== 200 || !Array.isArray(answer.body)) return answer;
  const records = answer.body as unknown[];
  const last = Math.max(1, Math.ceil(records.length / paging.size));
  const page = Number(req.query.get('page') ?? '1');
  if (!Number.isInteger(page) || page < 1 || page > last) return env.choices.notFound('No such page.');
  const path = `/v1/data-import/imported-account-import-processes/${encodeURIComponent(req.params.import_supplier_code)}/`;
  const link = (n: number) =>
    n < 1 || n > last
      ? null
      : paging.links === 'relative'
        ? `?page=${n}`
        : `http://${req.headers.host ?? 'localhost'}${path}?page=${n}`;
  return reply(200, {
    count: records.length,
    next: link(page + 1),
    previous: link(page - 1),
    results: records.slice((page - 1) * paging.size, page * paging.size),
  });
};

/** This area's endpoints and their handlers (reference/areas.ts registers the area). */
export const handlers = {
  accountTransferStatus,
  allAccountImportProcesses,
  pendingAccountImportProcesses,
  importedAccountImportProcesses,
} satisfies Partial<Record<EndpointId, Handler>>;
