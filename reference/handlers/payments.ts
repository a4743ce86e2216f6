/** §2.7, §4.2, §4.4: payment instructions for an account and for a business, checked upstream. */
import type { EndpointId } from '../../core/spec/index.js';
import { strictModel } from '../../core/spec/index.js';
import { validationError } from '../validation.js';
import {
  type Handler,
  checkWithVendor,
  fieldError,
  isReply,
  parseBody,
  reply,
  requestOnImportedAccount,
} from './shared.js';

export const createPaymentInstruction: Handler = (req, env) => {
  const started = requestOnImportedAccount(strictModel.PaymentInstructionRequest, req, env);
  if (isReply(started)) return started;
  const { request, account } = started;
  const refused = checkWithVendor(env, request);
  if (refused) return refused;
  account.paymentInstructions.push({ vendor: request.vendor, reference: request.reference, type: request.type });
  return reply(201, { service_account_number: account.number, reference: request.reference });
};

export const createBusinessPaymentInstruction: Handler = (req, env) => {
  const request = parseBody(strictModel.BusinessPaymentInstructionRequest, req.body, env);
  if (isReply(request)) return request;
  const business = env.store.business(request.import_supplier_code, request.external_business_identifier);
  if (!business) {
    return env.choices.unknownBusiness === 'validation'
      ? validationError([
          fieldError('external_business_identifier', 'does_not_exist', 'No business with this external identifier.'),
        ])
      : env.choices.notFound('No business with this external identifier for this import supplier.');
  }
  // Listed accounts must be accounts of the supplier that exist (not shown; the reference reads it so).
  const unknown = (request.accounts ?? [])
    .map((a, i) => ({ i, number: a.external_account_number! }))
    .filter(({ number }) => !env.store.importedAccount(request.import_supplier_code, number));
  if (unknown.length) {
    return validationError(
      unknown.map(({ i }) =>
        fieldError(
          `accounts.${i}.external_account_number`,
          'does_not_exist',
          'No imported account with this external number.',
        ),
      ),
    );
  }
  const refused = checkWithVendor(env, request);
  if (refused) return refused;
  business.paymentInstructions.push({
    vendor: request.vendor,
    reference: request.reference,
    type: request.type,
    accounts: (request.accounts ?? []).map((a) => a.external_account_number!),
  });
  return reply(201, { reference: request.reference, external_business_identifier: business.externalIdentifier });
};

/** This area's endpoints and their handlers (reference/areas.ts registers the area). */
export const handlers = { createPaymentInstruction, createBusinessPaymentInstruction } satisfies Partial<
  Record<EndpointId, Handler>
>;
