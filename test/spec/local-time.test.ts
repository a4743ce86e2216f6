/** §4.2 notes rule 3: a defaulted time is now on some legal clock (core/spec/local-time.ts). */
import { describe, expect, it } from 'vitest';
import { formatOffset, judgeLocalNow } from '../../core/spec/local-time.js';

const NOW = Date.parse('2026-01-15T12:00:00Z');
/** Written as the server would: whole seconds, `Z`, its wall clock `minutes` east of UTC. */
const wall = (minutes: number, extraMs = 0) =>
  new Date(NOW + minutes * 60_000 + extraMs).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('judgeLocalNow', () => {
  it.each([
    [0, 'UTC'],
    [60, 'Madrid in winter'],
    [120, 'Madrid in summer'],
    [-300, 'New York'],
    [345, 'Nepal (+05:45)'],
    [840, 'Kiribati (+14:00)'],
    [-720, 'Baker Island (−12:00)'],
  ])('accepts local time at UTC%s written with Z (%s), and names the offset', (minutes) => {
    const v = judgeLocalNow(wall(minutes), NOW, NOW + 40);
    expect(v).toMatchObject({ ok: true, offsetMinutes: minutes, writtenOffsetMinutes: 0 });
  });

  it('accepts a time written with its true offset, and a zone-less local time', () => {
    expect(judgeLocalNow('2026-01-15T13:00:00+01:00', NOW, NOW)).toMatchObject({ ok: true, offsetMinutes: 60 });
    expect(judgeLocalNow('2026-01-15T13:00:00', NOW, NOW)).toMatchObject({ ok: true, offsetMinutes: 60 });
  });

  it('tolerates clocks a few minutes apart, and a slow request, but not a time off every legal offset', () => {
    expect(judgeLocalNow(wall(60, 3 * 60_000), NOW, NOW)?.ok).toBe(true);
    expect(judgeLocalNow(wall(0, -90_000), NOW - 60_000, NOW + 120_000)?.ok).toBe(true);
    const between = judgeLocalNow(wall(60, 7 * 60_000), NOW, NOW);
    expect(between?.ok).toBe(false);
    expect(between?.offByMs).toBe(7 * 60_000);
  });

  it('refuses 1970, and a time beyond the widest offset', () => {
    expect(judgeLocalNow('1970-01-01T00:00:00Z', NOW, NOW)?.ok).toBe(false);
    expect(judgeLocalNow(wall(15 * 60), NOW, NOW)?.ok).toBe(false);
    expect(judgeLocalNow(wall(-20 * 60), NOW, NOW)?.ok).toBe(false);
  });

  it('reads a time written in the request’s first second as on time (§2.1 writes whole seconds)', () => {
    expect(judgeLocalNow(wall(0), NOW + 900, NOW + 950)?.offByMs).toBe(0);
  });

  it('says nothing of what is no datetime', () => {
    expect(judgeLocalNow('yesterday', NOW, NOW)).toBeUndefined();
    expect(judgeLocalNow('2026-01-15', NOW, NOW)).toBeUndefined();
  });

  it('writes offsets as UTC does', () => {
    expect([60, -210, 0, 345].map(formatOffset)).toEqual(['+01:00', '-03:30', '±00:00', '+05:45']);
  });
});
