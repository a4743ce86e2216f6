/**
 * The setup chain, established once before any rule: stage the canonical account, process it,
 * create a business, stage an account linked to one of its contracts. Most rules stand on these
 * steps. When the implementation refuses one — often legally, because §2.3 leaves required flags
 * and allowed values "not shown" — that is one cause, reported once with what the implementation
 * answered and the config key that fixes it; every rule that needs the step is then "not judged"
 * because of that cause, without sending a request, and the rules that do not need it still run.
 */
import { type NotImplemented, PreconditionError } from './failures.js';
import type { Cause } from './verdict.js';

export type SetupStep = 'account' | 'import' | 'business' | 'link';

const STEP_WORDS: Record<SetupStep, string> = {
  account: 'stage the canonical account',
  import: 'process (import) the staged account',
  business: 'create the canonical business',
  link: 'stage an account linked to a business contract',
};

export interface StepRecord {
  step: SetupStep;
  /** What was attempted, in words. */
  what: string;
  outcome: 'established' | 'refused' | 'not configured' | 'not attempted';
  cause?: string;
}

/** What the setup chain found; Given consults it before every setup step a rule asks for. */
export class Setup {
  readonly causes: Cause[] = [];
  readonly steps: StepRecord[] = [];
  private readonly refused = new Map<SetupStep, Cause>();
  /** Steps that met an endpoint not implemented (not-implemented.ts), and those standing on them. */
  private readonly missing = new Map<SetupStep, NotImplemented>();

  /**
   * Throws the shared cause of a refused step, so a rule standing on it is not judged; a step that met
   * an endpoint not implemented throws that (the rule is skipped with the endpoint's cause).
   */
  require(step: SetupStep): void {
    const missing = this.missing.get(step);
    if (missing) throw missing;
    const cause = this.refused.get(step);
    if (cause)
      throw new PreconditionError(
        `${cause.step}: refused before any rule ran (${cause.answer}); fix: ${cause.fix.join(' or ')}`,
        undefined,
        cause.id,
      );
  }

  refuse(step: SetupStep, cause: Omit<Cause, 'id' | 'step'>): Cause {
    const full: Cause = { id: `setup.${step}`, step: STEP_WORDS[step], ...cause };
    this.causes.push(full);
    this.refused.set(step, full);
    this.steps.push({ step, what: STEP_WORDS[step], outcome: 'refused', cause: full.id });
    return full;
  }

  /**
   * A step whose endpoint is not implemented: not a refusal of the payload, so no setup cause of its
   * own; the endpoint's cause (`not-implemented.<endpoint>`, listed once by the report) stands for it.
   */
  notImplemented(step: SetupStep, error: NotImplemented): void {
    this.missing.set(step, error);
    this.steps.push({ step, what: STEP_WORDS[step], outcome: 'refused', cause: error.causeId });
  }

  /** A step that cannot be attempted because one it stands on was refused: the same cause. */
  alias(step: SetupStep, on: SetupStep): void {
    const missing = this.missing.get(on);
    if (missing) {
      this.missing.set(step, missing);
      this.steps.push({ step, what: STEP_WORDS[step], outcome: 'not attempted', cause: missing.causeId });
      return;
    }
    const cause = this.refused.get(on)!;
    this.refused.set(step, cause);
    this.steps.push({ step, what: STEP_WORDS[step], outcome: 'not attempted', cause: cause.id });
  }

  record(step: SetupStep, outcome: StepRecord['outcome']): void {
    this.steps.push({ step, what: STEP_WORDS[step], outcome });
  }
}

/** attr and code of each §7.1 errors item, tolerating any other body. */

export interface SetupDeadline {
  at: number;
  words: string;
}
