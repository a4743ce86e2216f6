/**
 * What the GitHub Action (action.yml) does in its one step: runs the conformance CLI with the
 * action's inputs, then publishes the result the way GitHub reads it — step outputs in
 * $GITHUB_OUTPUT, the Markdown summary in $GITHUB_STEP_SUMMARY (the run appends summary.md there
 * itself), error and warning annotations within GitHub's caps — and exits with the CLI's exit code.
 *
 * Inputs come through the environment, never through the step's script text, so that no input can
 * become shell code: INPUT_CONFIG, INPUT_ARGS, INPUT_SHARD, INPUT_REPORT_DIR, and those that may
 * carry secrets — INPUT_API_KEY, INPUT_TOKEN, INPUT_HEADERS and INPUT_BASE_URL (credentials in the
 * URL) — passed on in the environment as the CLI reads them (withSecretInputs), never on its command
 * line, and masked in the log before anything else is printed (secretsToMask).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, statSync, writeSync } from 'node:fs';
import { constants } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { EXIT } from '../../core/engine/verdict.js';
import { type Report, ReportSchema } from '../../core/report/schema.js';
import { runVerdict } from '../../core/report/verdict-line.js';
import { shown } from '../../reports/terminal.js';
import { parseHeader } from '../../core/http/transport.js';
import { urlCredentials } from '../../core/http/redact.js';
import { runOptions } from '../cli/run.js';
import { readReportText } from '../cli/report-input.js';
import { parseErrorMessage } from '../cli/usage.js';
import { annotationsNote, annotationsOf } from './annotations.js';
import { ShellWordsError, shellWords } from './shell-words.js';
import { fileCommandEntry, maskCommands, stopCommands, workflowCommand } from './workflow-commands.js';

const CLI = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

/** The report directory when neither the input nor `args` names one: the CLI's own default. */
const DEFAULT_REPORT_DIR = 'conformance-report';

/** The step's outputs (action.yml maps each to an output of the action). */
export interface ActionOutputs {
  /** The run's verdict in words, lower case ("not conformant"), or "error" when it wrote no report. */
  verdict: string;
  'exit-code': string;
  /** MUST rules failed or not judged, not excused by a baseline; empty without a report. */
  'must-failures': string;
  /** The report directory, absolute (later steps of the job resolve paths elsewhere). */
  'report-dir': string;
}

/** A line to the step's log, written at once so it keeps its place among the CLI's lines. */
const out = (line: string) => writeSync(1, `${line}\n`);
const err = (line: string) => writeSync(2, `${line}\n`);

/** A mistake in the inputs: said once in the log and once as an annotation; exit 2, as the CLI's usage errors. */
class InputError extends Error {
  constructor(
    readonly input: string,
    message: string,
  ) {
    super(`${input}: ${message}`);
  }
}

/** Whether `words` hold `--flag`, with its value after it or inline (`--flag=value`). */
const holds = (words: string[], flag: string) => words.some((w) => w === flag || w.startsWith(`${flag}=`));

/** The value of `--flag value` or `--flag=value` wherever it stands in `words`. */
function valuesOf(words: string[], flag: string): string[] {
  return words.flatMap((w, i) =>
    w === flag
      ? i + 1 < words.length
        ? [words[i + 1]]
        : []
      : w.startsWith(`${flag}=`)
        ? [w.slice(flag.length + 1)]
        : [],
  );
}

/**
 * A secret on a command line is readable by every user of the machine in the process list (argv is
 * public; the environment is not): `args` may hold none. Each is refused with the input that carries
 * it through the environment instead. Nothing of what was given is quoted.
 */
function refuseSecretsIn(words: string[]): void {
  if (holds(words, '--token'))
    throw new InputError(
      'args',
      '--token would put the token on a command line, where the process list shows it; give it with the token input (from a secret).',
    );
  if (holds(words, '--header'))
    throw new InputError(
      'args',
      "--header would put the header's value on a command line, where the process list shows it; give headers with the headers input (from a secret), one 'Name: value' per line.",
    );
  // Any `@`, as the run's own message about a base URL reads it: the text may be no URL at all.
  if (valuesOf(words, '--base-url').some((url) => url.includes('@')))
    throw new InputError(
      'args',
      '--base-url with credentials in it (user:password@) would put them on a command line, where the process list shows them; give the URL with the base-url input (from a secret).',
    );
}

