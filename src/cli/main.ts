#!/usr/bin/env node
/**
 * `conformance`: the command-line entry. Subcommands load lazily so that `--help` and `list` stay
 * fast and the reference server's code is only loaded when it is needed.
 */
import { packageVersion } from '../package-root.js';
import { EXIT, UsageError } from './usage.js';

export interface Command {
  summary: string;
  help: string;
  run(argv: string[]): Promise<number>;
}

const commands: Record<string, () => Promise<Command>> = {
  run: async () => (await import('./run.js')).runCommand,
  list: async () => (await import('./list.js')).listCommand,
  init: async () => (await import('./init.js')).initCommand,
  serve: async () => (await import('./serve.js')).serveCommand,
  faults: async () => (await import('./faults.js')).faultsCommand,
  mutation: async () => (await import('./mutation.js')).mutationCommand,
};

async function mainHelp(): Promise<string> {
  const lines = await Promise.all(
    Object.entries(commands).map(async ([name, load]) => `  ${name.padEnd(10)} ${(await load()).summary}`),
  );
  const { RUN_HELP } = await import('./run.js');
  return [
    'Conformance suite for the Customer Data-Import Service interface.',
    '',
    'Commands:',
    ...lines,
    '',
    'Help for one command: conformance <command> --help. Print the version: conformance --version.',
    '',
    RUN_HELP,
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  try {
    if (first === '--version' || first === '-v') {
      console.log(packageVersion());
      return EXIT.OK;
    }
    if (first === '--help' || first === '-h' || first === 'help') {
      console.log(await mainHelp());
      return EXIT.OK;
    }
    if (first === undefined) return await (await commands.run()).run([]);
    // No command word: the flags belong to the main job, `run`.
    const name = first.startsWith('-') ? 'run' : first;
    const args = first.startsWith('-') ? argv : rest;
    const load = commands[name];
    if (!load) throw new UsageError(`Unknown command "${first}". Commands: ${Object.keys(commands).join(', ')}.`);
    const command = await load();
    if (args.includes('--help') || args.includes('-h')) {
      console.log(name === 'run' && first.startsWith('-') ? await mainHelp() : command.help);
      return EXIT.OK;
    }
    return await command.run(args);
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
