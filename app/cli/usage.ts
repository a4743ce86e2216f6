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
    throw new UsageError(parseErrorMessage(error, argv, options, command), command);
  }
}

/**
 * The parser's complaint about a command line, without the text of any argument: node's message
 * for a stray argument quotes it, and a stray argument is most often the rest of a secret the shell
 * split (`--header X-Key: secret` unquoted). Its position is said instead. The other messages name
 * only options, never their values.
 */
export function parseErrorMessage(error: unknown, argv: string[], options: Options, command: string): string {
  if ((error as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    let after: string | undefined;
    try {
      const { tokens } = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
      const at = tokens.findIndex((t) => t.kind === 'positional');
      const before = tokens.slice(0, Math.max(at, 0)).findLast((t) => t.kind === 'option');
      if (before?.kind === 'option')
        after = before.value === undefined ? before.rawName : `${before.rawName} and its value`;
    } catch {
      // Where it stands is a help, not a need.
    }
    return `An argument${after ? ` after ${after}` : ''} is not an option of "conformance ${command}", which takes no other arguments (its text is not shown: it may be part of a secret). A value with spaces needs quotes, e.g. --header 'Name: value'.`;
  }
  return (error as Error).message.replace(/\. To specify a positional argument.*$/s, '.');
}

/**
 * Flags whose values are secrets: a token, a header (a gateway key). Not --client-key-passphrase-env,
 * whose value is a variable's name: its messages say it only once the variable is found set, so that
 * a passphrase given there by mistake is never said back (app/resolve.ts).
 */
const SECRET_FLAGS = ['--token', '--header'];

/**
 * The values of the secret-bearing flags on a command line (`--flag value` and `--flag=value`), and
 * of a header the part after its name, for the redactor of usage errors.
 */
export function secretsOnCommandLine(argv: readonly string[]): string[] {
  const found: string[] = [];
  argv.forEach((arg, i) => {
    for (const flag of SECRET_FLAGS) {
      const value = arg === flag ? argv[i + 1] : arg.startsWith(`${flag}=`) ? arg.slice(flag.length + 1) : undefined;
      if (value === undefined) continue;
      found.push(value);
      const afterName = flag === '--header' ? /[:=]\s*(.+)$/s.exec(value)?.[1] : undefined;
      if (afterName) found.push(afterName);
    }
  });
  return found;
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
