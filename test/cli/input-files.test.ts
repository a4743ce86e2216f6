/**
 * The certificate and key files the user names (--ca-cert, --client-cert, --client-key and the
 * config's tls.ca_cert, tls.client_cert, tls.client_key) are read only when they are regular files
 * of at most MAX_PEM_BYTES: a FIFO (which would block the run forever), a device such as /dev/zero
 * (which never ends), a directory or a file too large is a usage error of one line naming the flag or
 * key and the path (exit 2), for the run, `conformance token` and `conformance proxy` alike; so is a
 * FIFO given as an earlier report or a HAR file, and a config file or payload template that is no
 * regular file. Nothing is sent: the base URL is a port nothing listens on.
 *
 * A hang would show as the child killed after the generous wait of runCli, failing the test.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PEM_BYTES } from '../../app/resolve.js';
import { runCli } from '../helpers/cli.js';

/** Nothing listens there, and nothing is sent: every case is refused before the first request. */
const TARGET = 'https://127.0.0.1:9';

let dir: string;
let fifo: string;
let big: string;
let cert: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tls-files-'));
  fifo = join(dir, 'key.fifo');
  execFileSync('mkfifo', [fifo]);
  big = join(dir, 'bundle.pem');
  writeFileSync(big, '');
  truncateSync(big, MAX_PEM_BYTES + 1); // sparse: no disk used
  cert = join(dir, 'client.pem');
  writeFileSync(cert, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
});

/** Exit 2 with one line saying what is wrong (then the usual pointer to --help), no stack trace, no stdout. */
function refusedInOneLine(res: { code: number | null; stdout: string; stderr: string }, line: string) {
  expect(res.code, res.stderr).toBe(2);
  const lines = res.stderr.trim().split('\n');
  expect(lines[0]).toBe(line);
  expect(lines.slice(1).every((l) => /^Run "conformance [a-z-]+ --help" for usage\.$/.test(l))).toBe(true);
  expect(res.stderr).not.toMatch(/\n\s+at /);
  expect(res.stdout).toBe('');
}

const notRegular = (where: string, path: string, kind: string) =>
  `conformance: ${where}: ${path} is ${kind}; a PEM certificate or key is read only from a regular file.`;

describe('a run refuses certificate and key files that are not small regular files', () => {
  it('--ca-cert naming a FIFO: exit 2 at once, never waiting for a writer', async () => {
    const res = await runCli(['--base-url', TARGET, '--ca-cert', fifo, '--rule', 'notes.*'], { cwd: dir });
    refusedInOneLine(res, notRegular('--ca-cert', fifo, 'a FIFO (named pipe)'));
  });

  it('--client-key naming /dev/zero: exit 2 without reading it', async () => {
    const res = await runCli(['--base-url', TARGET, '--client-cert', cert, '--client-key', '/dev/zero'], { cwd: dir });
    refusedInOneLine(res, notRegular('--client-key', '/dev/zero', 'a character device'));
  });

  it('--client-cert naming a directory: exit 2', async () => {
    const res = await runCli(['--base-url', TARGET, '--client-cert', dir, '--client-key', cert], { cwd: dir });
    refusedInOneLine(res, notRegular('--client-cert', dir, 'a directory'));
  });

  it(`a regular file over ${MAX_PEM_BYTES / 1024 / 1024} MiB: exit 2 before reading it, saying its size`, async () => {
    const res = await runCli(['--base-url', TARGET, '--ca-cert', big], { cwd: dir });
    refusedInOneLine(
      res,
      `conformance: --ca-cert: ${big} is ${MAX_PEM_BYTES + 1} bytes, more than a PEM certificate or key is read at (1 MiB).`,
    );
  });

  it('the config keys are named the same way: tls.client_key on a FIFO, tls.ca_cert on /dev/zero', async () => {
    writeFileSync(
      join(dir, 'fifo-key.yaml'),
      `base_url: ${TARGET}\ntls:\n  client_cert: client.pem\n  client_key: key.fifo\n`,
    );
    const key = await runCli(['--config', 'fifo-key.yaml'], { cwd: dir });
    refusedInOneLine(key, notRegular('tls.client_key', fifo, 'a FIFO (named pipe)'));
    writeFileSync(join(dir, 'zero-ca.yaml'), `base_url: ${TARGET}\ntls:\n  ca_cert: /dev/zero\n`);
    const ca = await runCli(['--config', 'zero-ca.yaml'], { cwd: dir });
    refusedInOneLine(ca, notRegular('tls.ca_cert', '/dev/zero', 'a character device'));
  });
});

describe('the other commands that read them refuse them the same way', () => {
  it('conformance token --client-cert on a FIFO', async () => {
    const res = await runCli(['token', '--base-url', TARGET, '--client-cert', fifo, '--client-key', cert], {
      cwd: dir,
      env: { CONFORMANCE_API_KEY: 'key-for-the-token-test' },
    });
    refusedInOneLine(res, notRegular('--client-cert', fifo, 'a FIFO (named pipe)'));
  });

  it('conformance proxy --ca-cert on /dev/zero, before it listens', async () => {
    const res = await runCli(['proxy', '--target', TARGET, '--ca-cert', '/dev/zero'], { cwd: dir });
    refusedInOneLine(res, notRegular('--ca-cert', '/dev/zero', 'a character device'));
  });
});

describe('the offline inputs given as a FIFO are refused too (the same reader)', () => {
  it('check-traffic', async () => {
    const res = await runCli(['check-traffic', fifo, '--report-dir', 'out'], { cwd: dir });
    refusedInOneLine(res, `conformance: ${fifo} is a FIFO (named pipe); a HAR file is read only from a regular file.`);
  });

  it('merge-reports and --rerun-failed', async () => {
    const merge = await runCli(['merge-reports', fifo, '--report-dir', 'out'], { cwd: dir });
    refusedInOneLine(
      merge,
      `conformance: ${fifo} is a FIFO (named pipe); a report.json is read only from a regular file.`,
    );
    const rerun = await runCli(['--rerun-failed', fifo], { cwd: dir });
    expect(rerun.code, rerun.stderr).toBe(2);
    expect(rerun.stderr).toContain(`${fifo} is a FIFO (named pipe); a report.json is read only from a regular file.`);
    expect(rerun.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('the config file and payload templates are read the same way', () => {
  it('--config naming a FIFO, and a payload template on /dev/zero', async () => {
    const config = await runCli(['--config', fifo], { cwd: dir });
    expect(config.code, config.stderr).toBe(2);
    expect(config.stderr.split('\n')[0]).toBe(
      `conformance: config file: ${fifo} is a FIFO (named pipe); a config file is read only from a regular file.`,
    );
    writeFileSync(join(dir, 'zero-template.yaml'), `base_url: ${TARGET}\npayloads:\n  account: /dev/zero\n`);
    const template = await runCli(['--config', 'zero-template.yaml'], { cwd: dir });
    expect(template.code, template.stderr).toBe(2);
    expect(template.stderr.split('\n')[0]).toBe(
      'conformance: payloads.account: /dev/zero is a character device; a payload template is read only from a regular file',
    );
    expect(config.stderr + template.stderr).not.toMatch(/\n\s+at /);
  });
});
