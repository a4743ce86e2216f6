/** Faults of §4.2 notes: deduplication, created_at, and which accounts take notes. */
import { reply } from '../reply.js';
import type { StoredNote } from '../store.js';
import { validationError } from '../validation.js';
import { alter, body, clone, fault, isValidationError, keptFirstPage, rewrite } from './helpers.js';
import type { Around, FaultDefinition } from './types.js';

type NotesBody = {
  import_supplier: string;
  external_account_number: string;
  notes: { body?: string; created_at?: string; document_paths?: unknown[] }[];
};

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

/** What a bulk insert capped at 100 rows keeps of a notes request. */
const BATCH_CAP = 100;

export const noteFaults: FaultDefinition[] = [
  {
    id: 'notes.create.batch-cut-100',
    spec: '§4.2 notes rule 2, §3 creation statuses',
    subtle: true,
    // Only a request of more than 100 notes meets it (suites/notes.ts, LARGE_REQUEST).
    // The edge relation sends the batch list at 120 items too, and counts the results (blind spot 4).
    placement: { by: ['notes.create.success-is-stored'], beside: ['relations.edge.'] },
    description:
      'A notes request of more than 100 notes keeps the first 100 and answers for them alone, with 201: the rest are dropped silently, where a server with that limit answers a §7.1 400 at notes.',
    create: () =>
      alter('createNotes', (req) => {
        const notes = body(req.body).notes;
        return Array.isArray(notes) && notes.length > BATCH_CAP
          ? { ...req, body: { ...body(req.body), notes: notes.slice(0, BATCH_CAP) } }
          : req;
      }),
  },
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
      id: 'notes.large-batch-partly-stored',
      spec: '§4.2 notes rule 2, §3',
      subtle: true,
      description:
        'A request of more than 20 notes answers NOTE_CREATION_SUCCESS for each, but only the first 20 new notes are stored (a bulk insert cut at its page size).',
      // An edge value (a batch past a bulk insert's page) where no dedup rule sends one.
      placement: { by: ['notes.create.success-is-stored'] },
    },
    keptFirstPage('createNotes', 'notes', (account) => account.notes),
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
  fault(
    {
      id: 'notes.valid-notes-stored-on-400',
      placement: {
        by: ['refused.validation.valid-items-not-kept.create-notes'],
        beside: ['refused.', 'conventions.types.', 'relations.defect.'],
      },
      spec: '§7.2 (400: validation error), §7.1',
      subtle: true,
      description:
        "A notes request refused 400 for one note's invalid field still stores the request's valid notes (each note is validated and stored in turn).",
      level: 'SHOULD',
      why: '§7.2 answers 400 for the request, and per-note statuses exist only for the 201, but the spec does not state that the valid notes of a refused request are not kept: a strong reading, judged by refused.validation.valid-items-not-kept.*',
    },
    {
      around: {
        createNotes: async (req, _env, next) => {
          const r = await next(req);
          const b = body<NotesBody>(req.body);
          if (!isValidationError(r) || !Array.isArray(b.notes)) return r;
          const invalid = new Set(
            r.body.errors
              .map((e) => /^notes\.(\d+)(\.|$)/.exec(e.attr)?.[1])
              .filter((i) => i !== undefined)
              .map(Number),
          );
          const valid = b.notes.filter((_, i) => !invalid.has(i));
          if (invalid.size && valid.length) await next({ ...req, body: { ...clone(b), notes: clone(valid) } });
          return r;
        },
      },
    },
  ),
];
