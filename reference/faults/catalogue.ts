/**
 * The fault catalogue: every way the suite must be able to tell a broken implementation from the
 * faithful one. `npm run mutation` runs the whole suite against each fault and fails unless every
 * one is caught.
 */
import { ActiveFaults } from './active.js';
import { businessFaults, historicalFaults, paymentFaults } from './additions-and-business.js';
import { authFaults, errorFaults } from './auth-and-errors.js';
import { noteFaults, readSideFaults } from './read-side-and-notes.js';
import { raceFaults } from './races.js';
import { uncheckedFaults } from './unchecked.js';
import { transactionFaults } from './transactions.js';
import { conventionFaults, migrationFaults } from './validation-and-migration.js';
import type { FaultDefinition } from './types.js';

export const FAULTS: readonly FaultDefinition[] = [
  ...authFaults,
  ...errorFaults,
  ...conventionFaults,
  ...migrationFaults,
  ...readSideFaults,
  ...noteFaults,
  ...transactionFaults,
  ...historicalFaults,
  ...paymentFaults,
  ...businessFaults,
  ...raceFaults,
  ...uncheckedFaults,
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
