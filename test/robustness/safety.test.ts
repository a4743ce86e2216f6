/** Secrets, the paths the runner touches, rate limit and concurrency, a target that fails mid-run, determinism. */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_API_KEY, DEFAULT_TOKEN, startReferenceServer } from '../../reference/index.js';
import { embeddedFixtures, embeddedSeed } from '../../app/embedded.js';
import { runConformance } from '../../app/conformance.js';
import { startChaos } from '../helpers/chaos.js';
import { runCli } from '../helpers/cli.js';
import { fullConfig } from '../helpers/config.js';
import { startProxy } from '../helpers/proxy.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'safety-'));
const allOutput = (dir: string, res: { stdout: string; stderr: string }) =>
  [
    res.stdout,
    res.stderr,
    ...readdirSync(join(dir, 'conformance-report')).map((f) =>
      readFileSync(join(dir, 'conformance-report', f), 'utf8'),
    ),
  ].join('\n');

describe('secrets never reach output or reports', () => {
  it('with an API key, on a failing run: no API key and no issued token in stdout, stderr or any report', async () => {
    const secretKey = 'api-key-5f2b8c9d1e3a';
    const seed = await embeddedSeed({ token: 'unused-static-token-x' });
    seed.api_keys = [secretKey];
    const server = await startReferenceServer({ seed, faults: ['errors.attr-one-based', 'notes.dedup-body-only'] });
    try {
      const dir = tmp();
      writeFileSync(join(dir, 'conformance.config.yaml'), fullConfig(server.url, '  api_key: ${KEY}'));
      const res = await runCli(['--rule', 'errors.*', '--rule', 'notes.*', '--rule', 'auth.*'], {
        cwd: dir,
        env: { KEY: secretKey },
      });
      expect(res.code).toBe(1);
      const text = allOutput(dir, res);
      const issued = [...server.store.tokens.keys()].filter((t) => t !== 'unused-static-token-x');
      expect(issued.length).toBeGreaterThan(0);
      for (const secret of [secretKey, ...issued]) expect(text, 'a secret leaked').not.toContain(secret);
      expect(text).toContain('Token ***');
    } finally {
      await server.close();
    }
  });

  it('with a static token and a password in the base URL, and on the unreachable and config-error paths', async () => {
    const token = 'static-token-7d1c0e9b';
    const server = await startReferenceServer({
      seed: await embeddedSeed({ token }),
      faults: ['migration.stage.always-201'],
    });
    try {
      const url = new URL(server.url);
      url.username = 'user';
      url.password = 'url-password-31337';
      const dir = tmp();
      writeFileSync(join(dir, 'conformance.config.yaml'), fullConfig(url.toString(), '  token: ${T}'));
      const res = await runCli(['--rule', 'migration.stage.*', '--rule', 'auth.401.stage-account'], {
        cwd: dir,
        env: { T: token },
      });
      expect(res.code).toBe(1);
      const text = allOutput(dir, res);
      for (const secret of [token, 'url-password-31337']) expect(text).not.toContain(secret);
    } finally {
      await server.close();
    }
    const down = await runCli(['--base-url', 'http://127.0.0.1:9', '--reporter', 'json'], {
      cwd: tmp(),
      env: { CONFORMANCE_TOKEN: token },
    });
    expect(down.code).toBe(3);
    expect(down.stdout + down.stderr).not.toContain(token);
    const bad = tmp();
    writeFileSync(join(bad, 'conformance.config.yaml'), `auth:\n  token: ${token}\nrun:\n  concurency: 2\n`);
    const badRes = await runCli([], { cwd: bad });
    expect(badRes.code).toBe(2);
    expect(badRes.stdout + badRes.stderr).not.toContain(token);
  });
});

