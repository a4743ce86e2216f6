/** §4.2 Data added to an imported account — notes: creation, the dedup rule, created_at, 404s. */
import { CLOCK_TOLERANCE_MS, formatOffset, judgeLocalNow } from '../core/spec/local-time.js';
import { pairNoteResults } from '../core/spec/notes.js';
import type { RuleContext } from '../core/engine/context.js';
import { defineRules } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import type { HttpResponse } from '../core/http/client.js';
import { model } from '../core/spec/index.js';
import { LARGE_REQUEST } from '../generators/index.js';
import { withinDeclared } from '../core/engine/limits.js';
import { sendInsideLimits } from '../core/engine/inside-limits.js';
import { expectedAttr, reportsDefectAt } from './attrs.js';
import { type AccountRef, accountKey, errorsOf } from './support.js';

export type NoteIn = {
  body?: string;
  created_at?: string;
  is_pinned?: boolean;
  unpin_at?: string;
  document_paths?: { document_path: string }[];
};

/**
 * A note as the suite sends it: the rule's fields, completed with the notes template's other
 * documented fields (is_pinned, unpin_at, document_paths) — an implementation may require any of
 * them (§2.3: required flags not shown). body and created_at are the dedup key (§4.2 notes rule 2)
 * and stay exactly as the rule wrote them, and a body-less note (a rule about content) is not
 * completed at all.
 */
export function completeNote(ctx: RuleContext, note: NoteIn): NoteIn {
  if (note.body === undefined) return note;
  const {
    body: _body,
    created_at: _createdAt,
    ...extras
  } = ctx.preconditions.payloads.item<NoteIn>('notes', 'notes', ctx.ids);
  return { ...extras, ...note };
}

async function postNotes(ctx: RuleContext, account: AccountRef, notes: NoteIn[], step: string): Promise<HttpResponse> {
  return ctx.api.call('createNotes', {
    body: { ...accountKey(account.supplier, account.ext), notes: notes.map((n) => completeNote(ctx, n)) },
    step,
  });
}

/**
 * The result of each note sent, in the order sent: paired by body (core/spec/notes.ts, the same
 * pairing the traffic checks use); when bodies cannot tell them apart, in the order given.
 */
export function alignNotes<R extends { body?: string | null }>(notes: readonly NoteIn[], results: readonly R[]): R[] {
  const pairs = pairNoteResults(notes, results);
  if (pairs.some((i) => i === undefined)) return [...results]; // bodies not echoed as sent: the order given
  return pairs.map((i) => results[i as number]);
}

/** Posts notes to an account that must take them, and returns the per-note statuses (in the order sent). */
async function statuses(ctx: RuleContext, account: AccountRef, notes: NoteIn[], step: string): Promise<string[]> {
  const res = await postNotes(ctx, account, notes, step);
  ctx.expect.status(res, 201, step);
  const body = ctx.expect.body(res, model.NotesResponse, 'notes response');
  ctx.expect.equal(body.length, notes.length, 'one result per note sent', res);
  return alignNotes(notes, body).map((n) => n.status);
}

/** Parses a datetime as the service wrote it; a zone-less one is read as UTC and flagged. */
function instant(value: string): { ms: number; zoned: boolean } {
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(value);
  return { ms: Date.parse(zoned ? value : `${value}Z`), zoned };
}

