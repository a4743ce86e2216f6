#!/usr/bin/env node
/**
 * `conformance`: the command-line entry. Subcommands load lazily so that `--help` and `list` stay
 * fast and the reference server's code is only loaded when it is needed.
 */
import './tiering.js';
import { capText } from '../../core/http/bounds.js';
import { packageVersion } from '../../core/spec/package-root.js';
import { shown, terminalSafe } from '../../reports/terminal.js';
import { type Command, EXIT, secretsOnCommandLine, UsageError } from './usage.js';

export type { Command };

/** The commands, with their one-line summaries, so that help never loads a command's code. */
const commands: Record<string, { summary: string; load: () => Promise<Command> }> = {
  run: {
    summary: 'check an implementation (the default command)',
    load: async () => (await import('./run.js')).runCommand,
  },
  list: {
    summary: 'list every rule (id, spec section, level, title, needs)',
    load: async () => (await import('./list.js')).listCommand,
  },
  init: {
    summary: 'write a commented starter conformance.config.yaml',
    load: async () => (await import('./init.js')).initCommand,
  },
  token: {
    summary: 'print a fresh token obtained with the configured API key (for the curl commands)',
    load: async () => (await import('./token.js')).tokenCommand,
  },
  serve: {
    summary: 'start the reference server (a faithful mock of the interface)',
    load: async () => (await import('./serve.js')).serveCommand,
  },
  openapi: {
    summary: 'write an OpenAPI 3.1 document of the interface',
    load: async () => (await import('./openapi.js')).openapiCommand,
  },
  pact: {
    summary: 'export or verify a Pact V4 contract of the interface',
    load: async () => (await import('./pact.js')).pactCommand,
  },
  proxy: {
    summary: 'relay traffic to an implementation and judge every exchange (client and server)',
    load: async () => (await import('./proxy.js')).proxyCommand,
  },
  'check-traffic': {
    summary: 'judge recorded traffic (a HAR file) against the spec',
    load: async () => (await import('./check-traffic.js')).checkTrafficCommand,
  },
  faults: {
    summary: "list the reference server's fault catalogue",
    load: async () => (await import('./faults.js')).faultsCommand,
  },
  'merge-reports': {
    summary: 'merge the reports of CI shards into one set of reports',
    load: async () => (await import('./merge-reports.js')).mergeReportsCommand,
  },
  claim: {
    summary: 'make a conformance claim from a run: statement, reports, HAR, digests, badge',
    load: async () => (await import('./claim.js')).claimCommand,
  },
  'verify-claim': {
    summary: 'check a conformance claim offline: digests, statement against report, traffic',
    load: async () => (await import('./verify-claim.js')).verifyClaimCommand,
  },
  mutation: {
    summary: 'prove the suite: run it against every fault of the reference server',
    load: async () => (await import('./mutation.js')).mutationCommand,
  },
};

async function mainHelp(): Promise<string> {
  const width = Object.keys(commands).reduce((w, name) => Math.max(w, name.length), 0);
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
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
    if (first === undefined) return await (await commands.run.load()).run([]);
    // No command word: the flags belong to the main job, `run`.
    const name = first.startsWith('-') ? 'run' : first;
    const args = first.startsWith('-') ? argv : rest;
    const entry = commands[name];
    if (!entry)
      throw new UsageError(`Unknown command "${shown(first, 200)}". Commands: ${Object.keys(commands).join(', ')}.`);
    const command = await entry.load();
    if (args.includes('--help') || args.includes('-h')) {
      console.log(name === 'run' && first.startsWith('-') ? await mainHelp() : command.help);
      return EXIT.OK;
    }
    return await command.run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      // The message quotes input (a path, a flag's value, a parser's snippet of a file): its
      // controls are written out, the layout's own line breaks kept, and its length bounded.
      const message = await withoutCommandLineSecrets(error.message, argv);
      console.error(terminalSafe(`conformance: ${capText(message, 8 * 1024)}`));
      console.error(`Run "conformance ${error.command ? `${error.command} ` : ''}--help" for usage.`);
      return EXIT.USAGE;
    }
    throw error;
  }
}

/**
 * A usage error's message with the values of the secret-bearing flags replaced: the messages quote no
 * such value, and this keeps it so should one ever slip in (the redactor loads only on this path).
 */
async function withoutCommandLineSecrets(message: string, argv: string[]): Promise<string> {
  const secrets = secretsOnCommandLine(argv);
  if (!secrets.length) return message;
  const { Redactor } = await import('../../core/http/redact.js');
  return new Redactor(secrets).text(message);
}

const code = await main(process.argv.slice(2));
if (code !== EXIT.OK || process.exitCode === undefined) process.exitCode = code;
