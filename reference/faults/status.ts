/** Faults of §4.3 status of an account and the listings of import processes. */
import { reply } from '../reply.js';
import { body, fault, rewrite } from './helpers.js';
import type { FaultDefinition } from './types.js';

type Record_ = {
  external_account_number: string;
  service_account_number: string | null;
  account_created_at: string | null;
};
const records = (x: unknown) => (Array.isArray(x) ? (x as Record_[]) : []);

export const statusFaults: FaultDefinition[] = [
  fault(
    {
      id: 'status.staged-404',
      spec: '§4.3, §3',
      subtle: false,
      description: 'The status endpoint answers 404 for a staged account until it is imported.',
    },
    rewrite('accountTransferStatus', (r, _req, env) =>
      r.status === 200 && body(r.body).status === 'UNKNOWN' ? env.choices.notFound('No account.') : r,
    ),
  ),
  fault(
    {
      id: 'status.staged-null-number',
      spec: '§4.3 (the number is an empty string)',
      subtle: true,
      description: 'Before the account exists the status gives service_account_number null instead of "".',
    },
    rewrite('accountTransferStatus', (r) =>
      r.status === 200 && body(r.body).service_account_number === ''
        ? reply(200, { ...body(r.body), service_account_number: null })
        : r,
    ),
  ),
  fault(
    {
      id: 'status.completed-without-number',
      spec: '§4.3',
      subtle: false,
      description: 'A COMPLETED status carries an empty service_account_number.',
    },
    rewrite('accountTransferStatus', (r) =>
      r.status === 200 && body(r.body).status === 'COMPLETED'
        ? reply(200, { ...body(r.body), service_account_number: '' })
        : r,
    ),
  ),
  fault(
    {
      id: 'status.stays-unknown',
      spec: '§3 (COMPLETED: an account has been created)',
      subtle: false,
      description: 'The status stays UNKNOWN after the account is created.',
    },
    rewrite('accountTransferStatus', (r) =>
      r.status === 200 && body(r.body).status === 'COMPLETED'
        ? reply(200, { status: 'UNKNOWN', service_account_number: '' })
        : r,
    ),
  ),
  fault(
    {
      id: 'status.other-supplier-visible',
      spec: '§4.3 (status per supplier code and external number)',
      subtle: true,
      description: 'The status endpoint finds an account under any supplier code.',
    },
    {
      around: {
        accountTransferStatus: async (req, env, next) => {
          const r = await next(req);
          if (r.status !== 404) return r;
          const other = [...env.store.processes.values()].find(
            (p) => p.externalAccountNumber === req.params.external_account_number,
          );
          return other ? next({ ...req, params: { ...req.params, import_supplier_code: other.supplier } }) : r;
        },
      },
    },
  ),
  fault(
    {
      id: 'status.listings-pending-keeps-imported',
      spec: '§4.3 (pending listing)',
      subtle: true,
      description: 'Imported accounts stay in the pending listing (with null numbers).',
    },
    {
      around: {
        pendingAccountImportProcesses: async (req, env, next) => {
          const r = await next(req);
          if (r.status !== 200) return r;
          const imported = env.store.processesOf(req.params.import_supplier_code).filter((p) => p.account);
          return reply(200, [
            ...records(r.body),
            ...imported.map((p) => ({
              external_account_number: p.externalAccountNumber,
              service_account_number: null,
              account_created_at: null,
            })),
          ]);
        },
      },
    },
  ),
  fault(
    {
      id: 'status.listings-other-supplier-leak',
      spec: '§4.3 (listings per supplier)',
      subtle: true,
      description: "The all-accounts listing of a supplier also shows other suppliers' accounts.",
    },
    {
      around: {
        allAccountImportProcesses: async (req, env, next) => {
          const r = await next(req);
          if (r.status !== 200) return r;
          const others = [...env.store.processes.values()].filter(
            (p) => p.supplier !== req.params.import_supplier_code,
          );
          return reply(200, [
            ...records(r.body),
            ...others.map((p) => ({
              external_account_number: p.externalAccountNumber,
              service_account_number: p.account?.number ?? null,
              account_created_at: p.account?.createdAt ?? null,
            })),
          ]);
        },
      },
    },
  ),
  fault(
    {
      id: 'status.listings-all-omits-pending',
      spec: '§4.3 (all: pending and created)',
      subtle: false,
      description: 'The all-accounts listing shows only created accounts.',
    },
    rewrite('allAccountImportProcesses', (r) =>
      r.status === 200
        ? reply(
            200,
            records(r.body).filter((p) => p.service_account_number !== null),
          )
        : r,
    ),
  ),
  fault(
    {
      id: 'status.listings-created-at-missing',
      spec: '§2.9, §4.3',
      subtle: true,
      description: 'The all-accounts listing gives created accounts a null account_created_at.',
    },
    rewrite('allAccountImportProcesses', (r) =>
      r.status === 200
        ? reply(
            200,
            records(r.body).map((p) => ({ ...p, account_created_at: null })),
          )
        : r,
    ),
  ),
  fault(
    {
      id: 'status.listings-pending-empty-number',
      spec: '§4.3 (pending: always null)',
      subtle: true,
      description: 'Pending records carry service_account_number "" instead of null.',
    },
    rewrite('pendingAccountImportProcesses', (r) =>
      r.status === 200
        ? reply(
            200,
            records(r.body).map((p) => ({ ...p, service_account_number: '' })),
          )
        : r,
    ),
  ),
  fault(
    {
      id: 'status.listings-imported-includes-pending',
      spec: '§4.3 (imported listing)',
      subtle: true,
      description: 'The imported listing also shows accounts that are only staged.',
      level: 'SHOULD',
      why: "The imported listing's body is not shown; that it leaves out pending accounts is what its name says.",
    },
    rewrite('importedAccountImportProcesses', (r, req, env) =>
      r.status === 200
        ? reply(
            200,
            env.store.processesOf(req.params.import_supplier_code).map((p) => ({
              external_account_number: p.externalAccountNumber,
              service_account_number: p.account?.number ?? null,
              account_created_at: p.account?.createdAt ?? null,
            })),
          )
        : r,
    ),
  ),
];
