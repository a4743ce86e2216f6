/** What every handler receives, and the steps several endpoints share. */
import type { IncomingHttpHeaders } from 'node:http';
import { z as zod, type z } from 'zod';
import { seen } from '../../core/spec/index.js';
import type { EndpointId } from '../../core/spec/index.js';
import type { SpecChecks } from '../checks.js';
import type { Choices } from '../choices.js';
import { type FieldLimits, limitErrors } from '../field-limits.js';
import { reply, type Reply } from '../reply.js';
import type { Account, ReferenceStore } from '../store.js';
import {
  type ErrorItem,
  type FailureSummary,
  type Validated,
  INVALID_INPUT,
  validate,
  validationError,
} from '../validation.js';
import { dotPath } from '../../core/spec/paths.js';

export interface ServerEnv {
  store: ReferenceStore;
  choices: Choices;
  /** The spec rules handlers consult by name (checks.ts); a faithful server states them as the spec does. */
  checks: SpecChecks;
  now(): Date;
  /** What this server stores at most where the spec shows no limit (field-limits.ts); unset: no limit. */
  fieldLimits?: FieldLimits;
}

/**
 * The current time on the server's own clock (§4.2 notes rule 3: "the current local time"), which
 * the server writes in the §2.1 `…Z` form: UTC shifted by its zone's offset (choices.ts).
 */
export function localNow(env: ServerEnv): Date {
  return new Date(env.now().getTime() + env.choices.localTimeOffsetMinutes * 60_000);
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
  const { choices } = env;
  // The errors this server reports (§7.1), less those its legal leniencies (§2.1) look past.
  const counts = (e: ErrorItem) =>
    env.checks.reportsError(e) &&
    (choices.refuseUndocumentedFields || e.code !== 'unknown_field') &&
    !(
      choices.acceptIsoDatetimeVariants &&
      e.code === 'invalid_datetime' &&
      ZonedIsoDatetime.safeParse(valueAt(body, e.attr)).success
    );
  const result = validate(schema, body, counts);
  const errors = [
    ...(result.ok ? [] : result.errors),
    ...vocabularyErrors(body, env),
    ...limitErrors(body, env.fieldLimits),
  ];
  if (errors.length === 0) return result.ok ? result : { ok: true, data: body as z.output<S> };
  const remaining = errors.filter(counts);
  return remaining.length === 0 ? { ok: true, data: body as z.output<S> } : { ok: false, errors: remaining };
}

/** ISO 8601 with a zone: `Z` or an offset, fractions allowed (a server's legal leniency, §2.1). */
const ZonedIsoDatetime = zod.iso.datetime({ offset: true });

