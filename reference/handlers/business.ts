/** §2.8, §4.4: a business is created with all its contracts in one request. */
import type { EndpointId } from '../../core/spec/index.js';
import { strictModel } from '../../core/spec/index.js';
import type { Business } from '../store.js';
import { type ErrorItem, validationError } from '../validation.js';
import { type Handler, fieldError, isReply, parseBody, reply } from './shared.js';

export const createBusiness: Handler = (req, env) => {
  const request = parseBody(strictModel.BusinessRequest, req.body, env);
  if (isReply(request)) return request;
  const { store, choices } = env;
  if (!store.suppliers.has(request.import_supplier_code)) {
    return validationError([
      fieldError('import_supplier_code', 'does_not_exist', 'No import supplier with this code.'),
    ]);
  }
  const details = request.business!;
  // §2.8: the full list of business_type values is not shown; the operator may restrict them.
  const types = store.settings.businessTypes;
  if (types && details.business_type !== undefined && !types.includes(details.business_type)) {
    return validationError([
      fieldError('business.business_type', 'invalid_choice', `Accepted business types: ${types.join(', ')}.`),
    ]);
  }
  // §2.8: "A business is unique by its external identifier together with key attributes (name, number, type)."
  const existing = store.businesses.find(
    (b) =>
      b.supplier === request.import_supplier_code &&
      b.externalIdentifier === request.external_business_identifier &&
      b.name === details.company_name &&
      b.number === details.company_number &&
      b.type === details.business_type,
  );
  if (existing) return choices.businessAlreadyExists(existing.id, existing.externalIdentifier);

  // Accounts link to a contract by its identifier alone (§2.3), so one identifier names one contract.
  const identifiers = (details.business_contracts ?? []).map((c) => c.identifier!);
  const clashes: ErrorItem[] = [];
  // Keyed: 60k contracts in one request are checked in linear time, not 60k x 60k comparisons.
  const earlier = new Set<string>();
  identifiers.forEach((id, i) => {
    if (store.contracts.has(id) || earlier.size === earlier.add(id).size) {
      clashes.push(
        fieldError(
          `business.business_contracts.${i}.identifier`,
          'unique',
          'A business contract with this identifier already exists.',
        ),
      );
    }
  });
  if (clashes.length) return validationError(clashes);

  const business: Business = {
    id: choices.businessId(store.businesses.length + 1),
    supplier: request.import_supplier_code,
    externalIdentifier: request.external_business_identifier,
    name: details.company_name,
    number: details.company_number,
    type: details.business_type,
    contractIdentifiers: identifiers,
    paymentInstructions: [],
  };
  store.businesses.push(business);
  for (const id of identifiers) store.contracts.set(id, business);
  return reply(201, { service_business_id: business.id, external_business_identifier: business.externalIdentifier });
};

/** This area's endpoints and their handlers (reference/areas.ts registers the area). */
export const handlers = { createBusiness } satisfies Partial<Record<EndpointId, Handler>>;
