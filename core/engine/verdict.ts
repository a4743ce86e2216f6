/**
 * The result vocabulary, written once: how strongly a rule speaks (level), how it ended (verdict),
 * why it could not be judged (error kind, shared cause), and what a run's results mean as an exit
 * code. The engine, every reporter, the report schema and the CLI read these words from here.
 */
import { z } from 'zod';

/**
 * MUST — the spec states it; a failure fails the run.
 * SHOULD — a strong reading of the spec; reported, fails the run only with --strict.
 * INFO — observes what the spec leaves open; never fails the run.
 */
export const LEVELS = ['MUST', 'SHOULD', 'INFO'] as const;
export type Level = (typeof LEVELS)[number];

/** MUST or SHOULD: a level that judges (INFO only observes); what a fault or a defect kind is held to. */
export type JudgingLevel = Exclude<Level, 'INFO'>;

/**
 * pass — judged and held; fail — the implementation broke the statement; skip — not judged, because
 * a precondition only the operator can provide is not configured (or the rule does not apply);
 * error — not judged, because the exchange broke or a setup step it stands on was refused.
 */
export const VERDICTS = ['pass', 'fail', 'skip', 'error'] as const;
export type Verdict = (typeof VERDICTS)[number];

/**
 * Why an errored rule could not be judged: `exchange` — an exchange with the target broke;
 * `precondition` — a setup step the rule stands on was refused; `timeout` — a time limit ran out
 * (the rule's own, or the run's --max-time deadline); `not-judged` — the rule saw too little to judge
 * (a fact it stands on could not be read, a property ran fewer cases than asked), its reason says
 * why; `internal` — a bug in the suite; `interrupted` — the run was interrupted (SIGINT, SIGTERM)
 * before the rule started or finished.
 */
export const ERROR_KINDS = ['exchange', 'precondition', 'timeout', 'not-judged', 'internal', 'interrupted'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** A verdict that counts against the implementation (or leaves a rule unjudged for a reason the target gave). */
export const isFailing = (verdict: Verdict): verdict is 'fail' | 'error' => verdict === 'fail' || verdict === 'error';

/** A rule whose verdict says nothing about the statement it enforces. */
export const isUnjudged = (verdict: Verdict): verdict is 'skip' | 'error' => verdict === 'skip' || verdict === 'error';

/** Does a rule of this level fail the run when it fails? */
export const counts = (level: Level, strict: boolean): boolean => level === 'MUST' || (strict && level === 'SHOULD');

/**
 * Exit codes of a run, documented in --help and the README. INCOMPLETE: no rule that counts failed,
 * but some that count were not judged (skipped for a missing fixture, or for an endpoint not
 * implemented) and not accepted as skips (--allow-skip, --partial). INTERRUPTED: a SIGINT or SIGTERM
 * ended the run early (128 + SIGINT's number, as shells report a command Ctrl-C ended), whatever
 * the rules judged before it said; one code for both signals, so a CI job tests one number.
 */
export const EXIT = {
  OK: 0,
  MUST_FAILURES: 1,
  USAGE: 2,
  UNREACHABLE: 3,
  INCOMPLETE: 4,
  INTERRUPTED: 130,
} as const;

/**
 * One reason shared by several unjudged or failing rules: a setup step the implementation refused
 * (found by the preflight), the same broken exchange, the same reason a rule could not be judged, or
 * the run's own time limit. Reported once, with the rules it stopped.
 */
export const CauseSchema = z.object({
  id: z
    .string()
    .describe(
      "setup.<step> for a setup step the implementation refused; exchange.<n> for one broken exchange shared by several rules; not-judged.<n> for one reason several rules could not be judged; run.max-time for the rules the run's time limit (--max-time) ended before they were judged; not-implemented.<endpoint> for an endpoint the implementation answered as not implemented (501, 405, an undocumented 404)",
    ),
  step: z.string().describe('what could not be done, in words'),
  answer: z.string().describe('what the implementation answered'),
  fix: z.array(z.string()).describe('config keys that would fix it, most likely first'),
  hint: z.string(),
  status: z.int().optional(),
  errors: z
    .array(z.object({ attr: z.string(), code: z.string() }))
    .optional()
    .describe('attr and code of the §7.1 errors items of the refusal'),
});
export type Cause = z.output<typeof CauseSchema>;
