#!/usr/bin/env node
/**
 * `conformance`: the command-line entry. Subcommands load lazily so that `--help` and `list` stay
 * fast and the reference server's code is only loaded when it is needed.
 */
import { readFileSync } from 'node:fs';
import { EXIT, UsageError } from './usage.js';

export interface Command {
  summary: string;
  help: string;
  run(argv: string[]): Promise<number>;
}

const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve.js')).serveCommand,
};

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

async function mainHelp(): Promise<string> {
  const lines = await Promise.all(
    Object.entries(commands).map(async ([name, load]) => `  ${name.padEnd(10)} ${(await load()).summary}`),
  );
  return [
    'Usage: conformance <command> [options]',
    '',
    'Conformance suite for the Customer Data-Import Service interface.',
    '',
    'Commands:',
    ...lines,
    '',
    'Options:',
    '  --help      show help (also: conformance <command> --help)',
    '  --version   print the version',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  try {
    if (first === '--version' || first === '-v') {
      console.log(packageVersion());
      return EXIT.OK;
    }
    if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
      console.log(await mainHelp());
      return EXIT.OK;
    }
    const load = commands[first];
    if (!load) throw new UsageError(`Unknown command "${first}". Commands: ${Object.keys(commands).join(', ')}.`);
    const command = await load();
    if (rest.includes('--help') || rest.includes('-h')) {
      console.log(command.help);
      return EXIT.OK;
    }
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`conformance: ${error.message}`);
      console.error(`Run "conformance ${error.command ? `${error.command} ` : ''}--help" for usage.`);
      return EXIT.USAGE;
    }
    throw error;
  }
}

const code = await main(process.argv.slice(2));
if (code !== EXIT.OK || process.exitCode === undefined) process.exitCode = code;
