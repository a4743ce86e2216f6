/**
 * The reference server's endpoint areas, one line each: an area of §4 (named like its rules,
 * `<area>.*`, and its faults' ids), the handlers of its endpoints and the faults that break them.
 * The route table (routes.ts) and the fault catalogue (faults/catalogue.ts) both read this list, so
 * a new area is registered once; an endpoint added to an area's handler file needs no line here.
 */
import type { EndpointId } from '../core/spec/index.js';
import { additionFaults } from './faults/additions.js';
import { billingFaults } from './faults/billing.js';
import { businessFaults } from './faults/business.js';
import { migrationFaults } from './faults/migration.js';
import { noteFaults } from './faults/notes.js';
import { paymentFaults } from './faults/payments.js';
import { statementFaults } from './faults/statements.js';
import { statusFaults } from './faults/status.js';
import { transactionFaults } from './faults/transactions.js';
import type { FaultDefinition } from './faults/types.js';
import { handlers as additions } from './handlers/additions.js';
import { handlers as billing } from './handlers/billing.js';
import { handlers as business } from './handlers/business.js';
import { handlers as migration } from './handlers/migration.js';
import { handlers as notes } from './handlers/notes.js';
import { handlers as payments } from './handlers/payments.js';
import type { Handler } from './handlers/shared.js';
import { handlers as statements } from './handlers/statements.js';
import { handlers as status } from './handlers/status.js';
import { handlers as transactions } from './handlers/transactions.js';

interface Area {
  readonly handlers: Partial<Record<EndpointId, Handler>>;
  readonly faults: readonly FaultDefinition[];
}

/** In the catalogue's order (`conformance faults` lists the areas' faults so). */
const areas = {
  migration: { handlers: migration, faults: migrationFaults },
  status: { handlers: status, faults: statusFaults },
  notes: { handlers: notes, faults: noteFaults },
  transactions: { handlers: transactions, faults: transactionFaults },
  billing: { handlers: billing, faults: billingFaults },
  statements: { handlers: statements, faults: statementFaults },
  additions: { handlers: additions, faults: additionFaults },
  payments: { handlers: payments, faults: paymentFaults },
  business: { handlers: business, faults: businessFaults },
} satisfies Record<string, Area>;

type Handled = { [A in keyof typeof areas]: keyof (typeof areas)[A]['handlers'] }[keyof typeof areas];
/**
 * Every endpoint of the spec model has a handler in some area: an endpoint without one is a missing
 * property here, which the compiler names ("Property 'createMeterReads' is missing").
 */
const unhandled: Record<Exclude<EndpointId, Handled>, never> = {};
void unhandled;

/** Every endpoint's handler, from the areas. */
export const endpointHandlers = Object.fromEntries(
  Object.values(areas).flatMap((a) => Object.entries(a.handlers)),
) as Record<EndpointId, Handler>;

/** The areas' faults, area after area. */
export const areaFaults: readonly FaultDefinition[] = Object.values(areas).flatMap((a) => a.faults);

// A fault is named by its area (docs/contributing.md): one registered under another area's name is a slip.
for (const [name, area] of Object.entries(areas))
  for (const f of area.faults)
    if (!f.id.startsWith(`${name}.`))
      throw new Error(`fault ${f.id} is registered in area ${name} but does not start with "${name}."`);
