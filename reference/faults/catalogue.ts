/**
 * The fault catalogue: every way the suite must be able to tell a broken implementation from the
 * faithful one. `npm run mutation` runs the whole suite against each fault and fails unless every
 * one is caught.
 */
import { areaFaults } from '../areas.js';
import { ActiveFaults } from './active.js';
import { authFaults } from './auth.js';
import { conventionFaults } from './conventions.js';
import { errorFaults } from './errors.js';
import { familyFaults } from './families.js';
import { historyFaults } from './history.js';
import { keyFaults } from './keys.js';
import { propertyFaults } from './properties.js';
import { raceFaults } from './races.js';
import { relationFaults } from './relations.js';
import type { FaultDefinition } from './types.js';

/**
 * One file per area of the spec, named like the area's rules (`<area>.*`) and its faults' ids; the
 * endpoint areas are registered in reference/areas.ts, the areas across endpoints here.
 */
export const FAULTS: readonly FaultDefinition[] = [
  ...authFaults,
  ...familyFaults,
  ...errorFaults,
  ...conventionFaults,
  // The faults of the endpoint areas (reference/areas.ts), each beside its handlers there.
  ...areaFaults,
  ...keyFaults,
  ...raceFaults,
  ...historyFaults,
  ...propertyFaults,
  ...relationFaults,
];

const ids = new Set<string>();
for (const f of FAULTS) {
  if (ids.has(f.id)) throw new Error(`duplicate fault id ${f.id}`);
  ids.add(f.id);
}

export function faultById(id: string): FaultDefinition | undefined {
  return FAULTS.find((f) => f.id === id);
}

/** The hooks of the named faults; an unknown id is an error that lists the known ones. */
export function createFaults(ids: readonly string[]): ActiveFaults {
  const unknown = ids.filter((id) => !faultById(id));
  if (unknown.length)
    throw new Error(
      `Unknown fault ${unknown.join(', ')}; see "conformance faults" for the ${FAULTS.length} known faults.`,
    );
  return new ActiveFaults(ids.map((id) => faultById(id)!.create()));
}
