/**
 * Faults only generated inputs meet: an input whose validity the spec leaves to the implementation,
 * answered one way by validate and the other by stage (§4.1: stage is "validated by the same rules as
 * the validate endpoint first").
 */
import { alter, body, clone } from './helpers.js';
import type { FaultDefinition } from './types.js';

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
  {
    id: 'properties.stage-drops-undocumented-customer-fields',
    spec: '§4.1 (stage: validated by the same rules as the validate endpoint first)',
    subtle: true,
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
