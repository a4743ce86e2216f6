/**
 * A usage error never says back the value of a flag that may hold a secret: a malformed --header
 * (`X-Gateway-Key=secret`, a value without its name, an unquoted value the shell split), a stray
 * argument after --token, a passphrase given to --client-key-passphrase-env instead of a variable's
 * name, a header name in the config that holds a value. Each still says what form is expected, and
 * names the header when the text splits safely into a name and a value.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { secretsOnCommandLine } from '../../app/cli/usage.js';
import { runCli } from '../helpers/cli.js';

/** A secret no message could contain by chance; its parts too. */
const SECRET = 'gw-secret-4f0c8e1d9a27';
/** Nothing listens there, and nothing is sent: every case is refused before the first request. */
const TARGET = 'http://127.0.0.1:9';

/** Runs the CLI and checks: exit 2, one line, no stack trace, and no trace of the secret anywhere. */
async function refusedWithoutSecret(args: string[], secret = SECRET, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'secret-usage-'));
  writeFileSync(join(dir, 'a.pem'), '-----BEGIN CERTIFICATE-----\n');
  writeFileSync(join(dir, 'k.pem'), '-----BEGIN PRIVATE KEY-----\n');
  writeFileSync(join(dir, 'bad-header.yaml'), `base_url: ${TARGET}\nheaders:\n  "X-Gateway-Key: ${SECRET}": x\n`);
  const res = await runCli(args, { cwd: dir, env });
  expect(res.code, res.stderr).toBe(2);
  expect(res.stderr).not.toMatch(/\n\s+at /);
  for (const text of [secret, secret.slice(3), secret.slice(0, -3)]) {
    expect(res.stderr).not.toContain(text);
    expect(res.stdout).not.toContain(text);
  }
  return res.stderr;
}

/** The first line of what was printed on stderr: the usage error itself. */
const first = (stderr: string) => stderr.split('\n')[0];

describe('a malformed --header never prints its value', () => {
  it("'Name=value' names the header (the usual slip) and shows the form, never the value", async () => {
    const stderr = await refusedWithoutSecret(['--base-url', TARGET, '--header', `X-Gateway-Key=${SECRET}`]);
    expect(first(stderr)).toBe(
      "conformance: --header must look like 'Name: value', with a colon: X-Gateway-Key is followed by '=' (its value is not shown); write 'X-Gateway-Key: …'.",
    );
  });

  it.each([
    ['a value alone', SECRET],
    ['a base64 value (an = of its own is no separator)', `${SECRET}==`],
    ['a one-word name before =, which may be the start of a secret', `${SECRET.replace(/-/g, '')}=abc`],
    ['a name with a space before the colon', `X Gateway ${SECRET}: v`],
  ])('%s: the form expected, and nothing of what was given', async (_what, header) => {
    const stderr = await refusedWithoutSecret(['--base-url', TARGET, '--header', header], header.slice(0, 20));
    expect(first(stderr)).toBe(
      "conformance: --header must look like 'Name: value' (what was given is not shown, since it may hold a secret).",
    );
  });

  it('says which --header of several is wrong', async () => {
    const stderr = await refusedWithoutSecret([
      '--base-url',
      TARGET,
      '--header',
      'X-Team: conformance',
      '--header',
      `X-Key=${SECRET}`,
    ]);
    expect(first(stderr)).toMatch(/^conformance: --header \(number 2 of 2\) must look like 'Name: value'/);
  });

  it('an unquoted value the shell split: the stray word is not quoted, the flag before it is named', async () => {
    const stderr = await refusedWithoutSecret(['--base-url', TARGET, '--header', 'X-Gateway-Key:', SECRET]);
    expect(first(stderr)).toBe(
      `conformance: An argument after --header and its value is not an option of "conformance run", which takes no other arguments (its text is not shown: it may be part of a secret). A value with spaces needs quotes, e.g. --header 'Name: value'.`,
    );
  });

  it('conformance token refuses it the same way', async () => {
    const stderr = await refusedWithoutSecret(
      ['token', '--base-url', TARGET, '--header', `X-Gateway-Key=${SECRET}`],
      SECRET,
      {
        CONFORMANCE_API_KEY: 'an-api-key-for-the-test',
      },
    );
    expect(first(stderr)).toMatch(
      /--header must look like 'Name: value', with a colon: X-Gateway-Key is followed by '='/,
    );
  });

  it('a malformed line of CONFORMANCE_HEADERS is named by its number, its text not shown', async () => {
    const stderr = await refusedWithoutSecret(['--base-url', TARGET], SECRET, {
      CONFORMANCE_HEADERS: `X-Team: team-blue\n${SECRET}\n`,
    });
    expect(first(stderr)).toBe(
      "conformance: CONFORMANCE_HEADERS, line 2: must look like 'Name: value' (what was given is not shown, since it may hold a secret).",
    );
  });

  it('a header name in the config that holds a value is not quoted', async () => {
    const stderr = await refusedWithoutSecret(['--config', 'bad-header.yaml']);
    expect(stderr).toMatch(/^ {2}- headers: a header name holds a character no header name may/m);
  });
});

describe('other flags that hold secrets', () => {
  it.each([
    ['a stray word after --token', ['--token', 'tok-1234', SECRET]],
    ['a value given to an option that takes none', [`--insecure=${SECRET}`]],
    ['an unknown option with a value', [`--x-gateway-key=${SECRET}`]],
  ])('%s', async (_what, args) => {
    await refusedWithoutSecret(['--base-url', TARGET, ...args]);
  });

  it('a base URL or proxy target that is no URL but carries credentials is not quoted', async () => {
    const base = await refusedWithoutSecret(['--base-url', `http://user:${SECRET}@exa mple.com`]);
    expect(first(base)).toBe(
      'conformance: --base-url must be an http(s) URL, got a URL with credentials in it (scheme http, not shown).',
    );
    const target = await refusedWithoutSecret(['proxy', '--target', `http://user:${SECRET}@exa mple.com`]);
    expect(first(target)).toBe(
      'conformance: --target must be an http(s) URL, got a URL with credentials in it (scheme http, not shown).',
    );
  });

  it('a passphrase given to --client-key-passphrase-env instead of a name is not said back', async () => {
    const certAndKey = ['--client-cert', 'a.pem', '--client-key', 'k.pem'];
    // Not a variable's name at all (a space, punctuation).
    const invalid = await refusedWithoutSecret(
      ['--base-url', TARGET, ...certAndKey, '--client-key-passphrase-env', `p@ss ${SECRET}!`],
      `p@ss ${SECRET}!`,
    );
    expect(first(invalid)).toMatch(
      /^conformance: --client-key-passphrase-env takes the name of an environment variable/,
    );
    // Shaped like a name, but no such variable is set.
    const unset = await refusedWithoutSecret(
      ['--base-url', TARGET, ...certAndKey, '--client-key-passphrase-env', 'Hunter2Passphrase9'],
      'Hunter2Passphrase9',
    );
    expect(first(unset)).toMatch(
      /^conformance: --client-key-passphrase-env: the environment variable it names is not set/,
    );
  });
});

describe('secretsOnCommandLine (what a usage error is redacted of, should a value ever slip in)', () => {
  it('finds --token and --header values, spaced or inline, and a header value after its name', () => {
    expect(
      secretsOnCommandLine(['--token', 'tok', '--header=X-Key: abc', '--header', 'Y=def', '--rule', 'notes.*']),
    ).toEqual(['tok', 'X-Key: abc', 'abc', 'Y=def', 'def']);
    expect(secretsOnCommandLine(['--rule', 'x', '--token'])).toEqual([]);
  });
});
