/**
 * A run ended early by its caller (the CLI on SIGINT or SIGTERM): its own reason, apart from the
 * --max-time deadline, so that the rules it left are reported as interrupted, not as timed out, and
 * the run's verdict says it was interrupted rather than judging what never ran.
 */
export class RunInterrupted extends Error {
  constructor(
    /** What interrupted the run: the signal's name (SIGINT, SIGTERM), or the caller's words. */
    readonly by: string,
  ) {
    super(`the run was interrupted (${by})`);
    this.name = 'RunInterrupted';
  }
}

/** What an aborted `interrupt` signal names as the interruption: its reason when that is a string. */
export function interruptionOf(signal: AbortSignal): RunInterrupted {
  const { reason } = signal;
  if (reason instanceof RunInterrupted) return reason;
  return new RunInterrupted(typeof reason === 'string' && reason ? reason : 'by the caller');
}

/**
 * The run's --max-time deadline ending the rules still running: a limit of the run's own, so the
 * rules it ends share one cause that says so (DEADLINE_CAUSE), never one that blames the target.
 */
export class RunDeadline extends Error {
  constructor(words: string) {
    super(words);
    this.name = 'RunDeadline';
  }
}

/** The shared cause of every rule the run's deadline left not judged (core/report/build.ts). */
export const DEADLINE_CAUSE = 'run.max-time';
