/**
 * The redact stage: what the client records of an exchange, with every secret of the run replaced
 * (redact.ts). It runs before anything records or observes an exchange — the request before it is
 * paced or sent, the answer as soon as it is read — so that no later stage holds an unredacted value
 * to leak: transcripts, the answer log, an observer (a HAR file) and error messages are all built
 * from what this stage returns, never from the wire.
 */
import { type Exchange, clip } from '../exchange.js';
import type { Redactor } from '../redact.js';
import type { WireRequest } from './send.js';

/** A request as recorded: clipped for a transcript, and its redacted body whole for an observer. */
export interface RedactedRequest {
  /** What a transcript keeps: URL, headers and body redacted, the body clipped (exchange.ts `clip`). */
  recorded: Exchange['request'];
  /** The redacted body whole (undefined without one): redacted once, clipped for one reader, whole for the other. */
  body: string | undefined;
}

export function redactRequest(redactor: Redactor, wire: WireRequest): RedactedRequest {
  const body = wire.payload === undefined ? undefined : redactor.text(wire.payload);
  return {
    recorded: {
      method: wire.method,
      url: redactor.text(wire.path),
      headers: redactor.headers(wire.headers),
      ...(body !== undefined ? clip(body) : {}),
    },
    body,
  };
}

/** An answer as recorded: its headers and text redacted, whole (the record stage clips the text). */
export interface RedactedAnswer {
  headers: Record<string, string>;
  text: string;
}

/** The text first, then the headers: the order the client always redacted them in. */
export function redactAnswer(
  redactor: Redactor,
  answer: { headers: Record<string, string>; text: string },
): RedactedAnswer {
  const text = redactor.text(answer.text);
  return { headers: redactor.headers(answer.headers), text };
}
