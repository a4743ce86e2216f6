/** The faults switched on in one server, combined into the hooks the server consults. */
import type { EndpointId } from '../../src/spec/index.js';
import type { Handler } from '../handlers/shared.js';
import type { ErrorItem } from '../validation.js';
import type { FaultBehaviour } from './types.js';

export class ActiveFaults {
  private readonly behaviours: FaultBehaviour[];
  private readonly flags: Set<string>;

  constructor(behaviours: FaultBehaviour[] = []) {
    this.behaviours = behaviours;
    this.flags = new Set(behaviours.flatMap((b) => b.flags ?? []));
  }

  get any(): boolean {
    return this.behaviours.length > 0;
  }

  has(flag: string): boolean {
    return this.flags.has(flag);
  }

  /** The handler of an endpoint with every active wrapper around it. */
  wrap(endpoint: EndpointId | undefined, handler: Handler): Handler {
    if (!endpoint) return handler;
    return this.behaviours.reduce<Handler>((inner, b) => {
      const around = b.around?.[endpoint];
      return around ? (req, env) => around(req, env, (r) => inner(r, env)) : inner;
    }, handler);
  }

  authenticate(
    endpoint: EndpointId | undefined,
    authorization: string | undefined,
    faithful: boolean,
    env: Parameters<NonNullable<FaultBehaviour['authenticate']>>[3],
  ): boolean {
    return this.behaviours.reduce(
      (ok, b) => (b.authenticate ? b.authenticate(endpoint, authorization, ok, env) : ok),
      faithful,
    );
  }

  /** The validation errors that remain once lenient faults have looked away. */
  filterErrors(errors: ErrorItem[]): ErrorItem[] {
    const ignores = this.behaviours.flatMap((b) => (b.ignoreIssue ? [b.ignoreIssue] : []));
    return ignores.length ? errors.filter((e) => !ignores.some((ignore) => ignore(e))) : errors;
  }
}

export const NO_FAULTS = new ActiveFaults();
