/** Faults of §4.4 businesses and their contracts. */
import { reply } from '../reply.js';
import { body, clone, fault, mapAttrs, rewrite } from './helpers.js';
import type { FaultDefinition } from './types.js';

type BusinessBody = {
  import_supplier_code: string;
  external_business_identifier: string;
  business?: { business_contracts?: unknown[] };
};

export const businessFaults: FaultDefinition[] = [
  fault(
    {
      id: 'business.duplicate-creates-another',
      spec: '§2.8 (a business is unique by its identifier and key attributes)',
      subtle: true,
      description: 'Sending the same business again creates a second business with a new id.',
    },
    rewrite('createBusiness', (r, req, env) => {
      if (body(r.body).code !== 'business_already_exists') return r;
      const b = body<BusinessBody>(req.body);
      const id = env.choices.businessId(env.store.businesses.length + 1);
      env.store.businesses.push({
        id,
        supplier: b.import_supplier_code,
        externalIdentifier: b.external_business_identifier,
        contractIdentifiers: [],
        paymentInstructions: [],
      });
      return reply(201, { service_business_id: id, external_business_identifier: b.external_business_identifier });
    }),
  ),
  fault(
    {
      id: 'business.id-as-string',
      spec: '§4.4 (service_business_id: integer)',
      subtle: false,
      description: 'service_business_id is a string.',
    },
    rewrite('createBusiness', (r) =>
      r.status === 201
        ? reply(201, { ...body(r.body), service_business_id: String(body(r.body).service_business_id) })
        : r,
    ),
  ),
  fault(
    {
      id: 'business.first-contract-only',
      spec: '§4.4 rule 1 (created with all contracts in one payload)',
      subtle: true,
      description: 'Only the first contract of the payload is created.',
    },
    {
      around: {
        createBusiness: (req, _env, next) => {
          const b = clone(body<BusinessBody>(req.body));
          if (Array.isArray(b.business?.business_contracts))
            b.business.business_contracts = b.business.business_contracts.slice(0, 1);
          return next({ ...req, body: b });
        },
      },
    },
  ),
  fault(
    {
      id: 'business.contract-link-unchecked',
      spec: '§2.3 (business_contract_identifier must name a contract)',
      subtle: false,
      description: 'An account may name a contract identifier that no business has.',
    },
    { ignoreIssue: (e) => e.attr === 'business.business_contract_identifier' },
  ),
  fault(
    {
      id: 'business.attrs-without-prefix',
      spec: '§7.1 (attr is the path to the offending input)',
      subtle: true,
      description: 'Validation errors of a business leave out the business. part of the path.',
    },
    rewrite('createBusiness', (r) => mapAttrs(r, (a) => a.replace(/^business\./, ''))),
  ),
];
