/**
 * The flags users reach for against a staging server, each against a real stand-in on loopback: a
 * gateway that wants a header, `--token`, a TLS server whose certificate a CA made here signed
 * (`--ca-cert`, `--insecure`) and a forward proxy named by HTTPS_PROXY / HTTP_PROXY (and NO_PROXY).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_TOKEN, startReferenceServer, type ReferenceServer } from '../../reference/index.js';
import { runCli } from '../helpers/cli.js';
import { fullConfig } from '../helpers/config.js';
import { makeTlsMaterial, startForwardProxy, startFront, type Front } from '../helpers/staging.js';

const GATEWAY_KEY = 'gw-key-5b1f9c27';
/** The child's proxy variables, cleared so the machine's own cannot change what a test means. */
const NO_PROXY_ENV = { HTTPS_PROXY: '', HTTP_PROXY: '', https_proxy: '', http_proxy: '', NO_PROXY: '', no_proxy: '' };

let reference: ReferenceServer;
const fronts: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  reference = await startReferenceServer({ seed: 'default' });
});
afterAll(async () => {
  for (const f of fronts) await f.close();
  await reference?.close();
});

/** A run of the notes rules (§4.3) against `url`, in a fresh directory with a config for the reference server's fixtures. */
async function runAgainst(
  url: string,
  flags: string[],
  env: Record<string, string> = {},
  auth = '  token: ${TOKEN_FROM_ENV}',
) {
  const dir = mkdtempSync(join(tmpdir(), 'staging-'));
  writeFileSync(join(dir, 'staging.yaml'), fullConfig(url, auth));
  const res = await runCli(
    ['--config', 'staging.yaml', '--rule', 'notes.*', '--reporter', 'console', '--reporter', 'json', ...flags],
    {
      cwd: dir,
      env: { ...NO_PROXY_ENV, TOKEN_FROM_ENV: DEFAULT_TOKEN, KEY_FROM_ENV: DEFAULT_API_KEY, ...env },
    },
  );
  const reportFile = join(dir, 'conformance-report', 'report.json');
  const report = res.code === 0 || res.code === 1 ? readFileSync(reportFile, 'utf8') : '';
  return { ...res, report };
}

async function front(...args: Parameters<typeof startFront>): Promise<Front> {
  const f = await startFront(...args);
  fronts.push(f);
  return f;
}

