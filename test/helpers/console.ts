/** A console reporter writing to a stream the test reads: a CI log (no terminal, no colour) unless told otherwise. */
import { PassThrough } from 'node:stream';
import { type ConsoleOptions, ConsoleReporter } from '../../reports/console.js';

export function capturedConsole(options: Omit<ConsoleOptions, 'stream'> & { isTTY?: boolean; columns?: number } = {}): {
  reporter: ConsoleReporter;
  text: () => string;
} {
  const { isTTY = false, columns, ...rest } = options;
  const stream = Object.assign(new PassThrough(), { isTTY, columns });
  let out = '';
  stream.on('data', (d) => (out += d));
  const reporter = new ConsoleReporter({ env: { NO_COLOR: '1' }, ...rest, stream });
  return { reporter, text: () => out };
}
