/**
 * Calendar arithmetic on §2.1 date strings (`YYYY-MM-DD`) and datetimes (`YYYY-MM-DDTHH:MM:SSZ`).
 * Everything is UTC and string-based, so generated values never depend on the machine's zone.
 */
import fc from 'fast-check';
import { orEdge } from './edges.js';
import { remembered } from './remembered.js';

const DAY_MS = 86_400_000;

// Generation converts the same few thousand dates back and forth hundreds of thousands of times,
// and Date parsing and formatting dominated it.
const dayNumber = remembered((date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS);
const fromDayNumber = remembered((day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10));

export const addDays = (date: string, days: number): string => fromDayNumber(dayNumber(date) + days);

export const daysBetween = (from: string, to: string): number => dayNumber(to) - dayNumber(from);

/** The first day of the month `months` after the month of `date`. */
export function addMonths(date: string, months: number): string {
  const first = date.indexOf('-');
  const second = date.indexOf('-', first + 1);
  const year = Number(date.slice(0, first));
  const month = Number(second < 0 ? date.slice(first + 1) : date.slice(first + 1, second));
  const index = year * 12 + (month - 1) + months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

export const endOfMonth = (date: string): string => addDays(addMonths(date, 1), -1);

export const dateTime = (date: string, seconds = 0): string => {
  const hh = String(Math.floor(seconds / 3600)).padStart(2, '0');
  const mm = String(Math.floor((seconds % 3600) / 60)).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return `${date}T${hh}:${mm}:${ss}Z`;
};

/**
 * The edge days in `[from, to]`: month ends (Feb 29 in a leap year), and the first day of a year.
 * Every date generator draws one of them once in five (generators/edges.ts).
 */
export const edgeDays = remembered((range: string): readonly string[] => {
  const [from, to] = range.split('|');
  const days: string[] = [];
  for (let month = addMonths(from, 0); month <= to; month = addMonths(month, 1)) {
    if (month >= from && month.endsWith('-01-01')) days.push(month);
    const end = endOfMonth(month);
    if (end >= from && end <= to) days.push(end);
  }
  return days;
});

/** A day in `[from, to]`; once in five an edge day in it, when it has one. */
export function dayBetween(from: string, to: string): fc.Arbitrary<string> {
  const typical = fc
    .integer({ min: dayNumber(from), max: Math.max(dayNumber(from), dayNumber(to)) })
    .map(fromDayNumber);
  const edges = edgeDays(`${from}|${to}`);
  return edges.length ? orEdge(typical, fc.constantFrom(...edges)) : typical;
}

const monthIndex = (date: string): number => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;

/** The first day of a month in `[from, to]`. */
export const monthBetween = (from: string, to: string): fc.Arbitrary<string> =>
  fc.integer({ min: 0, max: Math.max(0, monthIndex(to) - monthIndex(from)) }).map((n) => addMonths(from, n));

/** A time of day in office hours, in seconds after midnight, on the minute. */
export const officeHours: fc.Arbitrary<number> = fc
  .integer({ min: 8 * 60, max: 19 * 60 })
  .map((minutes) => minutes * 60);

/** Office hours, or once in five the first or the last second of the day (on Dec 31, the year's). */
export const timeOfDay: fc.Arbitrary<number> = orEdge(officeHours, fc.constantFrom(0, 86_399));

const MONTH_NAMES = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

/** `mayo de 2024`, as Spanish bills and notes name a billing month. */
export const monthName = (date: string): string =>
  `${MONTH_NAMES[Number(date.slice(5, 7)) - 1]} de ${date.slice(0, 4)}`;
