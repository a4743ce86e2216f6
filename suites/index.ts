/** Every rule suite, one per spec area; a file is named by its area's rule prefix. */
import { RELATION_KINDS, type RelationKind } from '../core/engine/relations.js';
import type { Rule } from '../core/engine/rule.js';
import type { Statement } from '../core/engine/traceability.js';
import additions from './additions.js';
import auth from './auth.js';
import authApiKey from './auth-api-key.js';
import authRefused from './auth-refused.js';
import billing from './billing.js';
import business from './business.js';
import conventions from './conventions.js';
import conventionsBooleans from './conventions-booleans.js';
import conventionsTypes from './conventions-types.js';
import conventionsWritten from './conventions-written.js';
import errors from './errors.js';
import errorsBadInput from './errors-bad-input.js';
import history from './history.js';
import keys from './keys.js';
import limits from './limits.js';
import migration from './migration.js';
import migrationDryRun from './migration-dry-run.js';
import notes from './notes.js';
import payments, { statements as paymentStatements } from './payments.js';
import properties from './properties.js';
import races from './races.js';
import refusedAccount from './refused-account.js';
import relationsEcho, { echoRelation } from './relations-echo.js';
import relationsEchoSites from './relations-echo-sites.js';
import relationsShape, { documentedShapeRelation } from './relations-shape.js';
import relationsDefect, { defectRelation } from './relations-defect.js';
import relationsEdge from './relations-edge.js';
import { EDGE } from '../core/engine/edges.js';
import refusedMigration from './refused-migration.js';
import refusedValidation from './refused-validation.js';
import relationsIdentity from './relations-identity.js';
import relationsLookup from './relations-lookup.js';
import stateful from './stateful.js';
import statements from './statements.js';
import status from './status.js';
import transactions from './transactions.js';
import versioning from './versioning.js';

export const suites: Record<string, Rule[]> = {
  conventions: [...conventions, ...conventionsTypes, ...conventionsBooleans, ...conventionsWritten],
  migration: [...migration, ...migrationDryRun],
  status,
  notes,
  transactions,
  billing,
  statements,
  additions,
  payments,
  business,
  keys,
  auth: [...auth, ...authApiKey, ...authRefused],
  errors: [...errors, ...errorsBadInput],
  versioning,
  limits,
  properties,
  stateful,
  races,
  refused: [...refusedValidation, ...refusedAccount, ...refusedMigration],
  history,
  relations: [
    ...relationsEcho,
    ...relationsEchoSites,
    ...relationsShape,
    ...relationsLookup,
    ...relationsIdentity,
    ...relationsDefect,
    ...relationsEdge,
  ],
};

export const allRules: Rule[] = Object.values(suites).flat();

/** The statements an area maps beside its rules; suites/traceability.ts places them among its own. */
export const areaStatements: readonly Statement[] = [...paymentStatements];

/**
 * Every relation kind of the suite: the engine's (core/engine/relations.ts) and those whose places
 * a suite file states (echo, documented shape, defect) and the edge kind (core/engine/edges.ts); the
 * report's relation coverage counts them all.
 */
export const relationKinds: readonly RelationKind[] = [
  ...RELATION_KINDS,
  echoRelation,
  documentedShapeRelation,
  defectRelation,
  EDGE,
];

const ids = new Set<string>();
for (const rule of allRules) {
  if (ids.has(rule.id)) throw new Error(`duplicate rule id ${rule.id}`);
  ids.add(rule.id);
}
