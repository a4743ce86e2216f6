/**
 * Faults only generated payloads meet: values at the edges of their domains (generators/edges.ts),
 * which no payload template and no example rule sends. The property rules catch them.
 */
import { reply } from '../reply.js';
import { fault } from './helpers.js';
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
];
