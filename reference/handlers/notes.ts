/** §4.2 notes: add notes to an imported account, with the dedup rule 2. */
import type { EndpointId } from '../../core/spec/index.js';
import { strictModel } from '../../core/spec/index.js';
import { formatDateTime, yieldToOthers } from '../clock.js';
import type { StoredNote } from '../store.js';
import {
  type Handler,
  accountLookedUpFirst,
  documentPathsOf,
  importedAccountOr404,
  isReply,
  localNow,
  parseBody,
  reply,
} from './shared.js';

type IncomingNote = {
  body?: string;
  created_at?: string;
  is_pinned?: boolean;
  document_paths?: { document_path?: string }[];
};

/** The notes of an account grouped by what rule 2 compares, so that a duplicate is found in one lookup. */
interface NoteIndex {
  /** The array indexed and how far: notes are only ever appended between two requests. */
  notes: StoredNote[];
  /** How notes without a body are compared (a server's choice). */
  bodyless: Bodyless;
  indexed: number;
  last?: StoredNote;
  groups: Map<string, { first: StoredNote; byCreatedAt: Map<string, StoredNote> }>;
}

type Bodyless = 'document_paths' | 'body';

/**
 * §4.2 notes rule 2: "A note is created only if no note on the account has the same body and, when
 * given, the same created_at." A note sent without `created_at` therefore matches any note with its
 * body. For a note without a body (document paths only) the body comparison alone would match every
 * other body-less note, so its document paths are compared too (the spec does not show this case;
 * the other legal reading, any two absent bodies are "the same body", is a choice). This is the key
 * of that comparison.
 */
const noteKey = (body: string | null, paths: readonly string[], bodyless: Bodyless) =>
  body !== null ? `b${body}` : bodyless === 'body' ? 'n' : `p${JSON.stringify(paths)}`;

const indexes = new WeakMap<StoredNote[], NoteIndex>();

/**
 * The index of `notes`, brought up to date. Keyed by the array itself: code around the handler
 * that swaps an account's notes for a filtered copy gets an index of its own. A list that shrank or whose last
 * indexed note changed (anything but appending) is indexed afresh.
 */
function noteIndex(notes: StoredNote[], bodyless: Bodyless): NoteIndex {
  let index = indexes.get(notes);
  if (
    !index ||
    index.bodyless !== bodyless ||
    index.indexed > notes.length ||
    (index.indexed > 0 && notes[index.indexed - 1] !== index.last)
  ) {
    index = { notes, bodyless, indexed: 0, groups: new Map() };
    indexes.set(notes, index);
  }
  while (index.indexed < notes.length) remember(index, notes[index.indexed]);
  return index;
}

const keyOf = (note: StoredNote, bodyless: Bodyless) => noteKey(note.body, note.documentPaths, bodyless);

/** Indexes the next note of the list. */
function remember(index: NoteIndex, note: StoredNote): void {
  index.indexed++;
  index.last = note;
  const key = keyOf(note, index.bodyless);
  const group = index.groups.get(key);
  if (!group) index.groups.set(key, { first: note, byCreatedAt: new Map([[note.createdAt, note]]) });
  else if (!group.byCreatedAt.has(note.createdAt)) group.byCreatedAt.set(note.createdAt, note);
}

/** The first note of the account that rule 2 calls the same, found by key instead of by a scan. */
function findSameNote(index: NoteIndex, note: IncomingNote): StoredNote | undefined {
  const body = note.body ?? null;
  const group = index.groups.get(noteKey(body, documentPathsOf(note.document_paths), index.bodyless));
  if (!group) return undefined;
  return note.created_at === undefined ? group.first : group.byCreatedAt.get(note.created_at);
}

/** Past this many notes, validating and storing them are separate turns of the event loop. */
const MANY_NOTES = 1000;

export const createNotes: Handler = async (req, env) => {
  const early = accountLookedUpFirst(req.body, env);
  if (early) return early;
  const request = parseBody(strictModel.NotesRequest, req.body, env);
  if (isReply(request)) return request;
  if (request.notes.length > MANY_NOTES) await yieldToOthers();
  const account = importedAccountOr404(env, request.import_supplier, request.external_account_number);
  if (isReply(account)) return account;

  // Keyed: 60k notes in one request take 60k lookups, not 60k x 60k comparisons (§4.2 notes rule 2).
  const index = noteIndex(account.notes, env.choices.bodylessNotesMatch);
  // One request, one "current time" (§4.2 notes rule 3), formatted once rather than per note.
  const now = formatDateTime(localNow(env));
  // §2.1: a body-less note's body carries no data: null, or omitted (a server's choice).
  const omit = env.choices.emptyResultFields === 'omit';
  const result = (created_at: string, body: string | null, status: string) =>
    body === null && omit ? { created_at, status } : { created_at, body, status };
  const results = request.notes.map((note) => {
    const existing = findSameNote(index, note);
    if (existing) {
      const createdAt = env.choices.existingNoteCreatedAt === 'sent' ? (note.created_at ?? now) : existing.createdAt;
      return result(createdAt, existing.body, 'NOTE_ALREADY_EXISTS');
    }
    // §4.2 notes rule 3: created_at, when absent, is the current time.
    const stored: StoredNote = {
      body: note.body ?? null,
      createdAt: note.created_at ?? now,
      documentPaths: documentPathsOf(note.document_paths),
      isPinned: note.is_pinned ?? false,
    };
    account.notes.push(stored);
    remember(index, stored);
    return result(stored.createdAt, stored.body, 'NOTE_CREATION_SUCCESS');
  });
  return reply(201, results);
};

/** This area's endpoints and their handlers (reference/areas.ts registers the area). */
export const handlers = { createNotes } satisfies Partial<Record<EndpointId, Handler>>;