export default defineRules(
  'notes',
  [
    {
      id: 'notes.create.one-result-per-note',
      spec: '§4.2 notes',
      level: 'MUST',
      title:
        'Adding notes answers 201 with one {created_at, body, status} per note, each NOTE_CREATION_SUCCESS for new notes',
      async check(ctx) {
        const a = await ctx.given.imported();
        const notes = [
          { body: ctx.ids.noteBody('first') },
          { body: ctx.ids.noteBody('second'), created_at: '2024-03-04T05:06:07Z' },
          { body: ctx.ids.noteBody('third'), is_pinned: true, unpin_at: '2030-01-01T00:00:00Z' },
        ];
        const res = await postNotes(ctx, a, notes, 'add three notes');
        ctx.expect.status(res, 201);
        const body = ctx.expect.body(res, model.NotesResponse, 'notes response');
        // The order of the results is not stated: they are matched to the notes by body.
        const byBody = (xs: { body?: string | null }[]) => xs.map((n) => n.body ?? '').sort();
        ctx.expect.equal(byBody(body), byBody(notes), 'one result per note, naming its body', res);
        ctx.expect.equal(
          body.map((n) => n.status),
          notes.map(() => 'NOTE_CREATION_SUCCESS'),
          'every new note is created',
          res,
        );
      },
    },
    {
      id: 'notes.create.results-order',
      spec: '§4.2 notes',
      level: 'INFO',
      why: 'The response is an "array of {created_at, body, status}"; that its order follows the notes sent is not stated.',
      title: 'Whether the results come in the order the notes were sent',
      async check(ctx) {
        const a = await ctx.given.imported();
        const notes = [
          { body: ctx.ids.noteBody('one') },
          { body: ctx.ids.noteBody('two') },
          { body: ctx.ids.noteBody('three') },
        ];
        const res = await postNotes(ctx, a, notes, 'add three notes');
        ctx.expect.status(res, 201);
        const bodies = ctx.expect.body(res, model.NotesResponse, 'notes response').map((n) => n.body);
        ctx.observe(
          JSON.stringify(bodies) === JSON.stringify(notes.map((n) => n.body))
            ? 'results in the order sent'
            : `results in another order: ${JSON.stringify(bodies)}`,
        );
      },
    },
    {
      id: 'notes.dedup.same-body-and-created-at',
      spec: '§4.2 notes rule 2',
      level: 'MUST',
      title: 'A note with the same body and created_at as a note on the account is not created again',
      async check(ctx) {
        const a = await ctx.given.imported();
        const note = { body: ctx.ids.noteBody('dedup'), created_at: '2024-01-02T03:04:05Z' };
        ctx.expect.equal(
          await statuses(ctx, a, [note], 'first time'),
          ['NOTE_CREATION_SUCCESS'],
          'the first note is created',
        );
        ctx.expect.equal(
          await statuses(ctx, a, [note], 'same body and created_at'),
          ['NOTE_ALREADY_EXISTS'],
          'the same note again',
        );
      },
    },
    {
      id: 'notes.dedup.other-created-at-creates',
      spec: '§4.2 notes rule 2',
      level: 'MUST',
      title: 'A note with the same body but a different created_at is created',
      async check(ctx) {
        const a = await ctx.given.imported();
        const body = ctx.ids.noteBody('same body');
        ctx.expect.equal(
          await statuses(ctx, a, [{ body, created_at: '2024-01-02T03:04:05Z' }], 'first time'),
          ['NOTE_CREATION_SUCCESS'],
          'the first note',
        );
        ctx.expect.equal(
          await statuses(ctx, a, [{ body, created_at: '2024-01-02T03:04:06Z' }], 'one second later'),
          ['NOTE_CREATION_SUCCESS'],
          'the same body at another created_at is a new note',
        );
      },
    },
    {
      id: 'notes.dedup.no-created-at-matches-body',
      spec: '§4.2 notes rule 2',
      level: 'MUST',
      title: 'A note sent without created_at matches any note with the same body',
      async check(ctx) {
        const a = await ctx.given.imported();
        const body = ctx.ids.noteBody('dated earlier');
        ctx.expect.equal(
          await statuses(ctx, a, [{ body, created_at: '2023-06-07T08:09:10Z' }], 'with created_at'),
          ['NOTE_CREATION_SUCCESS'],
          'the first note',
        );
        ctx.expect.equal(
          await statuses(ctx, a, [{ body }], 'same body without created_at'),
          ['NOTE_ALREADY_EXISTS'],
          'the same body without created_at',
        );
      },
    },
    {
      id: 'notes.dedup.other-body-creates',
      spec: '§4.2 notes rule 2',
      level: 'MUST',
      title: 'A note whose body differs from every note on the account is created',
      async check(ctx) {
        const a = await ctx.given.imported();
        const body = ctx.ids.noteBody('body');
        const at = '2024-01-02T03:04:05Z';
        await statuses(ctx, a, [{ body, created_at: at }], 'first note');
        ctx.expect.equal(
          await statuses(
            ctx,
            a,
            [{ body: `${body}.`, created_at: at }, { body: body.toUpperCase() }],
            'bodies that differ',
          ),
          ['NOTE_CREATION_SUCCESS', 'NOTE_CREATION_SUCCESS'],
          'bodies that differ are new notes',
        );
      },
    },
    {
      id: 'notes.dedup.within-one-request',
      spec: '§4.2 notes rule 2',
      level: 'SHOULD',
      why: 'The rule speaks of notes "on the account"; whether a note created earlier in the same request counts depends on processing order, which is not shown.',
      title: 'Two identical notes in one request create one note',
      async check(ctx) {
        const a = await ctx.given.imported();
        const note = { body: ctx.ids.noteBody('twice'), created_at: '2024-05-06T07:08:09Z' };
        // The two results are indistinguishable (same body), and their order is not stated.
        ctx.expect.equal(
          (await statuses(ctx, a, [note, note], 'the same note twice')).sort(),
          ['NOTE_ALREADY_EXISTS', 'NOTE_CREATION_SUCCESS'],
          'one copy created, the other already exists',
        );
      },
    },
    {
      id: 'notes.create.success-is-stored',
      // §8 "payload size limits: not shown": a refusal naming the notes list is a discovered limit (docs/freedoms.md).
      spec: '§4.2 notes rule 2, §3 creation statuses, §8',
      level: 'MUST',
      title: `Every note of a ${LARGE_REQUEST}-note request answered NOTE_CREATION_SUCCESS is on the account: sent again, each is NOTE_ALREADY_EXISTS`,
      async check(ctx) {
        const a = await ctx.given.imported();
        // Past the 100 items a request often takes (§8: payload size limits not shown), or as many as
        // the configuration declares the target takes.
        const batch = (label: string, count: number): NoteIn[] =>
          Array.from({ length: count }, (_, i) => ({
            body: ctx.ids.noteBody(`${label} ${i}`),
            created_at: `2023-04-05T06:07:${String(i % 60).padStart(2, '0')}Z`,
          }));
        const declared = withinDeclared({ notes: batch('batch', LARGE_REQUEST) }, ctx.declaredLimits);
        // A refusal naming the notes list is a limit the spec leaves open: the batch is sent again
        // smaller, with new bodies (whether a refused request kept some notes is not shown).
        const first = await sendInsideLimits(
          ctx,
          'createNotes',
          declared,
          ({ notes }, replay) =>
            postNotes(
              ctx,
              a,
              notes,
              replay ? `${notes.length} new notes (replay ${replay})` : `${notes.length} new notes`,
            ),
          `${declared.notes.length} new notes`,
          ({ notes }) => ({ notes: batch('batch again', notes.length) }),
        );
        const notes = first.sent.notes;
        ctx.expect.status(first.res, 201, `${notes.length} new notes`);
        const body = ctx.expect.body(first.res, model.NotesResponse, 'notes response');
        ctx.expect.equal(body.length, notes.length, 'one result per note sent', first.res);
        const created = alignNotes(notes, body).filter((n) => n.status === 'NOTE_CREATION_SUCCESS').length;
        ctx.expect.equal(created, notes.length, 'every new note is created', first.res);
        ctx.expect.equal(
          await statuses(ctx, a, notes, 'the same notes again'),
          notes.map(() => 'NOTE_ALREADY_EXISTS'),
          'every note the first answer said was created exists',
        );
      },
    },
    {
      id: 'notes.dedup.imported-notes-count',
      spec: '§4.2 notes rule 2, §2.3, §1',
      // MUST: §1 states the staged data (§2.3 notes included) is processed into the live account, so its
      // notes are notes "on the account".
      level: 'MUST',
      title: 'A note that came with the account payload counts as a note on the account',
      async check(ctx) {
        const account = ctx.given.account();
        const note = { body: ctx.ids.noteBody('migrated'), created_at: '2022-02-03T04:05:06Z' };
        account.notes = [note];
        const a = await ctx.given.imported(account);
        ctx.expect.equal(
          await statuses(ctx, a, [note], 'the migrated note again'),
          ['NOTE_ALREADY_EXISTS'],
          'the migrated note exists',
        );
      },
    },
    {
      id: 'notes.created-at.kept',
      spec: '§4.2 notes, §2.3 note',
      level: 'MUST',
      title: 'A note created with created_at reports that same instant',
      async check(ctx) {
        const a = await ctx.given.imported();
        const res = await postNotes(
          ctx,
          a,
          [{ body: ctx.ids.noteBody('dated'), created_at: '2021-07-08T09:10:11Z' }],
          'add a dated note',
        );
        ctx.expect.status(res, 201);
        const [note] = ctx.expect.body(res, model.NotesResponse, 'notes response');
        const { ms, zoned } = instant(note.created_at);
        ctx.expect.that(
          zoned
            ? ms === Date.parse('2021-07-08T09:10:11Z')
            : Math.abs(ms - Date.parse('2021-07-08T09:10:11Z')) <= 14 * 3600_000,
          `created_at ${note.created_at} is not the instant sent (2021-07-08T09:10:11Z)`,
          { res, expected: '2021-07-08T09:10:11Z', actual: note.created_at },
        );
      },
    },
    {
      id: 'notes.created-at.defaults-to-now',
      spec: '§4.2 notes rule 3, §2.1',
      level: 'MUST',
      title:
        'A note created without created_at gets the current local time: now at a legal offset (within ±14 h, on the quarter-hour grid)',
      async check(ctx) {
        const a = await ctx.given.imported();
        const before = Date.now();
        const res = await postNotes(ctx, a, [{ body: ctx.ids.noteBody('undated') }], 'add an undated note');
        const after = Date.now();
        ctx.expect.status(res, 201);
        const [note] = ctx.expect.body(res, model.NotesResponse, 'notes response');
        // "The current local time" in a zone the spec does not show (docs/freedoms.md): now on some
        // legal clock, which core/spec/local-time.ts holds it to; the offset seen is recorded.
        const local = judgeLocalNow(note.created_at, before, after);
        const now = new Date(before).toISOString().replace(/\.\d{3}Z$/, 'Z');
        ctx.expect.that(
          local?.ok === true,
          local
            ? `created_at ${note.created_at} is not the current time at any legal offset (now ${now}; ${Math.round(local.offByMs / 60_000)} min from the nearest of UTC−14:00…UTC+14:00 in quarter hours, beyond the ${CLOCK_TOLERANCE_MS / 60_000} min the run allows between clocks)`
            : `created_at ${JSON.stringify(note.created_at)} is not a datetime`,
          { res, expected: `now (${now}) at an offset of UTC−14:00…UTC+14:00`, actual: note.created_at },
        );
        if (local)
          ctx.observe(
            `the defaulted created_at ${note.created_at} is the current time at UTC${formatOffset(local.offsetMinutes)}${local.offsetMinutes !== local.writtenOffsetMinutes ? ` (written as UTC${formatOffset(local.writtenOffsetMinutes)}: the server's local time)` : ''}`,
          );
      },
    },
    {
      id: 'notes.content.required',
      spec: '§4.2 notes rule 4, §7.1',
      level: 'MUST',
      title:
        'A note with neither body nor document_paths is refused with 400, pointing at the note (or under non_field_errors, §7.1)',
      async check(ctx) {
        const a = await ctx.given.imported();
        const res = await postNotes(
          ctx,
          a,
          [{ body: ctx.ids.noteBody('fine') }, { is_pinned: true, created_at: '2024-01-01T00:00:00Z' }],
          'a note without body or document_paths',
        );
        ctx.expect.validationError(res, 'a note without body or document_paths (§4.2 notes rule 4)');
        const { attrs } = errorsOf(res);
        ctx.expect.that(
          reportsDefectAt('createNotes', attrs, 'notes.1', true),
          `an error must point at ${expectedAttr('createNotes', 'notes.1')}, got ${JSON.stringify(attrs)}`,
          { res, expected: 'notes.1', actual: attrs },
        );
      },
    },
    {
      id: 'notes.content.document-only',
      spec: '§4.2 notes rules 2 and 4, §2.3 note',
      level: 'MUST',
      title: 'A note with document_paths and no body is created on an account that has no body-less note',
      async check(ctx) {
        // Rule 2 compares bodies: on an account that already carries a note without body, two absent
        // bodies may be "the same body" and NOTE_ALREADY_EXISTS is true to it. So the account is
        // migrated with only the notes of its payload that have a body.
        const account = ctx.given.account();
        const bodied = (account.notes ?? []).filter((n) => typeof n.body === 'string' && n.body !== '');
        if (bodied.length) account.notes = bodied;
        else delete account.notes;
        const a = await ctx.given.imported(account);
        const paths = [{ document_path: `letters/${ctx.ids.other('X')}.pdf` }];
        ctx.expect.equal(
          await statuses(ctx, a, [{ document_paths: paths }], 'a document-only note'),
          ['NOTE_CREATION_SUCCESS'],
          'the document-only note is created',
        );
      },
    },
    {
      id: 'notes.404.staged-only',
      spec: '§4.2 notes rule 1, §7.2',
      level: 'MUST',
      title: 'Notes for an account that is staged but not imported answer 404',
      needs: ['ongoingSupplier'],
      async check(ctx) {
        const a = await ctx.given.staged();
        ctx.expect.status(
          await postNotes(ctx, a, [{ body: ctx.ids.noteBody('too early') }], 'notes for a staged account'),
          404,
        );
      },
    },
    {
      id: 'notes.404.wrong-supplier',
      spec: '§4.2 notes rule 5, §7.2',
      level: 'MUST',
      title: 'Notes with a wrong supplier code answer 404',
      async check(ctx) {
        const a = await ctx.given.imported();
        ctx.expect.status(
          await postNotes(
            ctx,
            { supplier: `${a.supplier}-${ctx.ids.other('X')}`, ext: a.ext },
            [{ body: ctx.ids.noteBody('x') }],
            'notes with a wrong supplier code',
          ),
          404,
        );
      },
    },
    {
      id: 'notes.404.wrong-supplier-existing',
      spec: '§4.2 notes rule 5, §7.2',
      level: 'MUST',
      title: 'Notes naming another existing supplier answer 404 (accounts belong to their supplier)',
      needs: ['ongoingSupplier', 'otherOngoingSupplier', 'operationsTeam'],
      async check(ctx) {
        const a = await ctx.given.imported();
        ctx.expect.status(
          await postNotes(
            ctx,
            { supplier: ctx.preconditions.otherOngoingSupplier, ext: a.ext },
            [{ body: ctx.ids.noteBody('x') }],
            'notes under the other supplier',
          ),
          404,
        );
      },
    },
    {
      id: 'notes.404.wrong-number',
      spec: '§4.2 notes rule 5, §7.2',
      level: 'MUST',
      title: 'Notes with a wrong external account number answer 404',
      async check(ctx) {
        const a = await ctx.given.imported();
        ctx.expect.status(
          await postNotes(
            ctx,
            { supplier: a.supplier, ext: `${a.ext}-X` },
            [{ body: ctx.ids.noteBody('x') }],
            'notes with a wrong external number',
          ),
          404,
        );
      },
    },
  ],
  { endpoints: ['createNotes'], tags: ['notes'], needs: TO_IMPORT },
);
