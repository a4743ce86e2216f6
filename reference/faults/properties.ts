/**
 * Faults only generated payloads meet: values at the edges of their domains (generators/edges.ts),
 * which no payload template and no example rule sends, and inputs whose validity the spec leaves to
 * the implementation, answered one way by validate and the other by stage (§4.1: stage is "validated
 * by the same rules as the validate endpoint first"). The property rules catch them.
 */
import { reply } from '../reply.js';
import { alter, body, clone, fault } from './helpers.js';
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
        beside: ['properties.account.'],
      },
      description:
        'Staging an account any string of which holds a character outside the Basic Multilingual Plane (an emoji, 𠮷) fails with 500: the store keeps at most three bytes a character, as MySQL utf8 does.',
    },
    { around: { stageAccount: storeWithoutAstral } },
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
