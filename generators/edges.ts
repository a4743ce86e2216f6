/**
 * Values at the edges of each domain: where real servers break while the middle of every domain
 * passes. Every generator with edges draws one at `EDGE_ODDS` (1 in 5) through `orEdge`, fast-check's
 * weighted `oneof`, which shrinks towards the typical value. Every edge is valid by the spec's words
 * (a string is any string, an amount any number or decimal string, a date any existing day); what
 * the spec refuses belongs to defects.ts.
 *
 * The catalogue (class, example, where drawn) is `EDGES`, also in docs/design.md §7.
 */
import fc from 'fast-check';

/** One draw in five is an edge, four are typical. */
export const EDGE_ODDS = { edge: 1, typical: 4 } as const;

/** `typical` four times in five, `edge` once; shrinking goes towards `typical`. */
export const orEdge = <T>(typical: fc.Arbitrary<T>, edge: fc.Arbitrary<T>): fc.Arbitrary<T> =>
  fc.oneof({ arbitrary: typical, weight: EDGE_ODDS.typical }, { arbitrary: edge, weight: EDGE_ODDS.edge });

export type EdgeClass =
  | 'postcode-leading-zero'
  | 'phone-prefix'
  | 'amount-zero'
  | 'amount-negative'
  | 'amount-many-decimals'
  | 'text-astral'
  | 'text-combining'
  | 'text-rtl'
  | 'text-long'
  | 'integer-large'
  | 'array-large'
  | 'date-leap-day'
  | 'date-month-end'
  | 'date-year-boundary';

export interface Edge {
  readonly example: string;
  /** The generators that draw it (each at `EDGE_ODDS` where it draws). */
  readonly where: string;
}

/**
 * The spec documents no maximum length of a string and no maximum batch (§8: "payload size limits:
 * not shown"), so long and large are the suite's choice: past the 255 of a common column type, and
 * ten times the longest typical list.
 */
export const LONG_TEXT = { min: 256, max: 1024 } as const;
export const LARGE_BATCH = 50;
/**
 * A notes request past the 100 items a request often takes: a server that keeps only the first 100
 * and answers as if it kept all is caught only past its cut (notes.create.success-is-stored).
 */
export const LARGE_REQUEST = 120;

export const EDGES: Readonly<Record<EdgeClass, Edge>> = {
  'postcode-leading-zero': {
    example: '01001 (Vitoria-Gasteiz), 04001 (Almería)',
    where: 'spanish.ts place: supply addresses and the billing postcode',
  },
  'phone-prefix': {
    example: '0034 612 345 678 (the 00 international prefix), 612345678 (no prefix, no separators)',
    where: 'spanish.ts mobile, landline: customers',
  },
  'amount-zero': { example: '0, "0.00"', where: 'overrides/billing.ts: transaction amount (not a supply charge)' },
  'amount-negative': {
    example: '-12.5, "-12.50"',
    where: 'overrides/billing.ts: transaction amount (not a supply charge)',
  },
  'amount-many-decimals': {
    example: '0.30000000000000004, "10.005", "1234.56789012"',
    where: 'overrides/billing.ts: transaction amount (not a supply charge)',
  },
  'text-astral': {
    example: '𠮷野 (a given name), a note ending in 🔥',
    where: 'customer given name, note body, address extra info, transaction display note',
  },
  'text-combining': {
    example: 'Jose\\u0301 (José decomposed, as macOS input sends it)',
    where: 'customer given name, note body, address extra info, transaction display note',
  },
  'text-rtl': {
    example: 'محمد; a Spanish note with an Arabic sentence in it',
    where: 'customer given name, note body, address extra info, transaction display note',
  },
  'text-long': {
    example: `a note body of ${LONG_TEXT.min}–${LONG_TEXT.max} characters`,
    where: 'note body, address extra info, transaction display note',
  },
  'integer-large': {
    example: `${2 ** 31} (past a 32-bit column), ${Number.MAX_SAFE_INTEGER} (the largest JSON integer exact in a double)`,
    where: 'agreement estimated_monthly_fee_in_cents',
  },
  'array-large': {
    example: `${LARGE_BATCH} notes in one account payload or notes request`,
    where: 'from-model.ts array lengths (overrides/index.ts LARGE)',
  },
  'date-leap-day': {
    example: '2024-02-29',
    where: 'calendar.ts dayBetween (every date and datetime), the payload anchor (payloads.ts)',
  },
  'date-month-end': {
    example: '2024-04-30, 2023-02-28',
    where: 'calendar.ts dayBetween; the anchor is always a month end',
  },
  'date-year-boundary': {
    example: '2023-12-31, 2024-01-01; 23:59:59 and 00:00:00 as times',
    where: 'calendar.ts dayBetween, timeOfDay; the anchor 2023-12-31 or 2024-12-31',
  },
};

/**
 * The calendar edges of `EDGES` as values (date-leap-day, date-month-end, date-year-boundary): every
 * date and datetime field is sent at each by the edge relation (suites/relations-edge.ts).
 */
export const EDGE_DATES: readonly string[] = ['2024-02-29', '2024-04-30', '2023-02-28', '2023-12-31', '2024-01-01'];
export const EDGE_DATETIMES: readonly string[] = [
  '2023-12-31T23:59:59Z',
  '2024-01-01T00:00:00Z',
  '2024-02-29T00:00:00Z',
];

