/**
 * §4.2 notes rule 3: "`created_at` defaults to the current local time". The server's zone is not
 * shown, and §2.1 writes datetimes `YYYY-MM-DDTHH:MM:SSZ`, so a faithful server in Madrid writes its
 * local time with a `Z`: an hour from UTC. What a client can demand of a time the server wrote as
 * "now" is only that it is now on some legal clock: now shifted by an offset of the quarter-hour
 * grid every zone in use keeps (UTC+05:45, UTC+08:45 and UTC+12:45 included), at most 14 hours
 * either way (UTC−12 to UTC+14), give or take the run's tolerance for clocks that disagree. 1970, a
 * time 20 hours away or one 7 minutes off every legal offset is no local time of now.
 */

/** The grid of the offsets of zones in use. */
export const QUARTER_HOUR_MS = 15 * 60_000;
/** The widest offset of a zone in use (UTC+14, Kiribati; UTC−12 is within it). */
export const WIDEST_OFFSET_MS = 14 * 3_600_000;
/**
 * How far the server's clock may be from the runner's, beyond its zone: the run's tolerance, under
 * half the grid so that the offset seen is one offset.
 */
export const CLOCK_TOLERANCE_MS = 5 * 60_000;

export interface LocalNow {
  /** Whether the time written is now at some legal offset, within the tolerance. */
  ok: boolean;
  /** The offset the server appears to use, in minutes east of UTC: its zone's, as near as the grid allows. */
  offsetMinutes: number;
  /** How far the time is from now at the nearest legal offset (0 within the request's own interval). */
  offByMs: number;
  /** The offset the value carries in its text (0 for `Z` or none): written as local time, or converted. */
  writtenOffsetMinutes: number;
}

/** `+01:00` for 60, `−03:30` for −210, `±00:00` for 0. */
export function formatOffset(minutes: number): string {
  const sign = minutes > 0 ? '+' : minutes < 0 ? '-' : '±';
  const m = Math.abs(minutes);
  return `${sign}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** Minutes of the offset a datetime is written with: `Z` and a zone-less value read as 0. */
function writtenOffset(value: string): number {
  const m = /([+-])(\d{2}):?(\d{2})$/.exec(value);
  if (!m || !/T/.test(value)) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** Distance from `x` to the interval [lo, hi]. */
const distance = (x: number, lo: number, hi: number) => (x < lo ? lo - x : x > hi ? x - hi : 0);

/**
 * Judges `written`, a time the server wrote as "now" while a request was in flight between `sentAt`
 * and `answeredAt` (epoch ms on the runner's clock), or undefined when it is no datetime at all.
 * The value is read as the instant it names (a zone-less one as if it were UTC); the offset that
 * brings it nearest to the request's interval is the server's apparent zone offset, plus the one
 * it wrote.
 */
export function judgeLocalNow(
  written: string,
  sentAt: number,
  answeredAt: number,
  toleranceMs = CLOCK_TOLERANCE_MS,
): LocalNow | undefined {
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(written);
  const ms = Date.parse(zoned ? written : `${written}Z`);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(written) || Number.isNaN(ms)) return undefined;
  // §2.1 writes whole seconds: a time written in the request's first second may read up to 1 s early.
  const lo = sentAt - 1000;
  const hi = answeredAt;
  const steps = WIDEST_OFFSET_MS / QUARTER_HOUR_MS;
  let best = { k: 0, off: Number.POSITIVE_INFINITY };
  for (let k = -steps; k <= steps; k++) {
    const off = distance(ms - k * QUARTER_HOUR_MS, lo, hi);
    if (off < best.off || (off === best.off && Math.abs(k) < Math.abs(best.k))) best = { k, off };
  }
  const writtenOffsetMinutes = writtenOffset(written);
  return {
    ok: best.off <= toleranceMs,
    offsetMinutes: (best.k * QUARTER_HOUR_MS) / 60_000 + writtenOffsetMinutes,
    offByMs: best.off,
    writtenOffsetMinutes,
  };
}
