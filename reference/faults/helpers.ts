/** Small tools faults are written with. */
import { type EndpointId, model } from '../../core/spec/index.js';
import { isPlainObject } from '../../core/spec/paths.js';
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

type Account = NonNullable<ReturnType<ServerEnv['store']['importedAccount']>>;

/**
 * A request refused 404 because its account is staged but not imported, whose data the server keeps
 * anyway and applies when the account is created (§7.2 404, §4.2 "added to an imported account"):
 * `kept` picks what to keep from such a request, `apply` writes it into the new account.
 */
export function keptUntilImport<T>(
  endpoint: EndpointId,
  kept: (body: Record<string, unknown>) => T[] | undefined,
  apply: (account: Account, items: T[]) => void,
): FaultBehaviour {
  const waiting = new Map<string, T[]>();
  const key = (supplier: unknown, ext: unknown) => JSON.stringify([supplier, ext]);
  const keep: Around = async (req, env, next) => {
    const r = await next(req);
    const b = body(req.body);
    const process = env.store.process(b.import_supplier as string, b.external_account_number as string);
    const items = r.status === 404 && process && !process.account ? kept(b) : undefined;
    if (items) {
      const k = key(b.import_supplier, b.external_account_number);
      waiting.set(k, [...(waiting.get(k) ?? []), ...items]);
    }
    return r;
  };
  return {
    around: {
      [endpoint]: keep,
      processAccount: async (req, env, next) => {
        const r = await next(req);
        const b = body<{ import_supplier_code?: string; external_account_number?: string }>(req.body);
        const k = key(b.import_supplier_code, b.external_account_number);
        const account = env.store.importedAccount(String(b.import_supplier_code), String(b.external_account_number));
        if (r.status === 201 && account && waiting.has(k)) {
          apply(account, waiting.get(k) ?? []);
          waiting.delete(k);
        }
        return r;
      },
    },
  };
}

/** The page of a bulk insert that stops there: `keptFirstPage`. */
export const BULK_PAGE = 20;

/**
 * A bulk insert cut at its page size: a request of more than BULK_PAGE items of `list` answers as
 * the faithful handler does (each item created), but of the items it added to the account's
 * `stored` list only the first BULK_PAGE stay; `forget` drops what else recorded a dropped one.
 */
export function keptFirstPage<T>(
  endpoint: EndpointId,
  list: string,
  stored: (account: Account) => T[],
  forget: (account: Account, dropped: T) => void = () => undefined,
): FaultBehaviour {
  const cut: Around = async (req, env, next) => {
    const b = body(req.body);
    const account = env.store.importedAccount(String(b.import_supplier), String(b.external_account_number));
    const before = account ? stored(account).length : 0;
    const res = await next(req);
    const items = b[list];
    if (account && Array.isArray(items) && items.length > BULK_PAGE)
      for (const dropped of stored(account).splice(before + BULK_PAGE)) forget(account, dropped);
    return res;
  };
  return { around: { [endpoint]: cut } };
}

export const isSupplierKey = (field: string) => field === 'import_supplier' || field === 'import_supplier_code';

/**
 * The stored spelling of `value` under a case-insensitive compare, where it is not stored as sent:
 * what a key folded by a collation finds (a supplier code; an account number or business identifier
 * under `supplier`).
 */
export function storedSpelling(env: ServerEnv, field: string, value: string, supplier: string | undefined): string {
  const same = (stored: string) => stored !== value && stored.toLowerCase() === value.toLowerCase();
  const { store } = env;
  if (isSupplierKey(field))
    return store.suppliers.has(value) ? value : ([...store.suppliers.keys()].find(same) ?? value);
  if (field === 'external_account_number') {
    if (supplier === undefined || store.process(supplier, value)) return value;
    for (const p of store.processes.values())
      if (p.supplier === supplier && same(p.externalAccountNumber)) return p.externalAccountNumber;
  }
  if (field === 'external_business_identifier')
    return (
      store.businesses.find((b) => b.supplier === supplier && same(b.externalIdentifier))?.externalIdentifier ?? value
    );
  return value;
}

/**
 * The endpoint looks `fold` of its key fields `keys` (path parameters of a read, body fields
 * otherwise) up case-insensitively: each is replaced by the spelling the store holds. The supplier
 * first, so the account or business is looked up under the supplier the request names (or found).
 */
export function foldingCase(id: EndpointId, keys: readonly string[], fold: readonly string[] = keys): FaultBehaviour {
  const read = model.endpoints[id].method === 'GET';
  const supplierFirst = [...keys.filter(isSupplierKey), ...keys.filter((k) => !isSupplierKey(k))];
  return alter(id, (req, env) => {
    if (!read && !isPlainObject(req.body)) return req;
    const changed: Record<string, unknown> = { ...(read ? req.params : (req.body as Record<string, unknown>)) };
    let supplier: string | undefined;
    for (const k of supplierFirst) {
      const value = changed[k];
      if (typeof value !== 'string') continue;
      if (fold.includes(k)) changed[k] = storedSpelling(env, k, value, supplier);
      if (isSupplierKey(k)) supplier = changed[k] as string;
    }
    return read ? { ...req, params: changed as Record<string, string> } : { ...req, body: changed };
  });
}
