/**
 * §4.3 Status and listings: the status endpoint and the three listings (GET, no body), their path
 * parameters beside their rows of the spec's table (method, path, the documented answers), so an
 * endpoint of this section is one row in this file; core/spec/requests.ts and core/spec/endpoints.ts
 * put the sections together, and the operation id is the row's key.
 */
import { z } from 'zod';
import type { Documented, EndpointRow, Responses } from '../endpoint-row.js';

/** The request bodies and parameters of §4.3, in the order the model registers their names. */
export function requests() {
  const SupplierPathParams = z
    .object({ import_supplier_code: z.string().min(1) })
    .meta({ spec: '§4.3', description: 'path parameters of the listings' });
  const AccountPathParams = z
    .object({ import_supplier_code: z.string().min(1), external_account_number: z.string().min(1) })
    .meta({ spec: '§4.3', description: 'path parameters of the status endpoint' });

  return { SupplierPathParams, AccountPathParams };
}

/** The rows of §4.3, keyed by operation id (its one name: core/spec/endpoints.ts `endpointSlug`). */
export function endpoints(q: ReturnType<typeof requests>, s: Responses, { unauthorized, notFound }: Documented) {
  return {
    accountTransferStatus: {
      words: 'status endpoint',
      looksUp: true,
      method: 'GET',
      stores: false,
      path: '/v1/data-import/account-transfer-status/{import_supplier_code}/{external_account_number}/',
      spec: '§4.3',
      title: 'Import status of an account',
      pathParams: q.AccountPathParams,
      responses: [
        {
          status: 200,
          spec: '§4.3',
          description: 'the status and, once created, the account number',
          body: s.AccountTransferStatus,
        },
        unauthorized,
        notFound('§4.3, §7.2', 'no import process for the supplier code and external number'),
      ],
    },
    allAccountImportProcesses: {
      words: 'all-accounts listing',
      looksUp: false,
      method: 'GET',
      stores: false,
      path: '/v1/data-import/all-account-import-processes/{import_supplier_code}/',
      spec: '§4.3',
      title: 'All account import processes of a supplier, pending and created',
      pathParams: q.SupplierPathParams,
      responses: [
        { status: 200, spec: '§4.3', description: 'pending and created records', body: s.AllAccountImportProcesses },
        unauthorized,
      ],
    },
    pendingAccountImportProcesses: {
      words: 'pending listing',
      looksUp: false,
      method: 'GET',
      stores: false,
      path: '/v1/data-import/pending-account-import-processes/{import_supplier_code}/',
      spec: '§4.3',
      title: 'Pending account import processes of a supplier',
      pathParams: q.SupplierPathParams,
      responses: [
        {
          status: 200,
          spec: '§4.3',
          description: 'pending records; number and creation time always null',
          body: s.PendingAccountImportProcesses,
        },
        unauthorized,
      ],
    },
    importedAccountImportProcesses: {
      words: 'imported listing',
      looksUp: false,
      method: 'GET',
      stores: false,
      path: '/v1/data-import/imported-account-import-processes/{import_supplier_code}/',
      spec: '§4.3',
      title: 'Imported account import processes of a supplier',
      pathParams: q.SupplierPathParams,
      responses: [
        { status: 200, spec: '§4.3', description: 'response body: not shown', body: 'not shown' },
        unauthorized,
      ],
    },
  } satisfies Record<string, EndpointRow>;
}