/**
 * Integers at the widths servers store them in: the last of a signed 32-bit column, one past it, past
 * an unsigned 32-bit one, one below its least, and the largest integer a JSON number carries exactly
 * (a double; past a 53-bit one it is no longer the number sent).
 */
export const EDGE_INTEGERS: readonly number[] = [
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  -(2 ** 31) - 1,
  Number.MAX_SAFE_INTEGER,
];

/**
 * Text lengths in UTF-8 bytes one past common column sizes (VARCHAR(255), a 4000-byte column,
 * a 64 KiB TEXT), written with multi-byte and astral characters so that the characters are fewer
 * than the bytes: a column that counts bytes cuts what a count of characters lets through.
 */
export const EDGE_TEXT_BYTES: readonly number[] = [256, 4001, 65536];

/** Multi-byte text to fill with: two-, three- and four-byte characters between ASCII. */
const FILL = 'Ñandú 𠮷野 🔥 محمد José ✓ ';
const FILL_CHARS = [...FILL];
const FILL_BYTES = Buffer.byteLength(FILL);

/**
 * `base`, a space and filler, exactly `bytes` UTF-8 bytes long (the start kept, so an identifier or
 * a note's namespace stays in it); `base` alone when it is already that long or longer.
 */
export function textOfBytes(base: string, bytes: number): string {
  const head = `${base} `;
  let size = Buffer.byteLength(head);
  if (size > bytes) return base;
  const whole = Math.floor((bytes - size) / FILL_BYTES);
  let text = head + FILL.repeat(whole);
  size += whole * FILL_BYTES;
  for (const ch of FILL_CHARS) {
    const next = Buffer.byteLength(ch);
    if (size + next > bytes) break;
    text += ch;
    size += next;
  }
  return text + '.'.repeat(bytes - size);
}

// Text ------------------------------------------------------------------------------------------

/** Outside the Basic Multilingual Plane: two UTF-16 units, four UTF-8 bytes. */
const ASTRAL = ['🔥', '𠮷', '😀', '𝔄'];

/** A Spanish sentence with an Arabic one inside it: bidirectional text. */
const RTL_SENTENCE = 'El cliente prefiere: «أفضل التواصل بالعربية».';

/** Given names at the edges of text: one astral, two decomposed, two right-to-left. */
export const EDGE_GIVEN_NAMES = ['𠮷野', 'Jose\u0301', 'Begon\u0303a', 'محمد', 'יעל'] as const;

/**
 * `base` at each edge of text. Built from the typical value, so what must differ within a payload
 * (the note bodies of one account) still differs.
 */
export function edgeText(base: string): fc.Arbitrary<string> {
  const decomposed = base.normalize('NFD');
  return fc.oneof(
    fc.constantFrom(...ASTRAL).map((c) => `${base} ${c}`),
    fc.constant(decomposed === base ? `${base} (Begon\u0303a)` : decomposed),
    fc.constant(`${base} ${RTL_SENTENCE}`),
    fc.integer(LONG_TEXT).map((length) => longText(base, length)),
  );
}

/** `base` repeated to exactly `length` characters, cut where the length falls. */
export function longText(base: string, length: number): string {
  let text = base;
  while (text.length < length) text = `${text} ${base}`;
  return text.slice(0, length).trimEnd().padEnd(length, '.');
}

/** `base` four times in five, else one of its edges. */
export const orTextEdge = (base: string): fc.Arbitrary<string> => orEdge(fc.constant(base), edgeText(base));

// Integers --------------------------------------------------------------------------------------

/**
 * §2.3 shows an integer field with no range: past the 2,147,483,647 of a 32-bit column, up to the
 * largest integer a JSON number carries exactly.
 */
export const edgeInteger: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(2 ** 31, Number.MAX_SAFE_INTEGER),
  fc.integer({ min: 2 ** 31, max: 2 ** 40 }),
);

// Money -----------------------------------------------------------------------------------------

/** More decimals than cents: a decimal string with many digits, and the floating-point sum 0.1 + 0.2. */
export const MANY_DECIMAL_AMOUNTS: readonly (number | string)[] = [0.1 + 0.2, '10.005', '1234.56789012'];

/**
 * §2.4 amount, "number or decimal string": zero, negative (a correction), and more decimals than
 * cents.
 */
export const edgeAmount: fc.Arbitrary<number | string> = fc.oneof(
  fc.constantFrom<number | string>(0, '0.00'),
  fc
    .tuple(fc.integer({ min: 1, max: 25_000 }), fc.boolean())
    .map(([cents, asText]) => (asText ? (-cents / 100).toFixed(2) : -cents / 100)),
  fc.constantFrom<number | string>(...MANY_DECIMAL_AMOUNTS),
);

/**
 * Numbers that do not round-trip between a double, fixed-point cents and a decimal column: more
 * decimals than cents (`MANY_DECIMAL_AMOUNTS`), and one cent past the largest 64-bit count of cents.
 */
export const EDGE_NUMBERS: readonly (number | string)[] = [...MANY_DECIMAL_AMOUNTS, '92233720368547758.08'];