/** The CLI's command line from the inputs; `args` last, so that it may override what the inputs set. */
export function commandLine(env: NodeJS.ProcessEnv): { argv: string[]; reportDir: string } {
  let words: string[];
  try {
    words = shellWords(env.INPUT_ARGS ?? '');
  } catch (error) {
    if (error instanceof ShellWordsError) throw new InputError('args', error.message);
    throw error;
  }
  refuseSecretsIn(words);
  const given = (name: string) => (env[name] ?? '').trim();
  // The base URL is not among them: it may carry credentials, and goes through the environment
  // (CONFORMANCE_BASE_URL, withSecretInputs).
  const argv = [
    `--report-dir=${given('INPUT_REPORT_DIR') || DEFAULT_REPORT_DIR}`,
    ...(given('INPUT_CONFIG') ? [`--config=${given('INPUT_CONFIG')}`] : []),
    ...(given('INPUT_SHARD') ? [`--shard=${given('INPUT_SHARD')}`] : []),
    ...words,
  ];
  let values: { 'report-dir'?: string; reporter?: string[] };
  try {
    ({ values } = parseArgs({ args: argv, options: runOptions, allowPositionals: false, strict: true }));
  } catch (error) {
    // Placed among the words of args, which the user wrote (the inputs before them hold no stray word).
    const message = parseErrorMessage(error, words, runOptions, 'run');
    throw new InputError('args', `${shown(message, 512)} (args holds options of "conformance run"; see its --help)`);
  }
  // The action reads report.json and the step summary comes from summary.md: with reporters chosen
  // in args, those two are added; without, the CLI writes every format, these among them.
  if (values.reporter?.length) argv.push('--reporter=json', '--reporter=markdown');
  return { argv: ['run', ...argv], reportDir: values['report-dir'] ?? DEFAULT_REPORT_DIR };
}

/** Which file stands at `path` now (so a report.json left by an earlier run is not read as this run's). */
function identity(path: string): string | undefined {
  try {
    const s = statSync(path);
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return undefined;
  }
}

/**
 * Runs the CLI with the step's output passed through, command processing stopped around it: the
 * console quotes the target, and a quoted line starting with `::` must stay text. The CLI runs in its
 * own process group and a SIGINT or SIGTERM to this step is passed on once, so that the CLI ends the
 * run as interrupted (exit 130) and writes its reports, and this step still publishes them.
 */
