/**
 * Not implemented is a state, not a failure. A supplier's mock often implements part of
 * the interface and answers 501 elsewhere; a rule that needed such an endpoint — to act or only to
 * observe — says nothing about the implementation, so it is not judged (skip) with one shared cause
 * per endpoint, `not-implemented.<operationId>`, and the capability matrix reads "not implemented".
 * Without acceptance (`--partial`, or `--allow-skip` globs) such MUST skips leave the run
 * incomplete (exit 4): a server cannot hide a broken rule by answering 501, it can only declare the
 * endpoint missing, which the user must accept explicitly.
 *
 * The log is kept per run (one per session) and only by the session's Api (a bare Api, e.g. the Pact
 * verifier's, reports statuses as they are).
 */
import type { Exchange } from '../http/exchange.js';
import { capText } from '../http/bounds.js';
import { type EndpointId, model } from '../spec/index.js';
import { NotImplemented } from './failures.js';
import type { Cause } from './verdict.js';

/**
 * A 404 to an authenticated request can only mean that the path is not there where the request looks
 * nothing up (the model's `looksUp: false`). §7.2 documents 404 as "account not found" (the notes
 * endpoint: not imported, wrong supplier code or number; the status endpoint: no import process), and
 * the data endpoints of §4.2 and the process endpoint of §4.1 look an account up, so a 404 there may
 * be that documented answer (the suite's errors.404.* rules expect exactly it) — never "not
 * implemented". The business payment instruction names a business that may not exist. A 404 to the
 * others, sent with the run's token and naming a supplier the operator configured (so it exists), is
 * an unknown path. An unknown supplier code may legally get a 404 from a listing (§4.3 does not say;
 * the reference server answers so), so a request naming none is never read so.
 */
/**
 * Does this answer say the endpoint is not implemented? 501 (Not Implemented) says so whatever the
 * request carried, so a mock that answers 501 before checking the token reads the same as one that
 * checks it first. 405 (Method Not Allowed, to the documented method) says so when the request names
 * a configured supplier: an odd supplier code in a path (`..`, a rule probing for 5xx) may lead a
 * router elsewhere. A 404 says so only to a request with the run's token that names a configured
 * supplier, on an endpoint that looks nothing up (the model's `looksUp`).
 */
export function answersNotImplemented(
  endpoint: EndpointId,
  status: number,
  request: { withRunToken: boolean; namesKnownSupplier: boolean },
): boolean {
  if (status === 501) return true;
  if (status === 405) return request.namesKnownSupplier;
  return status === 404 && request.withRunToken && request.namesKnownSupplier && !model.endpoints[endpoint].looksUp;
}

/** The supplier code a request names: the listings' path parameter, or the body's field (§2.2). */
export function supplierOf(params: Record<string, string> | undefined, body: unknown): string | undefined {
  if (params?.import_supplier_code !== undefined) return params.import_supplier_code;
  if (body === null || typeof body !== 'object') return undefined;
  const b = body as { import_supplier?: unknown; import_supplier_code?: unknown };
  const code = b.import_supplier ?? b.import_supplier_code;
  return typeof code === 'string' ? code : undefined;
}

export const notImplementedCauseId = (endpoint: string) => `not-implemented.${endpoint}`;

/** What the run found of one endpoint not implemented: the first such answer. */
export interface NotImplementedEntry {
  endpoint: EndpointId;
  status: number;
  /** `METHOD url` of the first request answered so. */
  request: string;
}

/** The run's not-implemented endpoints, in the order they were found. */
export class NotImplementedLog {
  private readonly found = new Map<EndpointId, NotImplementedEntry>();
  private readonly suppliers: ReadonlySet<string>;

  /** `suppliers`: the supplier codes the operator configured (fixtures.import_suppliers), known to exist. */
  constructor(suppliers: Iterable<string> = []) {
    this.suppliers = new Set(suppliers);
  }

  knowsSupplier(code: string | undefined): boolean {
    return code !== undefined && this.suppliers.has(code);
  }

  /** Records the endpoint (once) and returns the error that ends the rule that met it. */
  record(endpoint: EndpointId, exchange: Exchange, status: number): NotImplemented {
    const request = `${exchange.request.method} ${exchange.request.url}`;
    if (!this.found.has(endpoint)) this.found.set(endpoint, { endpoint, status, request });
    return notImplementedError(endpoint, status);
  }

  get entries(): NotImplementedEntry[] {
    return [...this.found.values()];
  }
}

/**
 * The error that ends a rule: its message (the skip's reason) names the endpoint by its documented
 * path, not the request's, so the rules it stopped read the same and are grouped as one reason.
 */
export function notImplementedError(endpoint: EndpointId, status: number): NotImplemented {
  const spec = model.endpoints[endpoint];
  return new NotImplemented(
    endpoint,
    status,
    notImplementedCauseId(endpoint),
    `${spec.words} not implemented (${spec.method} ${spec.path} answered ${status})`,
  );
}

/** The shared cause of one not-implemented endpoint, as reports list causes. */
export function notImplementedCause(entry: NotImplementedEntry): Cause {
  const spec = model.endpoints[entry.endpoint];
  return {
    id: notImplementedCauseId(entry.endpoint),
    step: `${model.endpoints[entry.endpoint].words} not implemented (${entry.status})`,
    answer: `${capText(entry.request, 300)} answered ${entry.status}`,
    // A 404 is read so only for a supplier the configuration names: if that supplier is not the
    // target's (a preset's stand-in left in place), the key is the mistake, not the endpoint.
    fix: entry.status === 404 ? ['run.partial', 'fixtures.import_suppliers'] : ['run.partial'],
    hint: `${spec.method} ${spec.path} (${spec.spec}) is not implemented by the target: the rules that need it are not judged; implement it, or accept the missing endpoints with --partial (run.partial: true)${entry.status === 404 ? '. A 404 is read so because the request named a configured supplier: if fixtures.import_suppliers does not name suppliers of this target, set it to ones that exist' : ''}`,
    status: entry.status,
  };
}
