/**
 * §4.2 agreements and supply points. Their payload shape is "not shown"; the reference accepts the
 * shape below (documented in reference/README.md) and reports validation errors under
 * `non_field_errors` as §7.1 says these endpoints do.
 */
import type { EndpointId } from '../../core/spec/index.js';
import { z } from 'zod';
import { strictModel } from '../../core/spec/index.js';
import type { Reply } from '../reply.js';
import { asNonFieldErrors, validationError } from '../validation.js';
import {
  type Handler,
  type ServerEnv,
  accountLookedUpFirst,
  checkBody,
  fieldError,
  importedAccountOr404,
  isReply,
  reply,
  requestOnImportedAccount,
} from './shared.js';

/** Reference shape: agreements for one existing supply point of the account. */
export const ReferenceAgreementsRequest = strictModel.AgreementsRequest.extend({
  supply_point_identifier: z.string().min(1),
  agreements: z.array(strictModel.Agreement).min(1),
}).strict();

/** The variant's shape: agreements grouped under the supply points they belong to. */
export const NestedAgreementsRequest = strictModel.AgreementsRequest.extend({
  supply_points: z
    .array(z.strictObject({ identifier: z.string().min(1), agreements: z.array(strictModel.Agreement).min(1) }))
    .min(1),
}).strict();

/** Reference shape: new supply points for the account. */
export const ReferenceSupplyPointsRequest = strictModel.SupplyPointsRequest.extend({
  supply_points: z.array(strictModel.SupplyPoint).min(1),
}).strict();

function parseNonField<S extends z.ZodType>(schema: S, body: unknown, env: ServerEnv): z.output<S> | Reply {
  const result = checkBody(schema, body, env);
  return result.ok ? result.data : validationError(asNonFieldErrors(result.errors));
}

export const createAgreements: Handler = (req, env) => {
  const early = accountLookedUpFirst(req.body, env);
  if (early) return early;
  const request =
    env.choices.agreementsShape === 'nested'
      ? parseNonField(NestedAgreementsRequest, req.body, env)
      : (() => {
          const r = parseNonField(ReferenceAgreementsRequest, req.body, env);
          return isReply(r)
            ? r
            : { ...r, supply_points: [{ identifier: r.supply_point_identifier, agreements: r.agreements }] };
        })();
  if (isReply(request)) return request;
  const account = importedAccountOr404(env, request.import_supplier, request.external_account_number);
  if (isReply(account)) return account;
  const points = request.supply_points.map((p) => account.supplyPoints.get(p.identifier));
  const missing = points.findIndex((p) => !p);
  if (missing >= 0) {
    const attr =
      env.choices.agreementsShape === 'nested' ? `supply_points.${missing}.identifier` : 'supply_point_identifier';
    return validationError(
      asNonFieldErrors([fieldError(attr, 'does_not_exist', 'The account has no supply point with this identifier.')]),
    );
  }
  // One by one: spreading a 100k-item list into push() overflows the stack.
  request.supply_points.forEach((p, i) => {
    for (const agreement of p.agreements) points[i]!.agreements.push(agreement);
  });
  return reply(201);
};

export const createSupplyPoints: Handler = (req, env) => {
  const started = requestOnImportedAccount(ReferenceSupplyPointsRequest, req, env, parseNonField);
  if (isReply(started)) return started;
  const { request, account } = started;
  const identifiers = request.supply_points.map((p) => p.identifier!);
  // Keyed: a request with 60k supply points is checked in linear time, not 60k x 60k comparisons.
  const earlier = new Set<string>();
  const clash = identifiers.findIndex((id) => account.supplyPoints.has(id) || earlier.size === earlier.add(id).size);
  if (clash >= 0) {
    return validationError(
      asNonFieldErrors([
        fieldError(
          `supply_points.${clash}.identifier`,
          'unique',
          'The account already has a supply point with this identifier.',
        ),
      ]),
    );
  }
  for (const point of request.supply_points) {
    account.supplyPoints.set(point.identifier!, {
      identifier: point.identifier!,
      agreements: [...(point.agreements ?? [])],
    });
  }
  return reply(201);
};

/** This area's endpoints and their handlers (reference/areas.ts registers the area). */
export const handlers = { createAgreements, createSupplyPoints } satisfies Partial<Record<EndpointId, Handler>>;
