/**
 * What "the implementation did not answer" means for a verdict (docs/design.md §2): an exchange that
 * got no response (a reset, a timeout, a refused connection) or a gateway's 502–504 in its place.
 * Such an ending is not judged and may be tried again — a whole rule by the runner (run.ts), one
 * generated case by the property runner (property.ts) — never turned into a fail.
 */
import { ExchangeError, type Exchange } from '../http/exchange.js';
import { RuleFailure } from './failures.js';

/** Exchange errors where no answer came at all. */
const NO_ANSWER: ReadonlySet<string> = new Set(['reset', 'timeout', 'refused']);

/** Statuses a gateway answers for a service it could not reach (or a service unavailable for now). */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

export const noAnswer = (error: ExchangeError): boolean => NO_ANSWER.has(error.kind);

/** "POST /v1/… answered 503" when the exchange a failure is about got a gateway's answer. */
export function gatewayAnswer(transcript: readonly Exchange[], seq: number | undefined): string | undefined {
  if (seq === undefined) return undefined;
  const exchange = transcript.find((e) => e.seq === seq);
  const status = exchange?.response?.status;
  return exchange && status !== undefined && GATEWAY_STATUSES.has(status)
    ? `${exchange.request.method} ${exchange.request.url} answered ${status}`
    : undefined;
}

/**
 * Why `error` says nothing about the implementation (undefined when it does): no answer came, or the
 * failure is about a gateway's 502–504. `transcript` holds the exchanges the failure may point at.
 */
export function transientCause(error: unknown, transcript: readonly Exchange[]): string | undefined {
  if (error instanceof ExchangeError) return noAnswer(error) ? error.message : undefined;
  if (error instanceof RuleFailure) {
    const gateway = gatewayAnswer(transcript, error.detail.exchange_seq);
    return gateway && `${gateway} instead of the implementation`;
  }
  return undefined;
}
