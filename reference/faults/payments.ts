/** Faults of §4.2 and §4.4 payment instructions and the §2.7 upstream vendor. */
import { reply } from '../reply.js';
import type { VendorInstruction } from '../store.js';
import { body, fault, rewrite } from './helpers.js';
import type { Around, FaultDefinition } from './types.js';

type InstructionBody = {
  import_supplier?: string;
  import_supplier_code?: string;
  external_account_number?: string;
  external_business_identifier?: string;
  vendor?: string;
  reference?: string;
  type?: string;
};

/** Runs the faithful payment-instruction handler as if the vendor had every instruction asked about. */
const vendorKnowsEverything: Around = (req, env, next) => {
  const b = body<InstructionBody>(req.body);
  if (
    typeof b.vendor !== 'string' ||
    typeof b.reference !== 'string' ||
    env.store.vendorInstruction(b.vendor, b.reference)
  )
    return next(req);
  const invented: VendorInstruction = { vendor: b.vendor, reference: b.reference, behaviour: 'ok' };
  env.store.putVendorInstruction(invented);
  try {
    return next(req);
  } finally {
    env.store.vendorInstructions.delete(JSON.stringify([b.vendor, b.reference]));
  }
};

export const paymentFaults: FaultDefinition[] = [
  fault(
    {
      id: 'payments.intermittent-as-400',
      spec: '§4.2 payment instruction (500: intermittent trouble)',
      subtle: true,
      description: 'Intermittent vendor trouble is answered with 400, so clients give up instead of retrying.',
    },
    rewrite('createPaymentInstruction', (r) => (r.status === 500 ? { ...r, status: 400 } : r)),
  ),
  fault(
    {
      id: 'payments.persistent-as-500',
      spec: '§4.2 payment instruction (400: persistent trouble)',
      subtle: true,
      description: 'Persistent vendor trouble is answered with 500, so clients retry forever.',
    },
    rewrite('createPaymentInstruction', (r) =>
      r.status === 400 && body(r.body).code === 'payment_vendor_error' ? { ...r, status: 500 } : r,
    ),
  ),
  fault(
    {
      id: 'payments.account-number-wrong',
      spec: '§4.2 payment instruction ({service_account_number, reference})',
      subtle: true,
      description: 'The response gives the external account number as service_account_number.',
    },
    rewrite('createPaymentInstruction', (r, req) =>
      r.status === 201
        ? reply(201, {
            ...body(r.body),
            service_account_number: body<{ external_account_number: string }>(req.body).external_account_number,
          })
        : r,
    ),
  ),
  fault(
    {
      id: 'payments.business-intermittent-as-400',
      spec: '§4.4 rule 3',
      subtle: true,
      description: 'For businesses, intermittent vendor trouble is answered with 400.',
    },
    rewrite('createBusinessPaymentInstruction', (r) => (r.status === 500 ? { ...r, status: 400 } : r)),
  ),
  fault(
    {
      id: 'payments.business-vendor-unchecked',
      spec: '§2.7, §4.4 rule 3',
      subtle: true,
      description: 'Business payment instructions are stored without asking the vendor, so vendor trouble never shows.',
    },
    rewrite('createBusinessPaymentInstruction', (r, req) =>
      r.status === 400 || r.status === 500
        ? reply(201, {
            reference: body(req.body).reference,
            external_business_identifier: body(req.body).external_business_identifier,
          })
        : r,
    ),
  ),
  fault(
    {
      id: 'payments.business-response-misnamed',
      spec: '§4.4 ({reference, external_business_identifier})',
      subtle: false,
      description: 'The business payment instruction response names the business as business_id.',
    },
    rewrite('createBusinessPaymentInstruction', (r) =>
      r.status === 201
        ? reply(201, { reference: body(r.body).reference, business_id: body(r.body).external_business_identifier })
        : r,
    ),
  ),
  fault(
    {
      id: 'payments.unknown-reference-stored',
      spec: '§2.7 (the service checks that the instruction exists)',
      subtle: false,
      description: 'An account payment instruction the vendor does not have is stored with 201.',
    },
    { around: { createPaymentInstruction: vendorKnowsEverything } },
  ),
  fault(
    {
      id: 'payments.staged-account-accepted',
      spec: '§1, §4.2 (data is added to an imported account)',
      subtle: true,
      description: 'A payment instruction for an account that is staged but not imported is accepted with 201.',
    },
    {
      around: {
        createPaymentInstruction: (req, env, next) => {
          const b = body<InstructionBody>(req.body);
          const process = env.store.process(b.import_supplier ?? '', b.external_account_number ?? '');
          return process && !process.account
            ? reply(201, { service_account_number: '', reference: b.reference })
            : next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'payments.unknown-business-accepted',
      spec: '§1, §4.4 (after a business exists, a payment instruction can be added)',
      subtle: false,
      description: 'A business payment instruction for a business that does not exist is accepted with 201.',
    },
    {
      around: {
        createBusinessPaymentInstruction: (req, env, next) => {
          const b = body<InstructionBody>(req.body);
          return env.store.business(b.import_supplier_code ?? '', b.external_business_identifier ?? '')
            ? next(req)
            : reply(201, { reference: b.reference, external_business_identifier: b.external_business_identifier });
        },
      },
    },
  ),
];
