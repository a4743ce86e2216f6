/**
 * Mutual TLS against a stand-in on loopback: an HTTPS front of the reference server that asks every
 * client for a certificate its CA signed and refuses the handshake otherwise. The run, the token
 * mutation, `conformance token` and the proxy's upstream present the certificate given with
 * --client-cert / --client-key (or tls.client_cert / tls.client_key); a missing or refused one ends
 * the run with exit 3 and a line saying so; a certificate and key that do not load is exit 2.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedSeed } from '../../app/embedded.js';
import { DEFAULT_API_KEY, DEFAULT_TOKEN, type ReferenceServer, startReferenceServer } from '../../reference/index.js';
import { runCli, startProxyCli, stop } from '../helpers/cli.js';
import { fullConfig } from '../helpers/config.js';
import { client } from '../helpers/http.js';
import { type Front, makeMutualTlsMaterial, startFront } from '../helpers/staging.js';

/** The child's proxy variables, cleared so the machine's own cannot change what a test means. */
const NO_PROXY_ENV = { HTTPS_PROXY: '', HTTP_PROXY: '', https_proxy: '', http_proxy: '', NO_PROXY: '', no_proxy: '' };
const PASSPHRASE = 'pass-7c41e9d2-phrase';

let reference: ReferenceServer;
let front: Front;
let material: Awaited<ReturnType<typeof makeMutualTlsMaterial>>;
/** The PEM files, in a folder of their own. */
const files = { ca: '', cert: '', key: '', encryptedKey: '', encryptedCert: '', otherCert: '', otherKey: '' };

beforeAll(async () => {
  // With the §8 limit the embedded target has, which the configuration declares (fullConfig).
  reference = await startReferenceServer({
    seed: await embeddedSeed({ token: DEFAULT_TOKEN, apiKey: DEFAULT_API_KEY }),
  });
  material = await makeMutualTlsMaterial(PASSPHRASE);
  front = await startFront(reference.url, { tls: { ...material, clientCa: material.caCert } });
  const dir = mkdtempSync(join(tmpdir(), 'mtls-pem-'));
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  files.ca = write('ca.pem', material.caCert);
  files.cert = write('client.pem', material.client.cert);
  files.key = write('client-key.pem', material.client.key);
  files.encryptedCert = write('client-enc.pem', material.encryptedClient.cert);
  files.encryptedKey = write('client-enc-key.pem', material.encryptedClient.key);
  files.otherCert = write('other.pem', material.otherClient.cert);
  files.otherKey = write('other-key.pem', material.otherClient.key);
}, 120_000);
afterAll(async () => {
  await front?.close();
  await reference?.close();
});

/** The base64 body of a PEM key: what would show if its bytes leaked anywhere. */
const keyLines = (pem: string) => pem.split('\n').filter((l) => l.length > 20 && !l.startsWith('-----'));

/** A run against the mTLS front in a fresh directory (the notes rules unless `rules` says otherwise). */
async function runAgainst(
  flags: string[],
  { env = {}, auth = '  token: ${TOKEN_FROM_ENV}', rules = ['--rule', 'notes.*'], extraConfig = '' } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'mtls-'));
  writeFileSync(join(dir, 'staging.yaml'), `${fullConfig(front.url, auth)}${extraConfig}`);
  const res = await runCli(
    ['--config', 'staging.yaml', ...rules, '--reporter', 'console', '--reporter', 'json', ...flags],
    {
      cwd: dir,
      env: { ...NO_PROXY_ENV, TOKEN_FROM_ENV: DEFAULT_TOKEN, KEY_FROM_ENV: DEFAULT_API_KEY, ...env },
    },
  );
  const reportFile = join(dir, 'conformance-report', 'report.json');
  const report = res.code === 0 || res.code === 1 ? readFileSync(reportFile, 'utf8') : '';
  return { ...res, report, dir };
}

