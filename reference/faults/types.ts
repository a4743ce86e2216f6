/**
 * A fault breaks exactly one documented rule of the reference server and leaves everything else
 * faithful. The catalogue proves the suite's sensitivity: every fault must make some rule fail.
 */
import type { EndpointId } from '../../core/spec/index.js';
import type { SpecChecks } from '../checks.js';
import type { HandlerRequest, ServerEnv } from '../handlers/shared.js';
import type { Reply } from '../reply.js';
import type { ErrorItem } from '../validation.js';
import type { JudgingLevel } from '../../core/engine/verdict.js';

/** Calls the faithful handler (possibly with a changed request). */
export type Next = (req: HandlerRequest) => Reply | Promise<Reply>;

/** Wraps one endpoint: may change the request, the reply, or the store around the faithful handler. */
export type Around = (req: HandlerRequest, env: ServerEnv, next: Next) => Reply | Promise<Reply>;

export interface FaultBehaviour {
  around?: Partial<Record<EndpointId, Around>>;
  /** Decides authentication instead of the faithful check (which it receives). */
  authenticate?: (
    endpoint: EndpointId | undefined,
    authorization: string | undefined,
    faithful: boolean,
    env: ServerEnv,
  ) => boolean;
  /** Validation leniency: validation errors this returns true for are not reported (the input is accepted). */
  ignoreIssue?: (issue: ErrorItem) => boolean;
  /**
   * Replaces named spec rules the handlers consult (checks.ts), for a rule that no change around a
   * handler can break honestly; it receives the rules as they stand without this fault.
   */
  checks?: (spec: SpecChecks) => Partial<SpecChecks>;
}

/**
 * Where a fault sits when it proves a family: out of every older rule's sight. `npm run mutation`
 * checks it on every run: each rule in `by` catches it (at the fault's level), and no rule fails but
 * those and the rules under the `beside` prefixes (rules built for the same blind spot).
 */
export interface Placement {
  by: readonly string[];
  beside?: readonly string[];
}

export interface FaultDefinition {
  id: string;
  /**
   * The family of faults generated for every endpoint (families.ts) it belongs to: it proves a
   * generic rule family, not an endpoint's own rules, so it never counts as an endpoint's own fault.
   */
  family?: string;
  /** The spec rule it breaks. */
  spec: string;
  /** One sentence: what the server does wrong. */
  description: string;
  /** Shows only under particular inputs, indexes, orderings, flags or sequences. */
  subtle: boolean;
  /**
   * MUST (default): the fault breaks a rule the spec states, so a MUST rule has to catch it.
   * SHOULD: it breaks only a strong reading, or what it breaks cannot be observed with certainty
   * through the interface; a SHOULD rule catching it is enough. `why` says which.
   */
  level?: JudgingLevel;
  why?: string;
  /** Set when the fault shows that only a family catches it (see Placement). */
  placement?: Placement;
  /** Fresh behaviour per server (faults may keep state, e.g. which accounts had a dry run). */
  create(): FaultBehaviour;
}