/** The value at a §7.1 attr path inside a payload. */
export function valueAt(body: unknown, attr: string): unknown {
  let node = body;
  for (const part of attr.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** §2.4: reasons and payment types outside the values shown, when the server closes those lists. */
function vocabularyErrors(body: unknown, env: ServerEnv): ErrorItem[] {
  if (!env.choices.closedTransactionVocabularies) return [];
  const errors: ErrorItem[] = [];
  const walk = (node: unknown, path: string[]) => {
    if (Array.isArray(node)) node.forEach((v, i) => walk(v, [...path, String(i)]));
    else if (node && typeof node === 'object') {
      const obj = node as Record<string, unknown>;
      if ('transaction_id' in obj) {
        if (typeof obj.reason === 'string' && !seen.transactionReasons.includes(obj.reason as never))
          errors.push(fieldError(dotPath([...path, 'reason']), 'invalid_choice', 'Unknown reason.'));
        if (typeof obj.payment_type === 'string' && !seen.paymentTypes.includes(obj.payment_type as never))
          errors.push(fieldError(dotPath([...path, 'payment_type']), 'invalid_choice', 'Unknown payment type.'));
      }
      for (const [k, v] of Object.entries(obj)) walk(v, [...path, k]);
    }
  };
  walk(body, []);
  return errors;
}

/** Validates and, on failure, answers with the §7.1 body. */
export function parseBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  env: ServerEnv,
  summary: FailureSummary = INVALID_INPUT,
): z.output<S> | Reply {
  const result = checkBody(schema, body, env);
  return result.ok ? result.data : validationError(result.errors, summary);
}

/** §4.2: the data-adding endpoints need an imported account; staged-only or unknown gives 404. */
export function importedAccountOr404(env: ServerEnv, supplier: string, externalAccountNumber: string): Account | Reply {
  const account = env.store.importedAccount(supplier, externalAccountNumber);
  return (
    account ?? env.choices.notFound('No imported account exists for this import supplier and external account number.')
  );
}

/**
 * When the server looks the account up before validating the body (a choice): a body that names an
 * account by its key (§4.2) gets the 404 of an account that is not imported before any validation.
 * A body without a readable key is left to validation.
 */
export function accountLookedUpFirst(
  body: unknown,
  env: ServerEnv,
  key: 'import_supplier' | 'import_supplier_code' = 'import_supplier',
): Reply | null {
  if (!env.choices.accountLookupFirst || body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const { [key]: supplier, external_account_number: ext } = body as Record<string, unknown>;
  if (typeof supplier !== 'string' || typeof ext !== 'string') return null;
  const account = importedAccountOr404(env, supplier, ext);
  return isReply(account) ? account : null;
}

/**
 * How every §4.2 request that names an imported account starts: the account looked up first where
 * the server chooses to, the body checked (by `parse`, `parseBody` unless the endpoint reports its
 * errors otherwise), then the imported account it names, or the 404 of §7.2.
 */
export function requestOnImportedAccount<
  S extends z.ZodType<{ import_supplier?: string; external_account_number?: string }>,
>(
  schema: S,
  req: HandlerRequest,
  env: ServerEnv,
  parse: (schema: S, body: unknown, env: ServerEnv) => z.output<S> | Reply = parseBody,
): { request: z.output<S>; account: Account } | Reply {
  const early = accountLookedUpFirst(req.body, env);
  if (early) return early;
  const request = parse(schema, req.body, env);
  if (isReply(request)) return request;
  const account = importedAccountOr404(env, request.import_supplier!, request.external_account_number!);
  return isReply(account) ? account : { request, account };
}

export const fieldError = (attr: string, code: string, detail: string): ErrorItem => ({ attr, code, detail });

/**
 * §2.7: the service asks the upstream vendor whether the instruction exists. Persistent trouble is a
 * 400 (not retried as is), intermittent trouble a 500 (retried as is).
 */
export function checkWithVendor(
  env: ServerEnv,
  request: { vendor: string; reference: string; type?: string },
): Reply | null {
  const instruction = env.store.vendorInstruction(request.vendor, request.reference);
  if (!instruction) {
    return validationError([
      fieldError(
        'reference',
        'payment_instruction_not_found',
        'The payment vendor has no instruction with this reference.',
      ),
    ]);
  }
  if (instruction.behaviour === 'persistent_failure') return env.choices.vendorPersistentFailure();
  if (instruction.behaviour === 'intermittent_failure') return env.choices.vendorIntermittentFailure();
  if (instruction.type !== undefined && request.type !== undefined && instruction.type !== request.type) {
    return validationError([
      fieldError('type', 'does_not_match_vendor', 'The instruction has another type at the payment vendor.'),
    ]);
  }
  return null;
}

export { reply };

/**
 * A note's document paths as stored. Validation guarantees their shape, but a server made lenient
 * from outside (an ignored validation issue) lets any JSON through, and the handler must still not
 * answer 500 for it: that would be a second defect beside the one made on purpose.
 */
export function documentPathsOf(paths: unknown): string[] {
  if (!Array.isArray(paths)) return [];
  return paths.map((d) => {
    const path = d && typeof d === 'object' ? (d as { document_path?: unknown }).document_path : undefined;
    return typeof path === 'string' ? path : '';
  });
}
