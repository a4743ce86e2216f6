/**
 * No credential in any report file or on the console, whatever the target echoes back. The target
 * here is the reference server behind a proxy that copies the Authorization header into every
 * answer: into `errors[].attr` and `detail` of 400 bodies, into extra body fields, into response
 * headers, and base64-encoded (as `Basic`-style echoes do). Once with a static token, once with an
 * API key exchanged for a token that only the run knows.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../reference/index.js';
import { embeddedSeed } from '../../app/embedded.js';
import { runCli } from '../helpers/cli.js';
import { fullConfig } from '../helpers/config.js';
import { type Proxy as TestProxy, startProxy } from '../helpers/proxy.js';

const STATIC_TOKEN = `st-${randomBytes(12).toString('hex')}`;
const API_KEY = `ak-${randomBytes(12).toString('hex')}`;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

let reference: ReferenceServer;
let echo: TestProxy;
beforeAll(async () => {
  reference = await startReferenceServer({ seed: await embeddedSeed({ token: STATIC_TOKEN, apiKey: API_KEY }) });
  echo = await startProxy(reference.url, async (req, forward) => {
    const up = await forward();
    const auth = String(req.headers.authorization ?? '');
    if (!auth) return up;
    const token = auth.replace(/^Token /, '');
    const headers = {
      ...up.headers,
      'x-echo-auth': auth,
      'x-echo-b64': b64(auth),
      'x-echo-token-b64url': b64url(token),
    };
    let body = up.body;
    try {
      const parsed = JSON.parse(up.body);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        if (Array.isArray(parsed.errors) && parsed.errors.length) {
          parsed.errors[0].attr = auth;
          parsed.errors.push({ attr: `x.${b64(auth)}`, code: 'echo', detail: `seen ${token} / ${b64(token)}` });
        }
        parsed.echo = token;
        parsed.echo_b64 = b64(`user:${token}`);
        body = JSON.stringify(parsed);
      }
    } catch {
      body = `${up.body} ${token}`;
    }
    return { ...up, headers, body };
  });
});
afterAll(async () => {
  await echo?.close();
  await reference?.close();
});

/** Every spelling a leak could take. */
function spellings(secret: string): string[] {
  return [
    secret,
    b64(secret),
    b64url(secret),
    b64(`Token ${secret}`),
    b64(`user:${secret}`),
    encodeURIComponent(secret),
  ];
}

async function runEchoed(auth: string) {
  const dir = mkdtempSync(join(tmpdir(), 'secrets-'));
  writeFileSync(join(dir, 'conformance.config.yaml'), fullConfig(echo.url, auth));
  const res = await runCli(
    ['--section', '4.1', '--section', '4.2', '--section', '7', '--concurrency', '8', '--verbose'],
    { cwd: dir, timeoutMs: 120_000 },
  );
  const reportDir = join(dir, 'conformance-report');
  const files = readdirSync(reportDir).map((f) => ({ name: f, text: readFileSync(join(reportDir, f), 'utf8') }));
  return { res, files };
}

function expectNoLeak(run: Awaited<ReturnType<typeof runEchoed>>, secrets: string[]) {
  const outputs = [...run.files, { name: 'stdout', text: run.res.stdout }, { name: 'stderr', text: run.res.stderr }];
  expect(run.files.map((f) => f.name).sort()).toEqual([
    'ctrf.json',
    'junit.xml',
    'report.html',
    'report.json',
    'summary.md',
  ]);
  for (const secret of secrets) {
    for (const spelling of spellings(secret)) {
      for (const out of outputs)
        expect(
          out.text.includes(spelling),
          `${out.name} holds ${spelling === secret ? 'the secret' : 'a spelling of it'}`,
        ).toBe(false);
    }
  }
  // The echo did happen, and what it carried is shown redacted: the suite saw it and failed rules on it.
  const report = JSON.parse(run.files.find((f) => f.name === 'report.json')!.text);
  const exchanges = report.rules.flatMap(
    (r: { transcript: { response?: { headers: Record<string, string>; body?: string } }[] }) => r.transcript,
  );
  expect(
    exchanges.some(
      (x: { response?: { headers: Record<string, string> } }) => x.response?.headers['x-echo-auth'] === 'Token ***',
    ),
  ).toBe(true);
  expect(
    report.rules.some(
      (r: { verdict: string; failure?: { actual?: unknown } }) =>
        r.verdict === 'fail' && JSON.stringify(r.failure?.actual ?? '').includes('***'),
    ),
  ).toBe(true);
  expect(run.res.stdout).toMatch(/✗/);
}

describe('no credential in any report or on the console', () => {
  it('with a static token echoed by the target in attr, body, headers and base64', async () => {
    const run = await runEchoed(`  token: ${STATIC_TOKEN}`);
    expect(run.res.code, run.res.stderr).toBe(1);
    expectNoLeak(run, [STATIC_TOKEN]);
  }, 150_000);

  it('with a token obtained through the API key, which only the run knows', async () => {
    const before = new Set(reference.store.tokens.keys());
    const run = await runEchoed(`  api_key: ${API_KEY}`);
    expect(run.res.code, run.res.stderr).toBe(1);
    const obtained = [...reference.store.tokens.keys()].filter((t) => !before.has(t));
    expect(obtained.length).toBeGreaterThan(0);
    expectNoLeak(run, [API_KEY, ...obtained]);
  }, 150_000);
});
