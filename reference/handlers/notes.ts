/** §4.2 notes: add notes to an imported account, with the dedup rule 2. */
import { strictModel } from '../../src/spec/index.js';
import { formatDateTime } from '../clock.js';
import type { StoredNote } from '../store.js';
import { type Handler, accountLookedUpFirst, importedAccountOr404, isReply, parseBody, reply } from './shared.js';

type IncomingNote = { body?: string; created_at?: string; is_pinned?: boolean; document_paths?: { document_path?: string }[] };

/**
 * §4.2 notes rule 2: "A note is created only if no note on the account has the same body and, when
 * given, the same created_at." A note sent without `created_at` therefore matches any note with its
 * body. For a note without a body (document paths only) the body comparison alone would match every
 * other body-less note, so its document paths are compared too (the spec does not show this case).
 */
export function sameNote(existing: StoredNote, note: IncomingNote, bodyless: 'document_paths' | 'body' = 'document_paths'): boolean {
  const body = note.body ?? null;
  if (existing.body !== body) return false;
  if (note.created_at !== undefined && existing.createdAt !== note.created_at) return false;
  // The other legal reading (a choice): two absent bodies are "the same body".
  if (body === null && bodyless === 'document_paths') {
    const paths = (note.document_paths ?? []).map((d) => d.document_path ?? '');
    return paths.length === existing.documentPaths.length && paths.every((p, i) => p === existing.documentPaths[i]);
  }
  return true;
}

export const createNotes: Handler = (req, env) => {
  const early = accountLookedUpFirst(req.body, env);
  if (early) return early;
  const request = parseBody(strictModel.NotesRequest, req.body, env);
  if (isReply(request)) return request;
  const account = importedAccountOr404(env, request.import_supplier, request.external_account_number);
  if (isReply(account)) return account;

  const results = request.notes.map((note) => {
    const existing = account.notes.find((n) => sameNote(n, note, env.choices.bodylessNotesMatch));
    if (existing) {
      const createdAt = env.choices.existingNoteCreatedAt === 'sent' ? (note.created_at ?? formatDateTime(env.now())) : existing.createdAt;
      return { created_at: createdAt, body: existing.body, status: 'NOTE_ALREADY_EXISTS' };
    }
    // §4.2 notes rule 3: created_at defaults to the current time.
    const stored: StoredNote = {
      body: note.body ?? null,
      createdAt: note.created_at ?? formatDateTime(env.now()),
      documentPaths: (note.document_paths ?? []).map((d) => d.document_path ?? ''),
      isPinned: note.is_pinned ?? false,
    };
    account.notes.push(stored);
    return { created_at: stored.createdAt, body: stored.body, status: 'NOTE_CREATION_SUCCESS' };
  });
  return reply(201, results);
};
