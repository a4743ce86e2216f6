/**
 * What an exchange that broke is recorded as: the kind of failure and a message that holds no
 * secret. Any error of the send or bound stages (and of recording an answer) ends up here, so the
 * kinds are decided in one place; a rule that meets one is an error, never a fail (exchange.ts).
 */
import { errors as undiciErrors } from 'undici';
import type { ExchangeErrorKind } from '../exchange.js';
import type { Redactor } from '../redact.js';
import { DeadlineExceeded } from './bound.js';

/**
 * The kind of an exchange's failure:
 * - `too_large`: the body passed the response cap (undici's maxResponseSize) — the target answered;
 * - `timeout`: no headers, no connection, a pause in the body, or not the whole body in time;
 * - `refused`: nothing listens at the target;
 * - `reset`: the connection broke (a GET is sent again once, HttpClient.send);
 * - `other`: anything else (an error the client itself raised included).
 */
export function classify(error: unknown): ExchangeErrorKind {
  if (error instanceof undiciErrors.ResponseExceededMaxSizeError) return 'too_large';
  if (
    error instanceof DeadlineExceeded ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError
  )
    return 'timeout';
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return 'reset';
  return 'other';
}

export function describeError(error: unknown): string {
  if (error instanceof undiciErrors.ResponseExceededMaxSizeError) return 'the response body is larger than the limit';
  const e = error as { message?: string; code?: string; cause?: { message?: string; code?: string } };
  const code = e.code ?? e.cause?.code;
  const message = e.cause?.message ?? e.message ?? String(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/** A failure as recorded. */
export interface Failure {
  kind: ExchangeErrorKind;
  message: string;
}

/**
 * The failure `error` is, in words a report can show: a timeout says the deadline (undici's words
 * name its own timers, which a reader never set), anything else undici's message with its code,
 * redacted — an error may quote a URL or a header.
 */
export function failureOf(error: unknown, timeoutMs: number, redactor: Redactor): Failure {
  const kind = classify(error);
  const message =
    kind === 'timeout' ? `no complete response within ${timeoutMs} ms` : redactor.value(describeError(error));
  return { kind, message };
}