describe('the requests the runner makes', () => {
  it('stay under /v1/data-import/ and the GraphQL URL', async () => {
    const server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
    const chaos = await startChaos(server.url, () => undefined);
    try {
      const report = await runConformance({
        baseUrl: chaos.url,
        auth: { apiKey: DEFAULT_API_KEY },
        fixtures: await embeddedFixtures(),
        seed: 1,
      });
      expect(report.summary.must_failures).toBe(0);
      const outside = chaos.seen.filter((s) => !s.path.startsWith('/v1/data-import/') && s.path !== '/v1/graphql/');
      expect(outside).toEqual([]);
      // Once for the run's token, once by auth.api-key.unknown-key-no-token (with a key of its own).
      expect(chaos.seen.filter((s) => s.path === '/v1/graphql/').length).toBe(2);
    } finally {
      await chaos.close();
      await server.close();
    }
  });

  it('honour --concurrency and --rate-limit', async () => {
    const server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
    let inFlight = 0;
    let maxInFlight = 0;
    const starts: number[] = [];
    const proxy = await startProxy(server.url, async (_req, forward) => {
      starts.push(performance.now());
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      try {
        return await forward();
      } finally {
        inFlight--;
      }
    });
    try {
      const report = await runConformance({
        baseUrl: proxy.url,
        auth: { token: DEFAULT_TOKEN },
        fixtures: await embeddedFixtures(),
        selection: { rules: ['notes.*'] },
        concurrency: 2,
        rateLimit: 25,
      });
      expect(report.summary.must_failures).toBe(0);
      expect(maxInFlight).toBeLessThanOrEqual(2);
      // at most 25 requests in any one-second window (plus the preflight, sent before the limiter
      // mattered); the proxy sees a start up to a few ms late on a loaded machine, so the window it
      // measures is taken 50 ms short of a second.
      const busiest = Math.max(...starts.map((t) => starts.filter((u) => u >= t && u < t + 950).length));
      expect(busiest).toBeLessThanOrEqual(26);
      expect(starts.length).toBeGreaterThan(40);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});

describe('a target that changes under the run', () => {
  it('goes down half-way: the rest errors as refused, the report says so, exit 1', async () => {
    const server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
    let count = 0;
    // Down after some 40 % of a default run's requests: the rules that start first are the long
    // ones (core/engine/run.ts), so the short ones that pass before it need some requests of their own.
    const proxy = await startProxy(server.url, () => (++count > 1500 ? 'reset' : undefined));
    try {
      const report = await runConformance({
        baseUrl: proxy.url,
        auth: { token: DEFAULT_TOKEN },
        fixtures: await embeddedFixtures(),
        seed: 2,
      });
      expect(report.summary.exit_code).toBe(1);
      const errored = report.rules.filter((r) => r.verdict === 'error');
      expect(errored.length).toBeGreaterThan(20);
      for (const r of errored) expect(r.error_kind === 'exchange' || r.error_kind === 'precondition').toBe(true);
      expect(report.http.failures).toBeGreaterThan(0);
      expect(report.rules.filter((r) => r.verdict === 'pass').length).toBeGreaterThan(10);
    } finally {
      await proxy.close();
      await server.close();
    }
  });

  /**
   * A run through the API key against a server of its own in which, after every `every` rules, every
   * token issued so far stops working — but only once each of them has been accepted by the server at
   * least once: a token revoked before any request could use it is a server refusing every token,
   * which the runner rightly stops renewing for (a busy machine must not make that happen by chance).
   * Acceptance is read where the server looks a token up, not from answers logged later, which a
   * loaded machine may log after the revocation.
   */
  async function runExpiringTokens(rules: string[], concurrency: number, every: number) {
    let mutations = 0;
    const server = await startReferenceServer({
      seed: await embeddedSeed({ token: DEFAULT_TOKEN }),
      onRequest: (e) => {
        if (e.path.startsWith('/v1/graphql')) mutations++;
      },
    });
    const tokens = server.store.tokens;
    const accepted = new Set<string>();
    const lookUp = tokens.get.bind(tokens);
    tokens.get = (token: string) => {
      const issued = lookUp(token);
      if (issued) accepted.add(token);
      return issued;
    };
    try {
      let done = 0;
      let expired = 0;
      const report = await runConformance({
        baseUrl: server.url,
        auth: { apiKey: DEFAULT_API_KEY },
        fixtures: await embeddedFixtures(),
        selection: { rules },
        concurrency,
        onEvent: (e) => {
          const issued = [...tokens.keys()].filter((t) => t !== DEFAULT_TOKEN);
          if (e.type === 'rule' && ++done % every === 0 && issued.every((t) => accepted.has(t))) {
            expired++;
            for (const t of issued) tokens.delete(t);
          }
        },
      });
      return { report, expired, mutations };
    } finally {
      await server.close();
    }
  }

  it('expires the token again and again: the runner obtains a new one each time, as often as the run needs', async () => {
    // After every third rule, every token issued so far stops working (far more than any count allowed).
    const { report, expired } = await runExpiringTokens(['notes.*', 'status.*'], 1, 3);
    expect(report.summary.must_failures).toBe(0);
    expect(report.summary.counts.error).toBe(0);
    expect(expired).toBeGreaterThan(5);
    // One rule at a time: each expiry but perhaps the one after the last rule is met, and cured once.
    expect(report.http.token_renewals).toBeGreaterThanOrEqual(expired - 1);
    expect(report.http.token_renewals).toBeLessThanOrEqual(expired);
    expect(report.http.token_refused_mid_run).toBe(0);
    expect(report.http.token_renewal_stopped).toBeUndefined();
  });

  it('the 401 rules, which send no token or another one on purpose, renew nothing', async () => {
    const server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
    try {
      const report = await runConformance({
        baseUrl: server.url,
        auth: { apiKey: DEFAULT_API_KEY },
        fixtures: await embeddedFixtures(),
        selection: { rules: ['auth.*'] },
      });
      expect(report.rules.filter((r) => r.id.startsWith('auth.401.')).length).toBeGreaterThan(10);
      expect(report.summary.must_failures).toBe(0);
      expect(report.http.token_renewals).toBe(0);
      expect(report.http.token_refused_mid_run).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('rules in flight together that meet one expiry share one renewal, and each refused request is sent again with a current token', async () => {
    const { report, expired, mutations } = await runExpiringTokens(['notes.*', 'status.*', 'transactions.*'], 8, 4);
    expect(report.summary.must_failures).toBe(0);
    expect(report.summary.counts.error).toBe(0);
    expect(report.http.token_renewals).toBeGreaterThan(0);
    expect(report.http.token_renewal_stopped).toBeUndefined();
    // Never one renewal per rule refused: at most one per expiry, and the server saw each request for one.
    expect(report.http.token_renewals).toBeLessThanOrEqual(expired);
    expect(mutations).toBe(1 + report.http.token_renewals);
  });

  it('stops renewing, and says why, when new tokens are refused twice in a row before one was accepted', async () => {
    const server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
    try {
      let done = 0;
      const report = await runConformance({
        baseUrl: server.url,
        auth: { apiKey: DEFAULT_API_KEY },
        fixtures: await embeddedFixtures(),
        selection: { rules: ['notes.*'] },
        concurrency: 1,
        onEvent: (e) => {
          // after five rules the token stops working, and every token issued from then on is dead on arrival
          if (e.type === 'rule' && ++done === 5) {
            server.store.settings.tokenTtlSeconds = 0;
            for (const t of [...server.store.tokens.keys()]) if (t !== DEFAULT_TOKEN) server.store.tokens.delete(t);
          }
        },
      });
      // The first new token may have waited out its life on a busy runner: one more is tried, then no more.
      expect(report.http.token_renewals).toBe(2);
      expect(report.http.token_renewal_stopped).toMatch(/2 newly obtained tokens in a row were refused/);
      expect(report.http.token_refused_mid_run).toBeGreaterThan(1);
      expect(report.summary.exit_code).toBe(1);
      expect(report.rules.filter((r) => r.verdict !== 'pass').every((r) => /401/.test(r.reason ?? ''))).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('expires a static token mid-run: without an API key the rules fail with 401, and the report says why', async () => {
    const server = await startReferenceServer({ seed: await embeddedSeed({ token: 'short-lived' }) });
    try {
      let done = 0;
      const report = await runConformance({
        baseUrl: server.url,
        auth: { token: 'short-lived' },
        fixtures: await embeddedFixtures(),
        selection: { rules: ['notes.*'] },
        concurrency: 1,
        onEvent: (e) => {
          if (e.type === 'rule' && ++done === 3) server.store.tokens.delete('short-lived');
        },
      });
      expect(report.http.token_renewals).toBe(0);
      expect(report.http.token_refused_mid_run).toBeGreaterThan(0);
      expect(report.summary.exit_code).toBe(1);
      expect(report.rules.filter((r) => r.verdict !== 'pass').every((r) => /401/.test(r.reason ?? ''))).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('determinism', () => {
  // Against a broken server, where the verdicts include failures and their shrunk counterexamples
  // (a faithful one passes everything, whatever the seed): the same seed says the same, to the
  // counterexample's path, run after run against one server whose state grows between them.
  it('the same seed gives byte-identical verdict lists and counterexample paths over three runs', async () => {
    const server = await startReferenceServer({
      seed: await embeddedSeed({ token: DEFAULT_TOKEN }),
      faults: ['errors.attr-one-based'],
    });
    try {
      const lists: string[] = [];
      const runIds: string[] = [];
      for (let i = 0; i < 3; i++) {
        const report = await runConformance({
          baseUrl: server.url,
          auth: { token: DEFAULT_TOKEN },
          fixtures: await embeddedFixtures(),
          seed: 424242,
        });
        lists.push(report.rules.map((r) => `${r.id}\t${r.verdict}\t${r.counterexample?.path ?? ''}`).join('\n'));
        runIds.push(report.run.id);
        // What a run creates is its own, whatever the seed: named after its run id, never the seed's.
        const created = report.created_identifiers.external_account_numbers;
        expect(created.length).toBeGreaterThan(0);
        expect(created.every((e) => e.startsWith(`cf-${report.run.id}-`))).toBe(true);
      }
      expect(lists[1]).toBe(lists[0]);
      expect(lists[2]).toBe(lists[0]);
      expect(lists[0].split('\n').length).toBeGreaterThan(100);
      expect(lists[0]).toMatch(/\tfail\t\d+(:\d+)*\n/);
      expect(new Set(runIds).size).toBe(3);
    } finally {
      await server.close();
    }
  }, 120_000);
});
