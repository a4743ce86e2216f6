/** The faults switched on in one server, combined into the hooks the server consults. */
import type { EndpointId } from '../../core/spec/index.js';
import type { SpecChecks } from '../checks.js';
import type { Handler } from '../handlers/shared.js';
import type { FaultBehaviour } from './types.js';

export class ActiveFaults {
  private readonly behaviours: FaultBehaviour[];

  constructor(behaviours: FaultBehaviour[] = []) {
    this.behaviours = behaviours;
  }

  get any(): boolean {
    return this.behaviours.length > 0;
  }

  /** The spec rules the handlers consult, with every active fault's replacements laid over them. */
  checks(faithful: SpecChecks): SpecChecks {
    let spec = faithful;
    for (const { ignoreIssue, checks } of this.behaviours) {
      if (ignoreIssue) {
        const reports = spec.reportsError;
        spec = { ...spec, reportsError: (e) => !ignoreIssue(e) && reports(e) };
      }
      if (checks) spec = { ...spec, ...checks(spec) };
    }
    return spec;
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
}