function runCli(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { stop, resume } = stopCommands();
  out(stop);
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...argv], { stdio: 'inherit', env, detached: true });
    const forward = (signal: NodeJS.Signals) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    const cleanup = () => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      out(resume);
    };
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (error) => {
      cleanup();
      err(`conformance action: could not start the run: ${shown(error.message, 512)}`);
      done(EXIT.USAGE);
    });
    child.on('exit', (code, signal) => {
      cleanup();
      // Killed by a signal it did not handle: the shell's convention, 128 + the signal's number.
      done(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
}

/** This run's report.json, or undefined when the run wrote none (a usage error) or not a readable one. */
function readReport(file: string, before: string | undefined): Report | undefined {
  const now = identity(file);
  if (now === undefined || now === before) return undefined;
  try {
    const parsed = ReportSchema.safeParse(JSON.parse(readReportText(file, 'run')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Appends to a file GitHub gave the step; a failure is said, never allowed to change the exit code. */
function appendTo(name: 'GITHUB_OUTPUT' | 'GITHUB_STEP_SUMMARY', env: NodeJS.ProcessEnv, text: string): void {
  const file = env[name];
  if (!file) return;
  try {
    appendFileSync(file, text);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    out(workflowCommand('warning', { title: 'conformance action' }, `could not write ${name}: ${shown(why, 200)}`));
  }
}

function publish(env: NodeJS.ProcessEnv, outputs: ActionOutputs, summary: string[]): void {
  appendTo(
    'GITHUB_OUTPUT',
    env,
    Object.entries(outputs)
      .map(([name, value]) => fileCommandEntry(name, value))
      .join(''),
  );
  if (summary.length) appendTo('GITHUB_STEP_SUMMARY', env, `\n${summary.join('\n\n')}\n`);
  out(
    `conformance action: verdict ${outputs.verdict}, exit code ${outputs['exit-code']}, ${outputs['must-failures'] || 'no'} MUST failures counted, reports in ${shown(outputs['report-dir'], 512)}`,
  );
}

/**
 * The run's environment: the api-key, token, base-url and headers inputs, where given, as the
 * variables the CLI reads (CONFORMANCE_API_KEY, CONFORMANCE_TOKEN, CONFORMANCE_BASE_URL,
 * CONFORMANCE_HEADERS); an input left empty leaves the job's own variable as it is. The inputs' own
 * variables are not passed on.
 */
export function withSecretInputs(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { INPUT_API_KEY: apiKey, INPUT_TOKEN: token, INPUT_BASE_URL: baseUrl, INPUT_HEADERS: headers, ...rest } = env;
  return {
    ...rest,
    ...(apiKey ? { CONFORMANCE_API_KEY: apiKey } : {}),
    ...(token ? { CONFORMANCE_TOKEN: token } : {}),
    ...(baseUrl?.trim() ? { CONFORMANCE_BASE_URL: baseUrl.trim() } : {}),
    ...(headers?.trim() ? { CONFORMANCE_HEADERS: headers } : {}),
  };
}

/**
 * Every secret the run's environment hands over, for the runner to mask: the API key, the token,
 * each header's value (a line that is not `Name: value` whole, since the run will refuse it and it
 * may be a value alone) and the base URL's credentials. The key and the token are always masked;
 * header values and URL parts under 4 characters are left out, as the run's redactor leaves them:
 * they are as often plain words (`X-Env: ci`, a user `bot`), and masking them would star every
 * occurrence in the log while hiding nothing.
 */
export function secretsToMask(env: NodeJS.ProcessEnv): string[] {
  const headers = (env.CONFORMANCE_HEADERS ?? '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [parseHeader(line)[1]];
      } catch {
        return [line.trim()];
      }
    });
  const credentials = [...headers, ...urlCredentials(env.CONFORMANCE_BASE_URL ?? '')].filter((s) => s.length >= 4);
  return [env.CONFORMANCE_API_KEY, env.CONFORMANCE_TOKEN, ...credentials].filter((s): s is string => !!s);
}

/** The whole step; returns the exit code the step ends with: the CLI's, or 2 for a mistake in the inputs. */
export async function runGithubAction(stepEnv: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  const env = withSecretInputs(stepEnv);
  // Before anything else is printed: from here on the runner masks the secrets in the log.
  for (const secret of secretsToMask(env)) for (const line of maskCommands(secret)) out(line);

  let command: { argv: string[]; reportDir: string };
  try {
    command = commandLine(env);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    err(`conformance action: ${error.message}`);
    out(workflowCommand('error', { title: 'conformance action: input' }, error.message));
    const reportDir = resolve(cwd, (env.INPUT_REPORT_DIR ?? '').trim() || DEFAULT_REPORT_DIR);
    publish(env, { verdict: 'error', 'exit-code': String(EXIT.USAGE), 'must-failures': '', 'report-dir': reportDir }, [
      `**Conformance: not run.** The action's ${error.input} input is wrong: see the step's log.`,
    ]);
    return EXIT.USAGE;
  }

  const reportDir = resolve(cwd, command.reportDir);
  const reportFile = resolve(reportDir, 'report.json');
  const before = identity(reportFile);
  const code = await runCli(command.argv, env);
  const report = readReport(reportFile, before);

  if (!report) {
    publish(env, { verdict: 'error', 'exit-code': String(code), 'must-failures': '', 'report-dir': reportDir }, [
      `**Conformance: no report.** The run ended with exit code ${code} before writing report.json: see the step's log.`,
    ]);
    return code;
  }
  const annotations = annotationsOf(report);
  for (const line of annotations.lines) out(line);
  const note = annotationsNote(annotations);
  if (note) out(note);
  publish(
    env,
    {
      verdict: runVerdict(report).title.toLowerCase(),
      'exit-code': String(code),
      'must-failures': String(report.summary.must_failures),
      'report-dir': reportDir,
    },
    note ? [note] : [],
  );
  return code;
}