describe('--header and config headers', () => {
  it('sends the header on every request, including the token mutation, and never prints its value', async () => {
    const gateway = await front(reference.url, {
      gate: (req) => (req.headers['x-gateway-key'] === GATEWAY_KEY ? undefined : 403),
    });
    const res = await runAgainst(
      gateway.url,
      ['--header', `X-Gateway-Key: ${GATEWAY_KEY}`, '--header', 'X-Team: conformance'],
      {},
      '  api_key: ${KEY_FROM_ENV}',
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(gateway.seen.length).toBeGreaterThan(10);
    expect(gateway.seen.some((r) => r.path.includes('graphql'))).toBe(true);
    for (const r of gateway.seen) expect(r.headers['x-team']).toBe('conformance');
    expect(res.stdout + res.report).not.toContain(GATEWAY_KEY);
  }, 60_000);

  it('takes headers from the config file too, and without the key the gateway stops the run before any rule', async () => {
    const gateway = await front(reference.url, {
      gate: (req) => (req.headers['x-gateway-key'] === GATEWAY_KEY ? undefined : 403),
    });
    const withConfig = await (async () => {
      const dir = mkdtempSync(join(tmpdir(), 'staging-'));
      writeFileSync(
        join(dir, 'staging.yaml'),
        `${fullConfig(gateway.url, `  token: ${DEFAULT_TOKEN}`)}headers:\n  X-Gateway-Key: \${GW_KEY}\n`,
      );
      return runCli(['--config', 'staging.yaml', '--rule', 'notes.*', '--reporter', 'console'], {
        cwd: dir,
        env: { ...NO_PROXY_ENV, GW_KEY: GATEWAY_KEY },
      });
    })();
    expect(withConfig.code).toBe(0);
    const without = await runAgainst(gateway.url, []);
    expect(without.code).not.toBe(0);
  }, 60_000);

  it('takes headers from CONFORMANCE_HEADERS, one per line (off the command line), and a --header replaces one of the same name', async () => {
    const gateway = await front(reference.url, {
      gate: (req) => (req.headers['x-gateway-key'] === GATEWAY_KEY ? undefined : 403),
    });
    const fromEnv = await runAgainst(gateway.url, [], {
      CONFORMANCE_HEADERS: `X-Gateway-Key: ${GATEWAY_KEY}\r\n\nX-Team: team-blue\n`,
    });
    expect(fromEnv.stderr).toBe('');
    expect(fromEnv.code).toBe(0);
    for (const r of gateway.seen) expect(r.headers['x-team']).toBe('team-blue');
    expect(fromEnv.stdout + fromEnv.report).not.toContain(GATEWAY_KEY);
    const overridden = await runAgainst(gateway.url, ['--header', `X-Gateway-Key: ${GATEWAY_KEY}`], {
      CONFORMANCE_HEADERS: 'X-Gateway-Key: a-stale-key-1234',
    });
    expect(overridden.code).toBe(0);
  }, 60_000);

  it('refuses a malformed header and one the runner sets itself', async () => {
    const malformed = await runAgainst(reference.url, ['--header', 'no colon here']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/--header must look like 'Name: value'/);
    const auth = await runAgainst(reference.url, ['--header', 'Authorization: Token abc']);
    expect(auth.code).toBe(2);
    expect(auth.stderr).toMatch(/authorization is set by the runner itself \(give the token with --token/);
  });
});

describe('--token', () => {
  it('overrides CONFORMANCE_TOKEN and the config, and is never printed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'staging-'));
    writeFileSync(join(dir, 'staging.yaml'), fullConfig(reference.url, '  token: wrong-config-token'));
    const res = await runCli(
      ['--config', 'staging.yaml', '--rule', 'notes.*', '--reporter', 'console', '--token', DEFAULT_TOKEN],
      {
        cwd: dir,
        env: { ...NO_PROXY_ENV, CONFORMANCE_TOKEN: 'wrong-env-token' },
      },
    );
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const withoutFlag = await runCli(['--config', 'staging.yaml', '--rule', 'notes.*', '--reporter', 'console'], {
      cwd: dir,
      env: { ...NO_PROXY_ENV, CONFORMANCE_TOKEN: 'wrong-env-token' },
    });
    expect(withoutFlag.code).toBe(3);
    expect(withoutFlag.stderr).toMatch(/refused the token/);
    expect(res.stdout + withoutFlag.stdout + withoutFlag.stderr).not.toContain(DEFAULT_TOKEN);
  }, 60_000);
});

describe('TLS: --ca-cert and --insecure', () => {
  let tls: Awaited<ReturnType<typeof makeTlsMaterial>>;
  let secure: Front;
  let caFile: string;
  beforeAll(async () => {
    tls = await makeTlsMaterial();
    secure = await front(reference.url, { tls });
    caFile = join(mkdtempSync(join(tmpdir(), 'ca-')), 'staging-ca.pem');
    writeFileSync(caFile, tls.caCert);
  }, 60_000);

  it('refuses a server certificate no trusted CA signed, before any rule runs', async () => {
    const res = await runAgainst(secure.url, []);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/unreachable/);
  }, 60_000);

  it('trusts the staging CA given with --ca-cert, for the rules and for the token mutation', async () => {
    const res = await runAgainst(secure.url, ['--ca-cert', caFile], {}, '  api_key: ${KEY_FROM_ENV}');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(secure.seen.some((r) => r.path.includes('graphql'))).toBe(true);
  }, 60_000);

  it('takes the CA from tls.ca_cert in the config, relative to the config file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'staging-'));
    writeFileSync(join(dir, 'ca.pem'), tls.caCert);
    writeFileSync(
      join(dir, 'staging.yaml'),
      `${fullConfig(secure.url, `  token: ${DEFAULT_TOKEN}`)}tls:\n  ca_cert: ca.pem\n`,
    );
    const res = await runCli(['--config', 'staging.yaml', '--rule', 'notes.*', '--reporter', 'console'], {
      cwd: dir,
      env: NO_PROXY_ENV,
    });
    expect(res.code).toBe(0);
  }, 60_000);

  it('accepts any certificate with --insecure, and says so', async () => {
    const res = await runAgainst(secure.url, ['--insecure']);
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/--insecure: the target's TLS certificate is not checked/);
  }, 60_000);

  it('names a CA file that cannot be read or holds no certificate (exit 2)', async () => {
    const missing = await runAgainst(secure.url, ['--ca-cert', '/nonexistent/ca.pem']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--ca-cert: cannot read \/nonexistent\/ca\.pem \(ENOENT\)/);
    const notPem = join(mkdtempSync(join(tmpdir(), 'ca-')), 'ca.pem');
    writeFileSync(notPem, 'not a certificate');
    const bad = await runAgainst(secure.url, ['--ca-cert', notPem]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/holds no PEM certificate/);
  });
});

describe('proxy variables', () => {
  it('sends every request through HTTP_PROXY, the token mutation included', async () => {
    const proxy = await startForwardProxy();
    fronts.push(proxy);
    const res = await runAgainst(reference.url, [], { HTTP_PROXY: proxy.url }, '  api_key: ${KEY_FROM_ENV}');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const host = new URL(reference.url).host;
    expect(proxy.seen.length).toBeGreaterThan(0);
    for (const target of proxy.seen) expect(target.includes(host)).toBe(true);
  }, 60_000);

  it('tunnels an https target through HTTPS_PROXY, with the CA still checked end to end', async () => {
    const tls = await makeTlsMaterial();
    const secure = await front(reference.url, { tls });
    const caFile = join(mkdtempSync(join(tmpdir(), 'ca-')), 'ca.pem');
    writeFileSync(caFile, tls.caCert);
    const proxy = await startForwardProxy();
    fronts.push(proxy);
    const res = await runAgainst(secure.url, ['--ca-cert', caFile], { HTTPS_PROXY: proxy.url });
    expect(res.code).toBe(0);
    expect(proxy.seen).toContain(new URL(secure.url).host);
  }, 60_000);

  it('bypasses the proxy for hosts in NO_PROXY', async () => {
    const proxy = await startForwardProxy();
    fronts.push(proxy);
    const res = await runAgainst(reference.url, [], { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
    expect(res.code).toBe(0);
    expect(proxy.seen).toEqual([]);
  }, 60_000);

  it('leaves the embedded reference server alone: it is in this process, not behind the proxy', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'staging-'));
    const res = await runCli(['--rule', 'notes.*', '--reporter', 'console'], {
      cwd: dir,
      env: { ...NO_PROXY_ENV, HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9' },
    });
    expect(res.code).toBe(0);
  }, 60_000);
});
