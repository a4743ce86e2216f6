/** §4.2 notes as both judges apply them: results paired with notes by body, and rule 2's identity. */
import { describe, expect, it } from 'vitest';
import { pairNoteResults, sameNote } from '../../core/spec/notes.js';

describe('pairing note results with the notes sent', () => {
  it('pairs by body whatever the order of the results', () => {
    expect(
      pairNoteResults([{ body: 'a' }, { body: 'b' }, { body: 'c' }], [{ body: 'c' }, { body: 'a' }, { body: 'b' }]),
    ).toEqual([1, 2, 0]);
  });

  it('pairs notes sharing a body in the order given, and body-less notes with body-less results', () => {
    expect(pairNoteResults([{ body: 'a' }, {}, { body: 'a' }], [{ body: 'a' }, { body: null }, { body: 'a' }])).toEqual(
      [0, 1, 2],
    );
  });

  it('leaves unpaired a note whose body no result, or not as many results, name', () => {
    expect(pairNoteResults([{ body: 'a' }, { body: 'b' }], [{ body: 'a' }, { body: 'B' }])).toEqual([0, undefined]);
    expect(pairNoteResults([{ body: 'a' }, { body: 'a' }], [{ body: 'a' }, { body: 'x' }])).toEqual([
      undefined,
      undefined,
    ]);
  });
});

describe('§4.2 notes rule 2: the same note', () => {
  it('is the same body and, when given, the same created_at', () => {
    expect(sameNote({ body: 'x' }, { body: 'x', createdAt: '2024-01-01T00:00:00Z' })).toBe(true);
    expect(
      sameNote({ body: 'x', createdAt: '2024-01-01T00:00:00Z' }, { body: 'x', createdAt: '2024-01-01T00:00:00Z' }),
    ).toBe(true);
    expect(
      sameNote({ body: 'x', createdAt: '2024-01-02T00:00:00Z' }, { body: 'x', createdAt: '2024-01-01T00:00:00Z' }),
    ).toBe(false);
    expect(sameNote({ body: 'x' }, { body: 'y' })).toBe(false);
  });
});
