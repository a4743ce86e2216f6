/**
 * SIGINT and SIGTERM during a run (docs/design.md §6): the first ends the run cleanly — no rule
 * starts after it, the rules running end at once as not judged, and every report is still written,
 * marked interrupted (exit code 130); the second exits at once. Whatever was written by then is
 * whole either way: reports are renamed into place (reports/index.ts) and the HAR file is a complete
 * document after every entry (app/traffic/har.ts).
 */
import { EXIT } from './usage.js';

/** How long the run may take to end after the first signal before the process exits without it. */
export const INTERRUPT_GRACE_MS = 5_000;

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export interface Interruption {
  /** Aborted at the first signal, with the signal's name as its reason (RunOptions.interrupt). */
  readonly signal: AbortSignal;
  /** Stops listening: the run and its reports are done. */
  dispose(): void;
}

/**
 * Listens for SIGINT and SIGTERM until disposed. `beforeExit` runs before the process exits without
 * finishing the run (the second signal, or the run not ending within the grace), to close files.
 */
export function onInterrupt(warn: (text: string) => void, beforeExit: () => void): Interruption {
  const controller = new AbortController();
  let grace: NodeJS.Timeout | undefined;
  const exitNow = (why: string) => {
    warn(`conformance: ${why}; exiting now. Files already written are complete.`);
    try {
      beforeExit();
    } finally {
      process.exit(EXIT.INTERRUPTED);
    }
  };
  const handler = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) return exitNow(`${signal} again`);
    warn(
      `conformance: ${signal}: stopping the run; rules not finished are reported as not judged and the reports are still written (${signal} again exits at once).`,
    );
    controller.abort(signal);
    grace = setTimeout(
      () => exitNow(`the run did not end within ${INTERRUPT_GRACE_MS / 1000} s of ${signal}`),
      INTERRUPT_GRACE_MS,
    );
    grace.unref();
  };
  for (const signal of SIGNALS) process.on(signal, handler);
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(grace);
      for (const signal of SIGNALS) process.off(signal, handler);
    },
  };
}
