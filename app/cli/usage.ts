/** Command-line parsing on node's util.parseArgs, with usage errors that say what is wrong (exit 2). */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export { EXIT } from '../../core/engine/verdict.js';

/** One subcommand: its help text and what it does (main.ts loads it lazily). */
export interface Command {
  help: string;
  run(argv: string[]): Promise<number>;
}

/** A mistake in how the command was called: printed with a pointer to --help, exit 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

export type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: boolean; strict: true }>
>;

export function parseCommandLine<O extends Options>(
  argv: string[],
  options: O,
  command: string,
  allowPositionals = false,
): Parsed<O> {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '.');
    throw new UsageError(message, command);
  }
}

/** An integer flag within bounds, or a usage error naming the flag. */
export function intFlag(
  value: string | undefined,
  flag: string,
  min: number,
  max: number,
  command: string,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new UsageError(`--${flag} must be a whole number, got "${value}".`, command);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`--${flag} must be between ${min} and ${max}, got ${n}.`, command);
  return n;
}
