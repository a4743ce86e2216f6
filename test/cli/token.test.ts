/** `conformance token`: a fresh token from the API key, alone on stdout, that the target takes. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, type ReferenceServer, startReferenceServer } from '../../reference/index.js';
import { resolveRun } from '../../app/resolve.js';
import { runCli } from '../helpers/cli.js';
import { client } from '../helpers/http.js';

let server: ReferenceServer;
// An empty directory: no conformance.config.yaml is picked up from the repository.
const cwd = mkdtempSync(join(tmpdir(), 'token-'));
beforeAll(async () => {
  server = await startReferenceServer({ port: 0, host: '127.0.0.1' });
});
afterAll(() => server.close());

describe('conformance token', () => {
  it('prints a token obtained with the API key, which the target takes', async () => {
    const res = await runCli(['token', '--base-url', server.url], {
      cwd,
      env: { CONFORMANCE_API_KEY: DEFAULT_API_KEY },
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const token = res.stdout.trim();
    expect(res.stdout).toBe(`${token}\n`);
    const status = await client(server.url, token)(
      'GET',
      '/v1/data-import/pending-account-import-processes/SUPPLIER_ONGOING/',
    );
    expect(status.status).toBe(200);
    const refused = await client(server.url, `${token}x`)(
      'GET',
      '/v1/data-import/pending-account-import-processes/SUPPLIER_ONGOING/',
    );
    expect(refused.status).toBe(401);
  });

  it('ignores a configured token: it prints a fresh one, never the configured value', async () => {
    const res = await runCli(['token', '--base-url', server.url], {
      cwd,
      env: { CONFORMANCE_API_KEY: DEFAULT_API_KEY, CONFORMANCE_TOKEN: 'configured-token-value' },
    });
    expect(res.code).toBe(0);
    expect(res.stdout).not.toContain('configured-token-value');
  });

  it('an unknown API key exits 3 and says the mutation refused it, without printing the key', async () => {
    const res = await runCli(['token', '--base-url', server.url], {
      cwd,
      env: { CONFORMANCE_API_KEY: 'not-a-key-4711' },
    });
    expect(res.code).toBe(3);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/ObtainServiceToken/);
    expect(res.stderr).not.toContain('not-a-key-4711');
  });

  it('without a base URL or an API key it is a usage error (exit 2) naming what is missing', async () => {
    const noUrl = await runCli(['token'], {
      cwd,
      env: { CONFORMANCE_API_KEY: DEFAULT_API_KEY, CONFORMANCE_BASE_URL: '' },
    });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/--base-url/);
    const noKey = await runCli(['token', '--base-url', server.url], { cwd, env: { CONFORMANCE_API_KEY: '' } });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/CONFORMANCE_API_KEY/);
  });

  it('a config that still holds a starter placeholder is named before a run against a real target, on loopback only when found by default', () => {
    const dir = mkdtempSync(join(tmpdir(), 'placeholder-'));
    writeFileSync(
      join(dir, 'conformance.config.yaml'),
      'fixtures:\n  import_suppliers:\n    ongoing: SUPPLIER_ONGOING\n  operations_team: Migrations\n',
    );
    const staging = resolveRun({ 'base-url': 'https://staging.example.com' }, dir, {});
    expect(staging.warnings).toEqual([
      expect.stringMatching(
        /still holds starter placeholders \(fixtures\.import_suppliers\.ongoing: SUPPLIER_ONGOING\)/,
      ),
    ]);
    // Found without --config (the shipped preset, say) and aimed at a mock on this machine: said too.
    expect(resolveRun({ 'base-url': server.url }, dir, {}).warnings).toEqual([
      expect.stringMatching(
        /conformance\.config\.yaml, used because no --config was given\) still holds starter placeholders \(fixtures\.import_suppliers\.ongoing: SUPPLIER_ONGOING\)/,
      ),
    ]);
    // Named on purpose for `conformance serve` on this machine, whose seed they are: nothing to say.
    expect(resolveRun({ 'base-url': server.url, config: 'conformance.config.yaml' }, dir, {}).warnings).toEqual([]);
    expect(resolveRun({}, dir, {}).warnings).toEqual([]);
  });
});
