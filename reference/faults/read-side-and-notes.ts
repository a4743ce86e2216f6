/** Faults of §4.3 status and listings, and of §4.2 notes. */
import { reply } from '../reply.js';
import type { StoredNote } from '../store.js';
import { validationError } from '../validation.js';
import { alter, body, clone, fault, rewrite } from './helpers.js';
import type { Around, FaultDefinition } from './types.js';

type Record_ = {
  external_account_number: string;
  service_account_number: string | null;
  account_created_at: string | null;
};
const records = (x: unknown) => (Array.isArray(x) ? (x as Record_[]) : []);
type NotesBody = {
  import_supplier: string;
  external_account_number: string;
  notes: { body?: string; created_at?: string; document_paths?: unknown[] }[];
};

export const readSideFaults: FaultDefinition[] = [
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
      id: 'listings.pending-keeps-imported',
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
      id: 'listings.other-supplier-leak',
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
      id: 'listings.all-omits-pending',
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
      id: 'listings.created-at-missing',
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
      id: 'listings.pending-empty-number',
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
      id: 'listings.imported-includes-pending',
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

/** Runs the faithful notes handler as if the account had only `visible` notes; keeps the rest. */
function withNotes(visible: (notes: StoredNote[]) => StoredNote[]): Around {
  return async (req, env, next) => {
    const b = body<NotesBody>(req.body);
    const account = env.store.importedAccount(b.import_supplier, b.external_account_number);
    if (!account) return next(req);
    const all = account.notes;
    account.notes = visible(all);
    try {
      return await next(req);
    } finally {
      account.notes = [...all, ...account.notes.filter((n) => !all.includes(n))];
    }
  };
}

export const noteFaults: FaultDefinition[] = [
  fault(
    {
      id: 'notes.dedup-body-only',
      spec: '§4.2 notes rule 2',
      subtle: true,
      description: 'Dedup compares the body only, so a note with another created_at is taken as existing.',
    },
    {
      around: {
        createNotes: (req, env, next) => {
          const b = clone(body<NotesBody>(req.body));
          const account = env.store.importedAccount(b.import_supplier, b.external_account_number);
          if (account && Array.isArray(b.notes))
            for (const n of b.notes) if (account.notes.some((e) => e.body === (n.body ?? null))) delete n.created_at;
          return next({ ...req, body: b });
        },
      },
    },
  ),
  fault(
    {
      id: 'notes.dedup-ignores-body',
      spec: '§4.2 notes rule 2',
      subtle: true,
      description: 'A note with the same created_at as a note on the account is taken as existing whatever its body.',
    },
    {
      around: {
        createNotes: (req, env, next) => {
          const b = clone(body<NotesBody>(req.body));
          const account = env.store.importedAccount(b.import_supplier, b.external_account_number);
          if (account && Array.isArray(b.notes)) {
            for (const n of b.notes) {
              const same = account.notes.find((e) => n.created_at !== undefined && e.createdAt === n.created_at);
              if (same && same.body !== null) n.body = same.body;
            }
          }
          return next({ ...req, body: b });
        },
      },
    },
  ),
  fault(
    {
      id: 'notes.dedup-within-request-only',
      spec: '§4.2 notes rule 2',
      subtle: true,
      description: 'Dedup looks only at the notes of the same request, not at the notes already on the account.',
    },
    { around: { createNotes: withNotes(() => []) } },
  ),
  fault(
    {
      id: 'notes.dedup-ignores-migrated',
      spec: '§4.2 notes rule 2',
      subtle: true,
      description: 'Notes that came with the account payload are not considered by dedup.',
    },
    {
      around: {
        createNotes: async (req, env, next) => {
          const b = body<NotesBody>(req.body);
          const account = env.store.importedAccount(b.import_supplier, b.external_account_number);
          const migrated = new Set((account?.payload.notes ?? []).map((n) => n.body));
          return withNotes((notes) => notes.filter((n) => !migrated.has(n.body ?? undefined)))(req, env, next);
        },
      },
    },
  ),
  fault(
    {
      id: 'notes.no-dedup',
      spec: '§4.2 notes rule 2',
      subtle: false,
      description: 'Every note is created; NOTE_ALREADY_EXISTS never comes.',
    },
    rewrite('createNotes', (r) =>
      r.status === 201 && Array.isArray(r.body)
        ? reply(
            201,
            (r.body as { status: string }[]).map((n) => ({ ...n, status: 'NOTE_CREATION_SUCCESS' })),
          )
        : r,
    ),
  ),
  fault(
    {
      id: 'notes.default-created-at-epoch',
      spec: '§4.2 notes rule 3',
      subtle: true,
      description: 'A note without created_at gets 1970-01-01T00:00:00Z instead of the current time.',
    },
    alter('createNotes', (req) => {
      const b = clone(body<NotesBody>(req.body));
      if (Array.isArray(b.notes))
        for (const n of b.notes)
          if (n && n.created_at === undefined && (n.body !== undefined || n.document_paths !== undefined))
            n.created_at = '1970-01-01T00:00:00Z';
      return { ...req, body: b };
    }),
  ),
  fault(
    {
      id: 'notes.created-at-replaced',
      spec: '§4.2 notes, §2.3 note',
      subtle: true,
      description: 'A given created_at is ignored and replaced by the current time.',
    },
    alter('createNotes', (req) => {
      const b = clone(body<NotesBody>(req.body));
      if (Array.isArray(b.notes))
        for (const n of b.notes) if (n && (n.body !== undefined || n.document_paths !== undefined)) delete n.created_at;
      return { ...req, body: b };
    }),
  ),
  fault(
    {
      id: 'notes.staged-accepted',
      spec: '§4.2 notes rule 1',
      subtle: true,
      description: 'Notes for an account that is staged but not imported answer 201.',
    },
    {
      around: {
        createNotes: (req, env, next) => {
          const b = body<NotesBody>(req.body);
          const process = env.store.process(b.import_supplier, b.external_account_number);
          if (process && !process.account && Array.isArray(b.notes)) {
            return reply(
              201,
              b.notes.map((n) => ({
                created_at: n.created_at ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
                body: n.body ?? null,
                status: 'NOTE_CREATION_SUCCESS',
              })),
            );
          }
          return next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'notes.wrong-key-400',
      spec: '§4.2 notes rule 5, §7.2',
      subtle: false,
      description: 'A wrong supplier code or external number answers 400 instead of 404.',
    },
    rewrite('createNotes', (r) => (r.status === 404 ? { ...r, status: 400 } : r)),
  ),
  fault(
    {
      id: 'notes.any-supplier',
      spec: '§4.2 notes rule 5',
      subtle: true,
      description: 'Notes find the account by external number under any supplier code.',
    },
    {
      around: {
        createNotes: (req, env, next) => {
          const b = body<NotesBody>(req.body);
          if (env.store.importedAccount(b.import_supplier, b.external_account_number)) return next(req);
          const other = [...env.store.processes.values()].find(
            (p) => p.account && p.externalAccountNumber === b.external_account_number,
          );
          return next(other ? { ...req, body: { ...b, import_supplier: other.supplier } } : req);
        },
      },
    },
  ),
  fault(
    {
      id: 'notes.document-only-refused',
      spec: '§4.2 notes rule 4',
      subtle: true,
      description: 'A note without a body is refused even when it has document_paths.',
    },
    {
      around: {
        createNotes: (req, _env, next) => {
          const i = Array.isArray(body<NotesBody>(req.body).notes)
            ? body<NotesBody>(req.body).notes.findIndex((n) => n && n.body === undefined)
            : -1;
          return i >= 0
            ? validationError([{ attr: `notes.${i}.body`, code: 'required', detail: 'This field is required.' }])
            : next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'notes.results-without-created-at',
      spec: '§4.2 notes ({created_at, body, status})',
      subtle: false,
      description: 'Results leave out created_at.',
    },
    rewrite('createNotes', (r) =>
      r.status === 201 && Array.isArray(r.body)
        ? reply(
            201,
            (r.body as Record<string, unknown>[]).map(({ created_at: _c, ...n }) => n),
          )
        : r,
    ),
  ),
];
