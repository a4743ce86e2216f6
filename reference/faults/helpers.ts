/** Small tools faults are written with. */
import type { EndpointId } from '../../core/spec/index.js';
import type { HandlerRequest, ServerEnv } from '../handlers/shared.js';
import type { Reply } from '../reply.js';
import type { Around, FaultBehaviour, FaultDefinition } from './types.js';

/** A fault with stateless behaviour. */
export const fault = (def: Omit<FaultDefinition, 'create'>, behaviour: FaultBehaviour): FaultDefinition => ({
  ...def,
  create: () => behaviour,
});

/** Wraps an endpoint: the reply of the faithful handler, changed. */
export function rewrite(
  endpoint: EndpointId,
  change: (reply: Reply, req: HandlerRequest, env: ServerEnv) => Reply,
): FaultBehaviour {
  return { around: { [endpoint]: (async (req, env, next) => change(await next(req), req, env)) as Around } };
}

/** Wraps an endpoint: the faithful handler, given a changed request. */
export function alter(
  endpoint: EndpointId,
  change: (req: HandlerRequest, env: ServerEnv) => HandlerRequest,
): FaultBehaviour {
  return { around: { [endpoint]: ((req, env, next) => next(change(req, env))) as Around } };
}

export const body = <T extends object = Record<string, unknown>>(x: unknown) => (x ?? {}) as T;

/** A §7.1 validation reply (400 with an errors list). */
export const isValidationError = (
  r: Reply,
): r is Reply & { body: { detail: string; code: string; errors: { attr: string; code: string; detail: string }[] } } =>
  r.status === 400 && Array.isArray((r.body as { errors?: unknown })?.errors);

/** Rewrites every attr of a §7.1 reply. */
export function mapAttrs(r: Reply, fn: (attr: string) => string): Reply {
  if (!isValidationError(r)) return r;
  return { ...r, body: { ...r.body, errors: r.body.errors.map((e) => ({ ...e, attr: fn(e.attr) })) } };
}

/** A deep copy of a JSON-like request body. */
export const clone = <T>(x: T): T => structuredClone(x);

/** Maps every string in a JSON value. */
export function mapStrings(value: unknown, fn: (s: string, key: string) => string, key = ''): unknown {
  if (typeof value === 'string') return fn(value, key);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn, key));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fn, k)]));
  return value;
}
