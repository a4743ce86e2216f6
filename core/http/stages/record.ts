/**
 * The record stage: an exchange written to its rule's transcript, and to the run's own ledgers — the
 * answer log (answers.ts: whether the target is still answering), the latency gauge (latency.ts: the
 * runner's automatic width) and the failure count. It records only what the redact stage returned.
 */
import type { AnswerLog } from '../answers.js';
import { type Exchange, clip } from '../exchange.js';
import type { LatencyGauge } from '../latency.js';
import type { Redactor } from '../redact.js';
import type { Transcript } from '../transcript.js';
import type { Answer } from './bound.js';
import { failureOf } from './failure.js';
import type { Departure } from './pace.js';
import type { RedactedAnswer } from './redact.js';

/** The run's records an exchange counts in, beside its transcript: one of each per client. */
export interface Ledger {
  answers: AnswerLog;
  latency: LatencyGauge;
  stats: { failures: number };
}

/** A request on its way: its transcript label, what is recorded of it, and its departure. */
export interface Sent {
  /** The request's own label, else its transcript's when it was sent (several of a rule may be in flight). */
  step: string | undefined;
  request: Exchange['request'];
  departure: Departure;
}

/**
 * Records an answer (any status: a 500 is an answer) with its body clipped and its size in bytes as
 * read. Its duration is the target's: a wait for the large-body budget is the runner's own, and is
 * left out.
 */
export function recordAnswer(
  transcript: Transcript,
  ledger: Ledger,
  sent: Sent,
  answer: Answer,
  seen: RedactedAnswer,
): Exchange {
  const exchange = transcript.record({
    step: sent.step,
    request: sent.request,
    response: {
      status: answer.status,
      headers: seen.headers,
      ...clip(seen.text),
      bytes: Buffer.byteLength(answer.text),
    },
    duration_ms: performance.now() - sent.departure.started - answer.waitedMs,
  });
  ledger.answers.answered(sent.departure.n, sent.request);
  ledger.latency.record(exchange.duration_ms, answer.status);
  return exchange;
}

/**
 * Records an exchange that broke, counted as a failure, with its kind and redacted message
 * (failure.ts). A body too large was still an answer, so the answer log counts it as one; a refused
 * or reset connection was none (the log decides what counts as silence). The caller throws the
 * failure on as an ExchangeError.
 */
export function recordFailure(
  transcript: Transcript,
  ledger: Ledger,
  sent: Sent,
  error: unknown,
  words: { timeoutMs: number; redactor: Redactor },
): Exchange & { error: NonNullable<Exchange['error']> } {
  // Counted before the error is looked at: an error that cannot be described still counts.
  ledger.stats.failures++;
  const { kind, message } = failureOf(error, words.timeoutMs, words.redactor);
  const failed = transcript.record({
    step: sent.step,
    request: sent.request,
    error: { kind, message },
    duration_ms: performance.now() - sent.departure.started,
  });
  if (kind === 'too_large') ledger.answers.answered(sent.departure.n, sent.request);
  else ledger.answers.unanswered(sent.departure.n, sent.request, kind, failed);
  return failed as Exchange & { error: NonNullable<Exchange['error']> };
}
