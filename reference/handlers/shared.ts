/** What every handler receives, and the steps several endpoints share. */
import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import type { EndpointId } from '../../src/spec/index.js';
import type { Choices } from '../choices.js';
import type { ActiveFaults } from '../faults/active.js';
import { reply, type Reply } from '../reply.js';
import type { Account, ReferenceStore } from '../store.js';
import { type ErrorItem, type FailureSummary, type Validated, INVALID_INPUT, validate, validationError } from '../validation.js';

export interface ServerEnv {
  store: ReferenceStore;
  choices: Choices;
  /** Faults switched on for this server (none on a faithful server). */
  faults: ActiveFaults;
  now(): Date;
}

export interface HandlerRequest {
  endpoint?: EndpointId;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: IncomingHttpHeaders;
}

export type Handler = (req: HandlerRequest, env: ServerEnv) => Reply | Promise<Reply>;

export const isReply = (value: unknown): value is Reply =>
  typeof value === 'object' && value !== null && 'status' in value && typeof (value as Reply).status === 'number';

/**
 * Validates a request body against the strict model. When the server does not refuse undocumented
 * fields (a legal choice, §2.1), unknown keys alone do not fail the request.
 */
export function checkBody<S extends z.ZodType>(schema: S, body: unknown, env: ServerEnv): Validated<z.output<S>> {
  const result = validate(schema, body);
  if (result.ok) return result;
  let remaining = env.faults.filterErrors(result.errors);
  if (!env.choices.refuseUndocumentedFields) remaining = remaining.filter((e) => e.code !== 'unknown_field');
  return remaining.length === 0 ? { ok: true, data: body as z.output<S> } : { ok: false, errors: remaining };
}

/** Validates and, on failure, answers with the §7.1 body. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, env: ServerEnv, summary: FailureSummary = INVALID_INPUT): z.output<S> | Reply {
  const result = checkBody(schema, body, env);
  return result.ok ? result.data : validationError(result.errors, summary);
}

/** §4.2: the data-adding endpoints need an imported account; staged-only or unknown gives 404. */
export function importedAccountOr404(env: ServerEnv, supplier: string, externalAccountNumber: string): Account | Reply {
  const account = env.store.importedAccount(supplier, externalAccountNumber);
  return account ?? env.choices.notFound('No imported account exists for this import supplier and external account number.');
}

export const fieldError = (attr: string, code: string, detail: string): ErrorItem => ({ attr, code, detail });

/**
 * §2.7: the service asks the upstream vendor whether the instruction exists. Persistent trouble is a
 * 400 (not retried as is), intermittent trouble a 500 (retried as is).
 */
export function checkWithVendor(env: ServerEnv, request: { vendor: string; reference: string; type?: string }): Reply | null {
  const instruction = env.store.vendorInstruction(request.vendor, request.reference);
  if (!instruction) {
    return validationError([fieldError('reference', 'payment_instruction_not_found', 'The payment vendor has no instruction with this reference.')]);
  }
  if (instruction.behaviour === 'persistent_failure') return env.choices.vendorPersistentFailure();
  if (instruction.behaviour === 'intermittent_failure') return env.choices.vendorIntermittentFailure();
  if (instruction.type !== undefined && request.type !== undefined && instruction.type !== request.type) {
    return validationError([fieldError('type', 'does_not_match_vendor', 'The instruction has another type at the payment vendor.')]);
  }
  return null;
}

export { reply };
