/**
 * `conformance serve` run by others: it warns when it binds an address other machines reach while
 * accepting the public default credentials, stops on SIGHUP as on SIGINT/SIGTERM, and stops when the
 * process that started it dies — also when that was npm (npx, npm exec), whose `sh -c` outlives a
 * SIGKILLed npm, so that a CI script's `kill $!` does not leak the server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLoopback } from '../../app/cli/serve.js';
import { CLI, runCli, startCli, stop } from '../helpers/cli.js';
import { client } from '../helpers/http.js';

/** Runs `serve` until its first stdout line, then SIGTERM; resolves with its exit code and all of stderr. */
function serveOnce(args: string[]): Promise<{ code: number | null; firstLine: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      stdout += d;
      if (stdout.includes('\n') && child.exitCode === null) child.kill('SIGTERM');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, firstLine: stdout.split('\n')[0], stderr }));
  });
}

describe('storage limits', () => {
  it('takes the caps from flags, in bytes or with a unit, and refuses past them', async () => {
    const { child, firstLine } = await startCli([
      'serve',
      '--port',
      '0',
      '--json',
      '--max-accounts',
      '1',
      '--max-supplier-bytes',
      '64KiB',
      '--max-total-bytes',
      '3M',
    ]);
    try {
      const info = JSON.parse(firstLine);
      const state = await client(info.url, null)('GET', '/_operator/state', {
        headers: { 'x-operator-key': info.operator_key },
      });
      expect(state.body.storage.limits).toEqual({
        max_accounts_per_supplier: 1,
        max_bytes_per_supplier: 64 * 1024,
        max_bytes_total: 3 * 1024 * 1024,
      });
      const call = client(info.url, info.token);
      const stage = (ext: string) =>
        call('POST', '/v1/data-import/account-import-process/create-or-update/', {
          body: { import_supplier: 'SUPPLIER_ONGOING', external_account_number: ext },
        });
      expect((await stage('FLAG-1')).status).toBe(201);
      const refused = await stage('FLAG-2');
      expect([refused.status, refused.body.code]).toEqual([400, 'storage_limit_exceeded']);
    } finally {
      expect(await stop(child)).toBe(0);
    }
    const bad = await runCli(['serve', '--max-supplier-bytes', '12XB']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--max-supplier-bytes must be a size such as/);
  });
});

describe('non-loopback warning', () => {
  it('tells loopback addresses from others', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'])
      expect(isLoopback(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.org', '::ffff:10.0.0.1'])
      expect(isLoopback(host), host).toBe(false);
  });

  it('warns on stderr, naming the flags, when a non-loopback host accepts the public default token', async () => {
    // A seed with only the default token: nothing to import into while the address is open.
    const dir = mkdtempSync(join(tmpdir(), 'serve-safety-'));
    const seed = join(dir, 'seed.yaml');
    writeFileSync(seed, 'tokens: [reference-token]\n');
    const open = await serveOnce(['--host', '0.0.0.0', '--seed', seed, '--json']);
    expect(open.code).toBe(0);
    expect(JSON.parse(open.firstLine).url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
    expect(open.stderr).toMatch(/warning: listening on 0\.0\.0\.0/);
    expect(open.stderr).toContain('token "reference-token"');
    for (const flag of ['--seed none', '--token', '--api-key', '--operator-key']) expect(open.stderr).toContain(flag);

    // Loopback with the defaults, or another address with credentials of one's own: no warning.
    const loopback = await serveOnce(['--json']);
    expect([loopback.code, loopback.stderr]).toEqual([0, '']);
    const own = await serveOnce(['--host', '0.0.0.0', '--seed', 'none', '--token', 'tok-of-my-own', '--json']);
    expect([own.code, own.stderr]).toEqual([0, '']);
  });
});

describe('stopping', () => {
  it('stops cleanly on SIGHUP', async () => {
    const { child, firstLine } = await startCli(['serve', '--port', '0', '--json']);
    const { url } = JSON.parse(firstLine);
    const exited = new Promise<number | null>((resolve) => {
      child.removeAllListeners('close');
      child.on('close', resolve);
    });
    child.kill('SIGHUP');
    expect(await exited).toBe(0);
    await expect(fetch(`${url}/_operator/`)).rejects.toThrow();
    await stop(child);
  });

  /**
   * A wrapper (as npx is) starts `serve` with its stdout and stderr, prints the server's line, and
   * is SIGKILLed. The wrapper's pipes close only once every process holding them — the server
   * too — has exited, so waiting for them is waiting for the server, with no sleep.
   */
  async function killWrapper(viaShell: boolean): Promise<{ stderr: string }> {
    const start = viaShell
      ? // npm's shape: sh -c "<command>", the shell staying between npm and node; npm_command says npm started it.
        `spawn('/bin/sh', ['-c', '"$0" "$1" serve --port 0 --json; exit $?', process.execPath, process.argv[1]], { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, npm_command: 'exec' } });`
      : `spawn(process.execPath, [process.argv[1], 'serve', '--port', '0', '--json'], { stdio: ['ignore', 'inherit', 'inherit'] });`;
    const wrapper: ChildProcess = spawn(
      process.execPath,
      [
        '-e',
        `const { spawn } = require('node:child_process'); const c = ${start} process.stderr.write('server pid ' + c.pid + '\\n'); setInterval(() => {}, 1000);`,
        CLI,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
    );
    let stdout = '';
    let stderr = '';
    wrapper.stderr!.on('data', (d) => (stderr += d));
    const closed = new Promise<void>((resolve) => wrapper.on('close', () => resolve()));
    const url = await new Promise<string>((resolve, reject) => {
      wrapper.stdout!.on('data', (d) => {
        stdout += d;
        if (stdout.includes('\n')) resolve(JSON.parse(stdout.split('\n')[0]).url);
      });
      wrapper.on('close', () => reject(new Error(`wrapper ended before the server printed: ${stderr}`)));
    });
    let outcome = 'not killed';
    try {
      expect((await fetch(`${url}/_operator/`)).status).toBe(401); // the server answers
      wrapper.kill('SIGKILL');
      // Every holder of the pipes gone: the wrapper, the shell if any, the server. Bounded, so a
      // server that stays fails the test instead of hanging it.
      let timer: NodeJS.Timeout | undefined;
      outcome = await Promise.race([
        closed.then(() => 'stopped'),
        new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still running'), 15_000))),
      ]);
      clearTimeout(timer);
      expect(outcome).toBe('stopped');
      await expect(fetch(`${url}/_operator/`)).rejects.toThrow();
      return { stderr };
    } finally {
      // A server that did not stop is ours to end (its pid, printed by the wrapper, is still its own).
      const leaked = Number(/server pid (\d+)/.exec(stderr)?.[1]);
      if (outcome !== 'stopped' && leaked > 0) process.kill(leaked, 'SIGKILL');
      if (outcome === 'not killed') wrapper.kill('SIGKILL');
    }
  }

  it('stops when the process that started it is SIGKILLed', async () => {
    const { stderr } = await killWrapper(false);
    expect(stderr).toContain('the process that started it exited; stopping');
  });

  it('stops when npm, with its sh -c in between, is SIGKILLed', async () => {
    const { stderr } = await killWrapper(true);
    expect(stderr).toContain('the process that started it exited; stopping');
  });
});
