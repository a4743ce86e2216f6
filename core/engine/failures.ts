/**
 * The ways a rule can stop early, kept strictly apart:
 * - RuleFailure: the implementation broke the spec (verdict fail);
 * - PreconditionError: a setup step the rule depends on could not be established (verdict error);
 * - SkipRule: the rule cannot be judged here, with the config key that would enable it (verdict skip);
 * - NotJudged: the rule saw too little to judge, for the reason its message gives (verdict error,
 *   error_kind not-judged), e.g. a fact it stands on could not be read, or a property rule that ran
 *   fewer cases than asked before its time limit;
 * - ExchangeError (http/exchange.ts): the exchange itself broke (verdict error).
 */
import type { Failure } from './result.js';

/** What a RuleFailure carries is the result's `failure`, as reports show it. */
export type FailureDetail = Failure;

export class RuleFailure extends Error {
  constructor(readonly detail: FailureDetail) {
    super(detail.message);
    this.name = 'RuleFailure';
  }
}

export class PreconditionError extends Error {
  /** `causeId`: the shared cause (a setup step the preflight found refused) this error stands for. */
  constructor(
    message: string,
    readonly exchangeSeq?: number,
    readonly causeId?: string,
  ) {
    super(message);
    this.name = 'PreconditionError';
  }
}

export class NotJudged extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotJudged';
  }
}

export class SkipRule extends Error {
  constructor(
    message: string,
    readonly key?: string,
  ) {
    super(message);
    this.name = 'SkipRule';
  }
}

/**
 * An endpoint of the catalogue answered as one that is not there (501, 405, or an undocumented 404,
 * see not-implemented.ts): the rule is not judged (verdict skip) with the endpoint's shared cause
 * `not-implemented.<operationId>`, whether it needed the endpoint to act or only to observe.
 */
export class NotImplemented extends Error {
  constructor(
    readonly endpoint: string,
    readonly status: number,
    readonly causeId: string,
    message: string,
  ) {
    super(message);
    this.name = 'NotImplemented';
  }
}
