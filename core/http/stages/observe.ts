/**
 * The observe stage: every exchange told, as it completes, to the client's observer (a HAR
 * recording, the report's coverage), bodies whole and redacted. Told after the record stage, from
 * what the redact stage returned; an observer that throws never breaks the rule that sent the request.
 */
import type { Exchange } from '../exchange.js';
import type { HttpRequest } from '../request.js';
import type { SharedBody } from '../shared-body.js';
import type { Transcript } from '../transcript.js';
import type { Departure } from './pace.js';
import type { RedactedRequest } from './redact.js';

/** Who sent an exchange, for a recording of the run: the rule (or the setup chain), and what it broke on purpose. */
export interface Sender {
  rule: string;
  deliberate?: string;
  /** The request named its subject by a near miss of its key on purpose, in these words. */
  nearMiss?: string;
}

/**
 * Told of every exchange of the client as it completes, in full: the request and response bodies
 * whole (not clipped as transcripts clip them), redacted as transcripts are. `seq` numbers the
 * client's requests; `startedAt` is when the request was sent; `origin` the target's (URLs are paths); `sender` the rule that sent it, when a rule did. For a HAR recording and the status and
 * field coverage of a run (app/traffic/har.ts, core/report/coverage.ts), which must see every
 * exchange, not the ones transcripts keep. An observer that throws is ignored: it never breaks a rule.
 */
export type ExchangeObserver = (
  exchange: Exchange,
  startedAt: Date,
  origin: string,
  sender?: Sender,
  /**
   * The response body parsed, shared with the rule that reads it (one parse of a big body, not two):
   * given when the recorded body is the text the rule reads (redaction changed nothing).
   */
  response?: SharedBody,
  /**
   * The top-level text fields of the request body as it was sent (send.ts `fields`): given when
   * the recorded body is the text sent (redaction changed nothing), so a reader of a key or two
   * need not parse the body.
   */
  requestFields?: Readonly<Record<string, string>>,
) => void;

/** Who sent an exchange; what it broke on purpose worked out when first read, once. */
export function senderOf(rule: string, deliberate: HttpRequest['deliberate'], nearMiss?: string): Sender {
  let said = deliberate;
  return {
    rule,
    ...(nearMiss !== undefined ? { nearMiss } : {}),
    get deliberate() {
      if (typeof said === 'function') said = said();
      return said;
    },
  };
}

/** One exchange's observer and what it is told beside the exchange. */
export interface Watch {
  observer: ExchangeObserver;
  origin: string;
  /** Its `step` (read as the exchange completes) labels the exchange; its `sender` names the rule. */
  transcript: Transcript;
  deliberate: HttpRequest['deliberate'];
  nearMiss?: string;
  departure: Departure;
  /** The request's top-level text fields, when its recorded body is the text sent. */
  requestFields?: Readonly<Record<string, string>>;
}

/** The request as an observer sees it: as recorded, with the redacted body whole instead of clipped. */
export function wholeRequest(request: RedactedRequest): Exchange['request'] {
  return { ...request.recorded, ...(request.body !== undefined ? { body: request.body } : {}) };
}

/**
 * Tells the observer of an answer, its body whole. The parsed body is shared only when what the
 * observer reads is the text the rule reads: a body redaction changed parses to something else.
 */
export function observeAnswer(
  watch: Watch,
  request: RedactedRequest,
  exchange: Exchange,
  seenText: string,
  shared: SharedBody,
): void {
  const response = exchange.response!;
  tell(
    watch,
    {
      request: wholeRequest(request),
      response: { status: response.status, headers: response.headers, body: seenText, bytes: response.bytes },
      duration_ms: exchange.duration_ms,
    },
    seenText === shared.text ? shared : undefined,
  );
}

/** Tells the observer of an exchange that broke, with its recorded error. */
export function observeFailure(watch: Watch, request: RedactedRequest, failed: Exchange): void {
  tell(watch, { request: wholeRequest(request), error: failed.error, duration_ms: failed.duration_ms });
}

function tell(watch: Watch, exchange: Omit<Exchange, 'seq' | 'step'>, response?: SharedBody): void {
  const { transcript } = watch;
  try {
    watch.observer(
      { seq: watch.departure.n, ...(transcript.step ? { step: transcript.step } : {}), ...exchange },
      watch.departure.startedAt,
      watch.origin,
      transcript.sender === undefined ? undefined : senderOf(transcript.sender, watch.deliberate, watch.nearMiss),
      response,
      watch.requestFields,
    );
  } catch {
    // The observer's own trouble (a full disk under a HAR file) is its to report.
  }
}
