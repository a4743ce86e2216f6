/**
 * The JavaScript engine's tiering, tuned for a command that runs seconds, not hours. By default V8
 * optimises a function once it has run a little (its interrupt budget); a default run calls thousands
 * of the suite's functions that often, and optimising them took some 1.5 s of CPU on helper threads —
 * on two cores, time taken from the runner and the server. Four times the budget leaves the functions
 * that stay hot optimised and the rest interpreted (README, "Speed"; docs/design.md §3). Imported by
 * the CLI's entry before any command's code loads; the embedded server's thread, started later, has
 * it too (V8's flags are the process's).
 */
import { setFlagsFromString } from 'node:v8';

/** V8's default interrupt budget (132 KB of bytecode executed, V8 11 in Node 20), four times over. */
export const INTERRUPT_BUDGET = 4 * 132 * 1024;

setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