const withCertificate = () => ['--ca-cert', files.ca, '--client-cert', files.cert, '--client-key', files.key];

describe('a run against a server that requires a client certificate', () => {
  it('is conformant with the certificate, for every rule and the token mutation', async () => {
    const res = await runAgainst(withCertificate(), { auth: '  api_key: ${KEY_FROM_ENV}', rules: [] });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(front.seen.some((r) => r.path.includes('graphql'))).toBe(true);
    for (const line of keyLines(material.client.key)) expect(res.stdout + res.report).not.toContain(line);
  }, 120_000);

  it('without a certificate: exit 3, and one line says the server asked for one', async () => {
    const res = await runAgainst(['--ca-cert', files.ca]);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(
      /refused the TLS handshake: the server asked for a client certificate and none was given \(--client-cert \/ tls\.client_cert\)/,
    );
    const line = res.stderr.split('\n').find((l) => l.includes('refused the TLS handshake'));
    expect(line).not.toMatch(/other side closed|reset/);
  }, 60_000);

  it('without a certificate, the token mutation says the same', async () => {
    const res = await runAgainst(['--ca-cert', files.ca], { auth: '  api_key: ${KEY_FROM_ENV}' });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(
      /ObtainServiceToken mutation at \S+: the server refused the TLS handshake: the server asked for a client certificate and none was given/,
    );
  }, 60_000);

  it("with another CA's certificate: exit 3, and one line says the server refused it", async () => {
    const res = await runAgainst([
      '--ca-cert',
      files.ca,
      '--client-cert',
      files.otherCert,
      '--client-key',
      files.otherKey,
    ]);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/refused the TLS handshake: the server refused the client certificate \(/);
    expect(res.stderr).toMatch(/--client-cert \/ tls\.client_cert\)/);
    for (const line of keyLines(material.otherClient.key)) expect(res.stdout + res.stderr).not.toContain(line);
  }, 60_000);

  it('takes the certificate and key from tls: in the config, relative to the config file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mtls-config-'));
    writeFileSync(join(dir, 'ca.pem'), material.caCert);
    writeFileSync(join(dir, 'me.pem'), material.client.cert);
    writeFileSync(join(dir, 'me-key.pem'), material.client.key);
    writeFileSync(
      join(dir, 'staging.yaml'),
      `${fullConfig(front.url, `  token: ${DEFAULT_TOKEN}`)}tls:\n  ca_cert: ca.pem\n  client_cert: me.pem\n  client_key: me-key.pem\n`,
    );
    const res = await runCli(['--config', 'staging.yaml', '--rule', 'notes.*', '--reporter', 'console'], {
      cwd: dir,
      env: NO_PROXY_ENV,
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
  }, 60_000);
});

describe('an encrypted client key', () => {
  const encrypted = () => [
    '--ca-cert',
    files.ca,
    '--client-cert',
    files.encryptedCert,
    '--client-key',
    files.encryptedKey,
    '--client-key-passphrase-env',
    'KEY_PASS',
  ];

  it('is decrypted with the passphrase from the variable --client-key-passphrase-env names', async () => {
    const res = await runAgainst(encrypted(), { env: { KEY_PASS: PASSPHRASE } });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout + res.report).not.toContain(PASSPHRASE);
  }, 60_000);

  it('a wrong passphrase is exit 2 naming the flag and the variable, never the passphrase', async () => {
    const res = await runAgainst(encrypted(), { env: { KEY_PASS: 'wrong-passphrase-1234' } });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(
      /--client-key: \S+client-enc-key\.pem: the passphrase does not decrypt it \(passphrase from --client-key-passphrase-env KEY_PASS\)/,
    );
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(res.stdout + res.stderr).not.toContain('wrong-passphrase-1234');
  });

  it('a passphrase variable that is not set is exit 2; so is an encrypted key without one', async () => {
    const unset = await runAgainst(encrypted());
    expect(unset.code).toBe(2);
    // The variable's name is not said back: given the passphrase itself by mistake, it would be printed.
    expect(unset.stderr).toMatch(/--client-key-passphrase-env: the environment variable it names is not set/);
    expect(unset.stderr).not.toContain('KEY_PASS');
    const none = await runAgainst(['--client-cert', files.encryptedCert, '--client-key', files.encryptedKey]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /--client-key: \S+: is encrypted, and no passphrase was given: name the environment variable/,
    );
  });
});

