/**
 * Faults only generated payloads meet: values at the edges of their domains (generators/edges.ts),
 * which no payload template and no example rule sends, and inputs whose validity the spec leaves to
 * the implementation, answered one way by validate and the other by stage (§4.1: stage is "validated
 * by the same rules as the validate endpoint first"). The property rules catch them; the edge
 * relation (suites/relations-edge.ts), which puts each edge at every field, catches those at an
 * edge too (`beside`).
 */
import { reply } from '../reply.js';
import { ACCOUNT_FAILED_VALIDATION, validationError } from '../validation.js';
import { alter, body, clone, fault, mapStrings } from './helpers.js';
import type { Around, FaultDefinition } from './types.js';

/** A character outside the Basic Multilingual Plane: four bytes in UTF-8, two UTF-16 units. */
const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;

// JSON.stringify writes astral characters as they are (lone surrogates only are escaped).
const holdsAstral = (body: unknown): boolean => ASTRAL.test(JSON.stringify(body) ?? '');

/** The store refuses the row when it is written: validation, which keeps nothing, passes. */
const storeWithoutAstral: Around = (req, _env, next) =>
  holdsAstral(req.body)
    ? reply(500, { detail: "Incorrect string value: '\\xF0\\x9F...' for column 'data' at row 1" })
    : next(req);

/** The largest value of a signed 32-bit column. */
const INT32_MAX = 2 ** 31 - 1;

const holdsLargeInteger = (value: unknown): boolean =>
  typeof value === 'number'
    ? Number.isInteger(value) && Math.abs(value) > INT32_MAX
    : Array.isArray(value)
      ? value.some(holdsLargeInteger)
      : value !== null && typeof value === 'object' && Object.values(value).some(holdsLargeInteger);

/** The row is written to 32-bit integer columns: the insert overflows (validation, which keeps nothing, passes). */
const storeWith32BitIntegers: Around = (req, _env, next) =>
  holdsLargeInteger(req.body)
    ? reply(500, { detail: "Out of range value for column 'estimated_monthly_fee_in_cents' at row 1" })
    : next(req);

/** A text column of 255 characters that truncates instead of refusing (MySQL without strict mode). */
const TEXT_COLUMN = 255;
const cutToColumn = (s: string) => ([...s].length > TEXT_COLUMN ? [...s].slice(0, TEXT_COLUMN).join('') : s);

/** The §7.1 errors of a check that reads amount 0 as no amount (`if not amount`), at each transaction of the account. */
function zeroAmountsCalledMissing(value: unknown, at: string[] = []): { attr: string; code: string; detail: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => zeroAmountsCalledMissing(v, [...at, String(i)]));
  if (value === null || typeof value !== 'object') return [];
  const inTransaction = at.length >= 2 && String(at[at.length - 2]).endsWith('transactions');
  return Object.entries(value).flatMap(([k, v]) =>
    k === 'amount' && inTransaction && (typeof v === 'number' || typeof v === 'string') && Number(v) === 0
      ? [{ attr: [...at, k].join('.'), code: 'required', detail: 'This field is required.' }]
      : zeroAmountsCalledMissing(v, [...at, k]),
  );
}

const amountZeroMissing: Around = (req, _env, next) => {
  const errors = zeroAmountsCalledMissing(req.body);
  return errors.length ? validationError(errors, ACCOUNT_FAILED_VALIDATION) : next(req);
};

/** §2.3 customer: the fields the spec documents. */
const CUSTOMER_FIELDS = new Set([
  'account_roles',
  'user_details',
  'given_name',
  'family_name',
  'email',
  'mobile',
  'landline',
]);

export const propertyFaults: FaultDefinition[] = [
  fault(
    {
      id: 'properties.stage.astral-characters-fail',
      spec: '§2.3, §4.1',
      subtle: true,
      // Only generated accounts carry such characters: no template or example rule sends one.
      placement: {
        by: ['properties.account.valid-accepted', 'properties.account.single-defect-refused'],
        beside: ['properties.account.', 'relations.edge.'],
      },
      description:
        'Staging an account any string of which holds a character outside the Basic Multilingual Plane (an emoji, 𠮷) fails with 500: the store keeps at most three bytes a character, as MySQL utf8 does.',
    },
    { around: { stageAccount: storeWithoutAstral } },
  ),
  fault(
    {
      id: 'properties.stage.large-integer-500',
      spec: '§2.3 agreement (estimated_monthly_fee_in_cents: integer), §7.2 (500: unexpected error)',
      subtle: true,
      // Only generated accounts carry an integer past 32 bits (generators/edges.ts integer-large).
      placement: { by: ['properties.account.valid-accepted'], beside: ['properties.account.', 'relations.edge.'] },
      description:
        'Staging an account with an integer past 32 bits fails with 500: the store writes it to a 32-bit column, where a faithful server with that limit answers a §7.1 400 at the field.',
    },
    { around: { stageAccount: storeWith32BitIntegers } },
  ),
  fault(
    {
      id: 'properties.validate.long-text-cut',
      spec: '§4.1 (validate: 200 with the validated data as body), §2.3',
      subtle: true,
      // Only generated accounts carry texts past 255 characters (generators/edges.ts text-long).
      placement: { by: ['properties.account.valid-accepted'], beside: ['properties.account.', 'relations.edge.'] },
      description:
        'Validate and stage keep every text cut at 255 characters and answer as if they kept it whole, as a 255-character column without strict mode does: the validated data echoes it cut.',
    },
    {
      around: {
        validateAccount: (req, _env, next) => next({ ...req, body: mapStrings(req.body, cutToColumn) }),
        stageAccount: (req, _env, next) => next({ ...req, body: mapStrings(req.body, cutToColumn) }),
      },
    },
  ),
  fault(
    {
      id: 'properties.account.amount-zero-missing',
      spec: '§2.4 (amount: number or decimal string), §7.1',
      subtle: true,
      // Only generated accounts carry a zero amount (generators/edges.ts amount-zero).
      placement: { by: ['properties.account.valid-accepted'], beside: ['properties.account.'] },
      description:
        'A transaction of the account whose amount is 0 (or "0.00") is refused as missing (400, `required` at its amount): the check reads a zero as no amount, as Python\'s `if not amount` does.',
    },
    { around: { validateAccount: amountZeroMissing, stageAccount: amountZeroMissing } },
  ),
  {
    id: 'properties.stage-drops-undocumented-customer-fields',
    spec: '§4.1 (stage: validated by the same rules as the validate endpoint first)',
    subtle: true,
    placement: { by: ['properties.account.stage-agrees-with-validate'] },
    description:
      'Staging drops fields the spec does not document from each customer before validating, so it accepts a customer validate refuses.',
    create: () =>
      alter('stageAccount', (req) => {
        const customers = body(req.body).customers;
        if (!Array.isArray(customers)) return req;
        const copy = clone(body(req.body));
        copy.customers = customers.map((c) =>
          c && typeof c === 'object' && !Array.isArray(c)
            ? Object.fromEntries(Object.entries(c).filter(([key]) => CUSTOMER_FIELDS.has(key)))
            : c,
        );
        return { ...req, body: copy };
      }),
  },
];
