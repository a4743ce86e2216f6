/**
 * The JavaScript engine's tiering, tuned for a command that runs seconds, not hours. By default V8
 * optimises a function once it has run a little (its interrupt budget); a default run calls thousands
 * of the suite's functions that often, and optimising them took some 1.5 s of CPU on helper threads —
 * on two cores, time taken from the runner and the server. Four times the budget leaves the functions
 * that stay hot optimised and the rest interpreted (bench: docs in README, "Speed"). Imported first by
 * the CLI's entry, before any other module runs; the embedded server's thread, started later, has it too.
 */
import { setFlagsFromString } from 'node:v8';

/** V8's default interrupt budget (V8 11, Node 20–22: 132 KB of bytecode executed), four times over. */
export const INTERRUPT_BUDGET = 4 * 132 * 1024;

setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