describe('a certificate and key that cannot be used: exit 2 before anything is sent', () => {
  it('names the missing file, the missing half and the key of another certificate', async () => {
    const seen = front.seen.length;
    const missing = await runAgainst(['--client-cert', '/nonexistent/client.pem', '--client-key', files.key]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--client-cert: cannot read \/nonexistent\/client\.pem \(ENOENT\)/);
    const noKey = await runAgainst(['--client-cert', files.cert]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(
      /--client-cert: a client certificate needs its key too \(--client-key \/ tls\.client_key\)/,
    );
    const noCert = await runAgainst([], { extraConfig: `tls:\n  client_key: ${files.key}\n` });
    expect(noCert.code).toBe(2);
    expect(noCert.stderr).toMatch(/tls\.client_key: a client key needs its certificate too/);
    const mismatch = await runAgainst(['--client-cert', files.cert, '--client-key', files.otherKey]);
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toMatch(/--client-key: \S+other-key\.pem: the key is not the client certificate's/);
    const swapped = await runAgainst(['--client-cert', files.key, '--client-key', files.cert]);
    expect(swapped.code).toBe(2);
    expect(swapped.stderr).toMatch(/--client-cert: \S+client-key\.pem: holds no PEM certificate/);
    for (const res of [missing, noKey, noCert, mismatch, swapped]) {
      // One line says what is wrong; the usage hint follows; never a stack trace.
      expect(res.stderr.trim().split('\n')[1]).toMatch(/^Run "conformance run --help"/);
      expect(res.stderr).not.toMatch(/\n\s+at /);
      for (const line of [...keyLines(material.client.key), ...keyLines(material.otherClient.key)])
        expect(res.stderr).not.toContain(line);
    }
    expect(front.seen.length).toBe(seen);
  });
});

describe('conformance token', () => {
  it('obtains the token through the mTLS front with the client certificate', async () => {
    const res = await runCli(['token', '--base-url', front.url, ...withCertificate()], {
      cwd: mkdtempSync(join(tmpdir(), 'mtls-token-')),
      env: { ...NO_PROXY_ENV, CONFORMANCE_API_KEY: DEFAULT_API_KEY },
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const status = await client(reference.url, res.stdout.trim())(
      'GET',
      '/v1/data-import/pending-account-import-processes/SUPPLIER_ONGOING/',
    );
    expect(status.status).toBe(200);
  }, 60_000);
});

describe('conformance proxy', () => {
  it('presents the client certificate to its target; without it, says the target refused the handshake', async () => {
    const path = '/v1/data-import/pending-account-import-processes/SUPPLIER_ONGOING/';
    const withCert = await startProxyCli(front.url, 'mtls-proxy-', withCertificate());
    try {
      const answer = await client(withCert.url, DEFAULT_TOKEN)('GET', path);
      expect(answer.status).toBe(200);
    } finally {
      await stop(withCert.child);
    }
    const without = await startProxyCli(front.url, 'mtls-proxy-', ['--ca-cert', files.ca]);
    try {
      const answer = await client(without.url, DEFAULT_TOKEN)('GET', path);
      expect(answer.status).toBe(502);
    } finally {
      await stop(without.child);
    }
    expect(without.stderr()).toMatch(
      /the target refused the TLS handshake: the server asked for a client certificate and none was given/,
    );
    for (const line of keyLines(material.client.key)) expect(withCert.stderr()).not.toContain(line);
  }, 60_000);
});
