/**
 * GitHub Actions' workflow commands and environment files, written as GitHub documents them
 * (docs.github.com, "Workflow commands for GitHub Actions"; the same escaping as @actions/core).
 * A line a step prints that starts with `::` is a command to the runner, so everything put into one
 * is escaped: a reason from the target could otherwise end the command early and start another.
 */
import { randomBytes } from 'node:crypto';

/** The message of a command: `%`, CR and LF encoded, so the command stays one line. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A property value (`title=…`): as data, and `:` and `,` too, which end a value there. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One workflow command line: `::name key=value,…::message`. */
export function workflowCommand(name: string, properties: Record<string, string>, message: string): string {
  const props = Object.entries(properties)
    .filter(([, value]) => value !== '')
    .map(([key, value]) => `${key}=${escapeProperty(value)}`)
    .join(',');
  return `::${name}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}

/**
 * The lines that make the runner mask `secret` in every later line of the log: the whole value, and
 * each of its lines on its own, since the runner matches a mask within one line of output.
 */
export function maskCommands(secret: string): string[] {
  if (!secret) return [];
  const lines = secret.split(/\r?\n/).filter((line) => line.trim() !== '' && line !== secret);
  return [secret, ...lines].map((value) => workflowCommand('add-mask', {}, value));
}

/**
 * A pair of lines that turn command processing off and on again around output the step does not
 * control (the run's console, which quotes the target): between them a line starting with `::` is
 * printed, never obeyed. The token is random, so that output cannot turn processing back on.
 */
export function stopCommands(): { stop: string; resume: string } {
  const token = `conformance-${randomBytes(16).toString('hex')}`;
  return { stop: `::stop-commands::${token}`, resume: `::${token}::` };
}

/**
 * One entry of $GITHUB_OUTPUT (or $GITHUB_ENV) in the multi-line form, `name<<DELIMITER`, value,
 * `DELIMITER`: any value, newlines included, reads back as it was. The delimiter is random and
 * checked not to occur in the value, as @actions/core does.
 */
export function fileCommandEntry(name: string, value: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) throw new Error(`not an output name: ${name}`);
  let delimiter: string;
  do delimiter = `ghadelimiter_${randomBytes(12).toString('hex')}`;
  while (value.includes(delimiter));
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}
