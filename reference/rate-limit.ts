/**
 * A rate-limited server (the `rate-limited` profile): §8 says rate limits are "not shown", so a
 * faithful staging server may answer 429 with `Retry-After` on any endpoint. This one does so
 * deterministically: every `every`-th authenticated request to each data-import endpoint is refused
 * before its handler runs (nothing is changed), with `Retry-After` in delta-seconds and as an HTTP
 * date in turn. The suite must wait these out and stay clean (docs/design.md §8).
 */
import type { Choices } from './choices.js';
import { refusal, type Reply } from './reply.js';

export interface RateLimitPlan {
  /** Every n-th request per endpoint is answered 429. */
  every: number;
  /** What Retry-After asks, in seconds. */
  retryAfterSeconds: number;
}

const plans = new WeakMap<Choices, RateLimitPlan>();

/** `choices` that also rate-limit every endpoint by `plan` (the server reads the plan with `throttleFor`). */
export function rateLimited(choices: Choices, plan: RateLimitPlan): Choices {
  const limited = { ...choices };
  plans.set(limited, plan);
  return limited;
}

/**
 * The throttle of one server for these choices, or undefined when they set no plan: called once per
 * authenticated data-import request, before the handler; answers the 429 when this one is refused.
 */
export function throttleFor(choices: Choices): ((endpoint: string, now: Date) => Reply | undefined) | undefined {
  const plan = plans.get(choices);
  if (!plan) return undefined;
  const seen = new Map<string, number>();
  let refused = 0;
  return (endpoint, now) => {
    const n = (seen.get(endpoint) ?? 0) + 1;
    seen.set(endpoint, n);
    if (n % plan.every !== 0) return undefined;
    // Delta-seconds and HTTP-date in turn (RFC 9110 §10.2.3); the date is a whole second later than asked,
    // since an HTTP date drops the milliseconds.
    const retryAfter =
      refused++ % 2 === 0
        ? String(plan.retryAfterSeconds)
        : new Date(now.getTime() + (plan.retryAfterSeconds + 1) * 1000).toUTCString();
    return {
      ...refusal(429, 'throttled', 'Request rate limit reached; retry after the time in Retry-After.'),
      headers: { 'retry-after': retryAfter },
    };
  };
}
