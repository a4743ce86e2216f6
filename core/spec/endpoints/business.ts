/**
 * §4.4 Business: a business and its payment instruction. Each endpoint's request body is defined
 * here beside its row of the spec's table (method, path, the documented answers), so an endpoint of
 * this section is one request and one row in this file; core/spec/requests.ts and
 * core/spec/endpoints.ts put the sections together, and the operation id is the row's key.
 */
import { z } from 'zod';
import type { ModelBuilder } from '../builder.js';
import type { Documented, EndpointRow, Resources, Responses } from '../endpoint-row.js';

/** The request bodies and parameters of §4.4, in the order the model registers their names. */
export function requests(b: ModelBuilder, r: Resources) {
  const { field } = b;
  const BusinessRequest = b.request(
    { id: 'BusinessRequest', spec: '§2.8, §4.4 business' },
    {
      import_supplier_code: field(z.string().min(1), 'required', 'names the supplier (§2.2)'),
      external_business_identifier: field(
        z.string().min(1),
        'required',
        'a business is unique by its external identifier (§2.8)',
      ),
      business: field(r.Business, 'expected', 'not shown; it holds the key attributes of uniqueness (§2.8)'),
    },
  );

  const BusinessPaymentInstructionRequest = b.request(
    { id: 'BusinessPaymentInstructionRequest', spec: '§2.7, §4.4 business payment instruction' },
    {
      import_supplier_code: field(z.string().min(1), 'required', 'names the supplier (§2.2)'),
      external_business_identifier: field(z.string().min(1), 'required', 'names the business (§2.7)'),
      vendor: field(z.string().min(1), 'required', 'the service checks the instruction with this vendor (§2.7)'),
      reference: field(z.string().min(1), 'required', 'the service checks this instruction with the vendor (§2.7)'),
      type: field(z.string(), 'expected', 'listed for the business instruction (§2.7)'),
      accounts: field(
        z.array(
          b.request(
            { id: 'BusinessPaymentInstructionAccount', spec: '§2.7 business payment instruction.accounts' },
            {
              external_account_number: field(z.string().min(1), 'expected', 'the only documented content of the item'),
            },
          ),
        ),
        'unspecified',
      ),
    },
  );

  return { BusinessRequest, BusinessPaymentInstructionRequest };
}

/** The rows of §4.4, keyed by operation id (its one name: core/spec/endpoints.ts `endpointSlug`). */
export function endpoints(
  q: ReturnType<typeof requests>,
  s: Responses,
  { validationError, unauthorized, vendorResponses }: Documented,
) {
  return {
    createBusiness: {
      words: 'business creation',
      looksUp: false,
      method: 'POST',
      stores: true,
      path: '/v1/data-import/business/',
      spec: '§4.4, §2.8',
      title: 'Create a business with all its contracts',
      body: q.BusinessRequest,
      responses: [
        { status: 201, spec: '§4.4', description: 'the business was created', body: s.BusinessResponse },
        validationError('§7.1'),
        unauthorized,
      ],
    },
    createBusinessPaymentInstruction: {
      words: 'business payment instruction creation',
      looksUp: true,
      method: 'POST',
      stores: true,
      path: '/v1/data-import/business-payment-instruction/create/',
      spec: '§2.7, §4.4',
      title: 'Add a payment instruction to a business',
      body: q.BusinessPaymentInstructionRequest,
      responses: [
        {
          status: 201,
          spec: '§4.4',
          description: 'instruction checked upstream and stored',
          body: s.BusinessPaymentInstructionResponse,
        },
        ...vendorResponses('§4.4 rule 3, §7.2'),
        { ...unauthorized, spec: '§5.3 (stated for this endpoint), §7.2' },
      ],
    },
  } satisfies Record<string, EndpointRow>;
}
