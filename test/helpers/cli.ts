/** Runs the built CLI (dist/) as a user would, as a child process. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machineLoad } from './load.js';

export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/**
 * How long a CLI child may take before the test gives up on it: generous, because a busy machine
 * (CI beside other jobs, `npm run test:load`) can make a cold start alone take seconds. What a test
 * waits for is the child's exit or its first line, never a duration.
 */
export const CLI_WAIT_MS = 120_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const tail = (text: string) => (text.length > 2_000 ? `…${text.slice(-2_000)}` : text);

/** The error of a child the test stopped waiting for: says how long, and how loaded the machine was. */
function gaveUp(args: string[], what: string, ms: number, stdout: string, stderr: string): Error {
  return new Error(
    `conformance ${args.join(' ')} ${what} within ${ms / 1000} s and was killed; ${machineLoad()}.\n` +
      `stdout: ${tail(stdout)}\nstderr: ${tail(stderr)}`,
  );
}

/** Runs the CLI to its exit; rejects (killing it) only when it is still running after `timeoutMs`. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  const timeoutMs = options.timeoutMs ?? CLI_WAIT_MS;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (killed) reject(gaveUp(args, 'did not exit', timeoutMs, stdout, stderr));
      else resolve({ code, stdout, stderr });
    });
  });
}

/** Starts a long-running command and resolves with the child, its first stdout line and its stderr so far. */
export function startCli(
  args: string[],
  timeoutMs = CLI_WAIT_MS,
): Promise<{ child: ChildProcessWithoutNullStreams; firstLine: string; stderr: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1' } });
    let buffer = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.removeAllListeners('close');
      child.kill('SIGKILL');
      reject(gaveUp(args, 'printed no line', timeoutMs, buffer, stderr));
    }, timeoutMs);
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      buffer += d;
      const newline = buffer.indexOf('\n');
      if (newline >= 0) {
        clearTimeout(timer);
        resolve({ child, firstLine: buffer.slice(0, newline), stderr: () => stderr });
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before printing: ${stderr}`));
    });
  });
}

/** Stops a child started with startCli and waits for it to exit. */
export function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.removeAllListeners('close');
    child.on('close', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

/**
 * `conformance proxy` to `target`, writing its reports to `out/` and its HAR to `session.har` of a
 * fresh folder named after `prefix`; `extra` flags after those. Resolves once it says where it listens.
 */
export async function startProxyCli(target: string, prefix: string, extra: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const started = await startCli([
    'proxy',
    '--target',
    target,
    '--report-dir',
    join(dir, 'out'),
    '--har',
    join(dir, 'session.har'),
    ...extra,
  ]);
  const url = /on (http:\/\/\S+)/.exec(started.firstLine)?.[1] ?? '';
  return { ...started, dir, url };
}
