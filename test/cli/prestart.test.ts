/**
 * The embedded server's thread started before the suites load (app/embedded.ts
 * prestartEmbeddedTarget): only when nothing can give the run a base URL (app/cli/run.ts
 * aimsAtEmbedded), and then it is the server the run aims at, its secrets the run's.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { aimsAtEmbedded } from '../../app/cli/run.js';
import { DEFAULT_MUTATION } from '../../core/config/schema.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = (config?: string) => {
  const d = mkdtempSync(join(tmpdir(), 'prestart-'));
  if (config !== undefined) writeFileSync(join(d, 'conformance.config.yaml'), config);
  return d;
};

describe('aimsAtEmbedded', () => {
  it('is true with no base URL anywhere, and with a configuration file that names none', async () => {
    expect(await aimsAtEmbedded({}, dir(), {})).toBe(true);
    expect(await aimsAtEmbedded({ 'num-runs': '25' }, dir(), {})).toBe(true);
    expect(await aimsAtEmbedded({}, dir('run:\n  concurrency: 4\n'), {})).toBe(true);
  });

  it('is false wherever a base URL may come from, for many cases, and for a file that does not load', async () => {
    expect(await aimsAtEmbedded({ 'base-url': 'http://127.0.0.1:1' }, dir(), {})).toBe(false);
    expect(await aimsAtEmbedded({}, dir(), { CONFORMANCE_BASE_URL: 'http://127.0.0.1:1' })).toBe(false);
    expect(await aimsAtEmbedded({ 'rerun-failed': 'report.json' }, dir(), {})).toBe(false);
    expect(await aimsAtEmbedded({}, dir('base_url: http://127.0.0.1:1\n'), {})).toBe(false);
    expect(await aimsAtEmbedded({}, dir('base_url: ${TARGET}\n'), { TARGET: 'http://127.0.0.1:1' })).toBe(false);
    expect(await aimsAtEmbedded({ 'num-runs': '400' }, dir(), {})).toBe(false);
    expect(await aimsAtEmbedded({}, dir('run:\n  num_runs: 400\n'), {})).toBe(false);
    expect(await aimsAtEmbedded({ 'num-runs': '25' }, dir('run:\n  num_runs: 400\n'), {})).toBe(true);
    expect(await aimsAtEmbedded({}, dir('base_url: [unclosed\n'), {})).toBe(false);
    expect(await aimsAtEmbedded({ config: 'missing.yaml' }, dir(), {})).toBe(false);
  });
});

describe('prestartEmbeddedTarget', () => {
  it('is the server the run takes, answering to the secrets it was started with; the next run starts its own', async () => {
    // The built module: its server thread (dist/app/embedded-server.js) exists only once built.
    const { prestartEmbeddedTarget, startEmbeddedTarget } = await import(
      pathToFileURL(join(ROOT, 'dist/app/embedded.js')).href
    );
    const early = await prestartEmbeddedTarget();
    const first = await startEmbeddedTarget();
    const second = await startEmbeddedTarget();
    try {
      expect(early).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(first.baseUrl).toBe(early);
      expect(second.baseUrl).not.toBe(early);
      for (const target of [first, second]) {
        const answer = await fetch(`${target.baseUrl}/v1/graphql/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: DEFAULT_MUTATION, variables: { apiKey: target.apiKey } }),
        });
        const token = ((await answer.json()) as { data?: { obtainServiceToken?: { token?: string } } }).data
          ?.obtainServiceToken?.token;
        expect(token, target.baseUrl).toBeTypeOf('string');
        const listing = await fetch(
          `${target.baseUrl}/v1/data-import/pending-account-import-processes/${target.fixtures.import_suppliers.ongoing}/`,
          { headers: { authorization: `Token ${token}` } },
        );
        expect(listing.status).toBe(200);
      }
    } finally {
      await first.close();
      await second.close();
    }
  });
});
