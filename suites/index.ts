/** Every rule suite, one per spec area. */
import type { Rule } from '../src/engine/rule.js';
import accountMigration from './account-migration.js';
import additions from './additions.js';
import apiKey from './api-key.js';
import auth from './auth.js';
import badInput, { additionsErrorRules } from './bad-input.js';
import conventions from './conventions.js';
import dryRun from './dry-run.js';
import errors, { versioningRules } from './errors-and-versioning.js';
import billing, { statementRules } from './historical.js';
import limits from './limits.js';
import notes from './notes.js';
import payments, { businessRules } from './payments-and-business.js';
import paymentTargets from './payment-targets.js';
import properties from './properties.js';
import races from './races.js';
import stateful from './state-machine.js';
import statusAndListings from './status-and-listings.js';
import transactions from './transactions.js';
import typesAndEnums from './types-and-enums.js';

export const suites: Record<string, Rule[]> = {
  conventions: [...conventions, ...typesAndEnums],
  migration: [...accountMigration, ...dryRun],
  status: statusAndListings,
  notes,
  transactions,
  billing,
  statements: statementRules,
  additions: [...additions, ...additionsErrorRules],
  payments: [...payments, ...paymentTargets],
  business: businessRules,
  auth: [...auth, ...apiKey],
  errors: [...errors, ...badInput],
  versioning: versioningRules,
  limits,
  properties,
  stateful,
  races,
};

export const allRules: Rule[] = Object.values(suites).flat();

const ids = new Set<string>();
for (const rule of allRules) {
  if (ids.has(rule.id)) throw new Error(`duplicate rule id ${rule.id}`);
  ids.add(rule.id);
}
