/**
 * Whether the target is still answering: the run's requests numbered in the order they were sent,
 * the last one that got an answer, and the requests that got none since (the connection refused or
 * reset). A target that crashed mid-run shows as every request after some point getting no answer;
 * the report names that point once (`stopped_answering`) instead of leaving a reader to infer it
 * from many rules that each say ECONNREFUSED.
 */
import type { Exchange, ExchangeErrorKind } from './exchange.js';

/** One request of the run: its number in the order the run sent them, and when it ended. */
export interface NumberedRequest {
  method: string;
  url: string;
  /** 1 for the run's first request. */
  n: number;
  at: Date;
}

/** Requests that got no answer at all: the connection was refused or reset. */
const SILENT: ReadonlySet<ExchangeErrorKind> = new Set(['refused', 'reset']);

/** Requests with no answer since the last answer before the run says the target stopped answering. */
export const SILENCE_AFTER = 2;

export interface Silence {
  /** The last request that got an answer (by when it ended). */
  lastAnswered: NumberedRequest;
  /** Of the requests with no answer since, the one sent first. */
  firstUnanswered: NumberedRequest & { error: ExchangeErrorKind };
  /** Requests refused or reset since the last answer. */
  unanswered: number;
  /** Their recorded exchanges, by which the report finds the rules the silence stopped. */
  exchanges: Exchange[];
}

export class AnswerLog {
  private sent = 0;
  private lastAnswered?: NumberedRequest;
  private since: { request: NumberedRequest & { error: ExchangeErrorKind }; exchange: Exchange }[] = [];

  /** Numbers a request as it is sent. */
  send(): number {
    return ++this.sent;
  }

  /** A request got a response (any status). */
  answered(n: number, request: { method: string; url: string }): void {
    this.lastAnswered = { method: request.method, url: request.url, n, at: new Date() };
    this.since = [];
  }

  /** A request got no complete response. Only a refused or reset connection counts as silence. */
  unanswered(n: number, request: { method: string; url: string }, error: ExchangeErrorKind, exchange: Exchange): void {
    if (!SILENT.has(error)) return;
    this.since.push({ request: { method: request.method, url: request.url, n, at: new Date(), error }, exchange });
  }

  /**
   * The target stopped answering: it answered before, and at least SILENCE_AFTER requests since its
   * last answer were refused or reset, none answered. Undefined otherwise (a blip it recovered
   * from, a target that never answered: the preflight reports that one).
   */
  silence(): Silence | undefined {
    if (!this.lastAnswered || this.since.length < SILENCE_AFTER) return undefined;
    const first = this.since.reduce((a, b) => (b.request.n < a.request.n ? b : a));
    return {
      lastAnswered: this.lastAnswered,
      firstUnanswered: first.request,
      unanswered: this.since.length,
      exchanges: this.since.map((s) => s.exchange),
    };
  }
}
