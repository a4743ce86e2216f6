/** Faults of §4.4 businesses and their contracts. */
import { reply } from '../reply.js';
import { body, clone, fault, isValidationError, mapAttrs, rewrite } from './helpers.js';
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
  fault(
    {
      id: 'business.created-on-400',
      placement: {
        by: ['refused.validation.create-business'],
        beside: ['refused.', 'conventions.types.', 'relations.defect.'],
      },
      spec: '§7.2 (400: validation error), §4.4, §2.8',
      subtle: true,
      description:
        'A business request refused 400 for an invalid field still creates the business (written before the payload was validated).',
    },
    {
      around: {
        createBusiness: async (req, env, next) => {
          const r = await next(req);
          if (!isValidationError(r)) return r;
          const b = body<{
            import_supplier_code?: unknown;
            external_business_identifier?: unknown;
            business?: unknown;
          }>(req.body);
          const details = body<{
            company_name?: unknown;
            company_number?: unknown;
            business_type?: unknown;
            business_contracts?: unknown;
          }>(b.business && typeof b.business === 'object' ? b.business : {});
          const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
          if (text(b.import_supplier_code) === undefined || text(b.external_business_identifier) === undefined)
            return r;
          const contracts = Array.isArray(details.business_contracts) ? details.business_contracts : [];
          const identifiers = contracts
            .map((c) => text(body<{ identifier?: unknown }>(c).identifier))
            .filter((id): id is string => id !== undefined && !env.store.contracts.has(id));
          const business = {
            id: env.choices.businessId(env.store.businesses.length + 1),
            supplier: text(b.import_supplier_code)!,
            externalIdentifier: text(b.external_business_identifier)!,
            name: text(details.company_name),
            number: text(details.company_number),
            type: text(details.business_type),
            contractIdentifiers: identifiers,
            paymentInstructions: [],
          };
          env.store.businesses.push(business);
          for (const id of identifiers) env.store.contracts.set(id, business);
          return r;
        },
      },
    },
  ),
];
