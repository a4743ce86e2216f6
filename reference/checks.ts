/**
 * The rules of the spec that the handlers consult by name, each stated by its faithful value.
 * A handler asks "is staging refused for a Paused supplier?", never which server it is: a server
 * built to break a rule (the kill matrix) replaces that rule's value from outside, and the handler
 * stays faithful. Only rules that no change of the request, the reply or the store around a handler
 * can break honestly live here: a supplier's status and the §8 limit are shared by concurrent
 * requests (and process awaits between its checks and its answer), so changing them for one request
 * would leak into others; the §5.1 API key sits inside a GraphQL document; and which validation
 * errors are reported is decided inside validation.
 */
import type { SupplierStatus } from './store.js';
import type { ErrorItem } from './validation.js';

export interface SpecChecks {
  /**
   * §2.2, §4.1: staging is refused once a supplier is Paused or Complete, for a first staging and
   * for replacing staged data (`restaging`) alike.
   */
  refusesStagingFor(status: Exclude<SupplierStatus, 'Ongoing'>, restaging: boolean): boolean;
  /** §2.2 "accounts that try to migrate get an error": so is processing an account staged before. */
  refusesProcessingFor(status: Exclude<SupplierStatus, 'Ongoing'>): boolean;
  /** §8, §4.1 process rule 4: whether the operator's concurrency limit is applied. */
  concurrencyLimited: boolean;
  /** §5.1: whether ObtainServiceToken needs an API key the operator issued. */
  apiKeyMustBeIssued: boolean;
  /** §7.1: whether a validation error is reported (the input is refused) or looked past. */
  reportsError(error: ErrorItem): boolean;
}

export const faithfulChecks: SpecChecks = {
  refusesStagingFor: () => true,
  refusesProcessingFor: () => true,
  concurrencyLimited: true,
  apiKeyMustBeIssued: true,
  reportsError: () => true,
};
