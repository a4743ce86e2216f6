/**
 * §4.2 notes, as statements both kinds of judge apply: the rules, which send the notes, and the
 * traffic checks, which watch someone else send them. One function each, so the two cannot read the
 * spec differently (they once did: the traffic judge paired results by position).
 */

/** A note's body as a key: a body-less note (§2.3: `body` or `document_paths`) by an absent, null or empty body. */
const bodyKey = (body: unknown) => (body === undefined || body === null || body === '' ? '\u0000' : String(body));

/**
 * Which result of a 201 answers which note sent. §4.2 shows the results as "array of {created_at,
 * body, status}" without stating their order (docs/freedoms.md: the variant reverses it), so a note
 * is paired with a result naming its body; where as many notes as results share a body they are
 * paired in the order given. The index of each note's result, or undefined for a note whose body no
 * result, or not as many results, name: that note cannot be judged by its result.
 */
export function pairNoteResults(
  notes: readonly { body?: unknown }[],
  results: readonly { body?: unknown }[],
): (number | undefined)[] {
  const notesPer = new Map<string, number>();
  for (const n of notes) notesPer.set(bodyKey(n?.body), (notesPer.get(bodyKey(n?.body)) ?? 0) + 1);
  const resultsPer = new Map<string, number[]>();
  results.forEach((r, i) => {
    const key = bodyKey(r?.body);
    const list = resultsPer.get(key);
    if (list) list.push(i);
    else resultsPer.set(key, [i]);
  });
  const taken = new Map<string, number>();
  return notes.map((n) => {
    const key = bodyKey(n?.body);
    const candidates = resultsPer.get(key) ?? [];
    if (candidates.length !== notesPer.get(key)) return undefined;
    const k = taken.get(key) ?? 0;
    taken.set(key, k + 1);
    return candidates[k];
  });
}

/**
 * §4.2 notes rule 2: "A note is created only if no note on the account has the same `body` and, when
 * given, the same `created_at`." Whether `earlier`, a note on the account, makes `note` one that
 * already exists.
 */
export const sameNote = (
  note: { body: string; createdAt?: string },
  earlier: { body: string; createdAt?: string },
): boolean => earlier.body === note.body && (note.createdAt === undefined || earlier.createdAt === note.createdAt);

/**
 * §4.2 notes rule 2 over an account's notes: the earlier note that makes `note` one that already
 * exists (it must answer NOTE_ALREADY_EXISTS, not be created), or undefined (it is created).
 */
export const noteOnAccount = <N extends { body: string; createdAt?: string }>(
  notes: readonly N[],
  note: { body: string; createdAt?: string },
): N | undefined => notes.find((earlier) => sameNote(note, earlier));

/** A note of one request, with whether its result says it was created. */
export interface SentNote {
  /** Its index in the request. */
  i: number;
  body: string;
  createdAt?: string;
  created: boolean;
}

/** One case §4.2 notes rule 2 judges in a request's results, and whether they break it. */
export interface DedupCase<N> {
  /** The notes of the request it is about: one created again, or the same note sent more than once. */
  notes: SentNote[];
  /** The note already on the account that the one sent repeats. */
  earlier?: N;
  broken: boolean;
}

/**
 * §4.2 notes rule 2 over one request's results, given the notes on the account before it
 * (`earlier`): a note that repeats one of them must not be created; the same note sent twice in the
 * request is created once at most, whichever order the service took them in (whether the first of
 * them counts as "on the account" for the second is not shown).
 */
export function dedupCases<N extends { body: string; createdAt?: string }>(
  earlier: readonly N[],
  sent: readonly SentNote[],
): DedupCase<N>[] {
  return sent.flatMap((note): DedupCase<N>[] => {
    const same = noteOnAccount(earlier, note);
    if (same) return [{ notes: [note], earlier: same, broken: note.created }];
    const twins = sent.filter((t) => t.body === note.body && t.createdAt === note.createdAt);
    if (twins.length < 2 || twins[0] !== note) return [];
    return [{ notes: twins, broken: twins.filter((t) => t.created).length > 1 }];
  });
}
