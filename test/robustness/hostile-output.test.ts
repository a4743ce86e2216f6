/**
 * Hostile targets, what leaves the process: output a target cannot forge, flood or leak into. Each
 * case drives the built CLI against a target this file starts on 127.0.0.1 and checks the bound it
 * must hold on everything that left the process — stdout, stderr and every report file: no secret
 * in any spelling, no raw control character on the console, reports under 5 MB, the runner under
 * 500 MB resident, no internal error.
 */
import { randomBytes } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedSeed } from '../../app/embedded.js';
import { sendsCredentialsInClear } from '../../app/cli/run.js';
import { clipValue, quoteJson } from '../../core/http/bounds.js';
import { Redactor } from '../../core/http/redact.js';
import { TOO_DEEP } from '../../core/http/shared-body.js';
import { redactDeep } from '../../core/http/redact-deep.js';
import { RuleState } from '../../core/engine/context.js';
import { expect as ruleExpect } from '../../core/engine/expect.js';
import { RuleFailure } from '../../core/engine/failures.js';
import { Setup } from '../../core/engine/setup.js';
import { DEFAULT_TOKEN, startReferenceServer, type ReferenceServer } from '../../reference/index.js';
import { ConsoleReporter } from '../../reports/console.js';
import { writeReports } from '../../reports/index.js';
import { runCli } from '../helpers/cli.js';
import { type HostileRun, RAW_CONTROL, runHostile, spellings } from '../helpers/hostile-run.js';
import { listen } from '../helpers/listen.js';
import { type Upstream, startProxy } from '../helpers/proxy.js';
import { sampleReport } from '../helpers/sample-report.js';

const MB = 1024 * 1024;
/** Terminal control a target would like the console to act on, and a line it would like to forge. */
const FORGED = 'FORGED: all rules passed, conformant';
const HOSTILE_TEXT = `\u001b]0;pwned title\u0007\u001b[2J\u001b[H\u001b]8;;https://evil.example/\u0007click\u001b]8;;\u0007\u001b]52;c;cm0gLXJmIH4=\u0007\u009b31m\r\n${FORGED}\n`;

const escapedJson = (s: string) =>
  [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join('');

const bodyOf = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

function everythingLeftTheProcess(run: HostileRun): { name: string; text: string }[] {
  return [{ name: 'stdout', text: run.stdout }, { name: 'stderr', text: run.stderr }, ...run.files];
}

function expectNoSecret(run: HostileRun, secrets: string[]): void {
  for (const secret of secrets)
    for (const spelling of spellings(secret))
      for (const out of everythingLeftTheProcess(run))
        expect(out.text.includes(spelling), `${out.name} holds ${spelling} (a spelling of ${secret})`).toBe(false);
}

function expectNoTerminalControl(run: HostileRun): void {
  for (const [name, text] of [
    ['stdout', run.stdout],
    ['stderr', run.stderr],
  ] as const) {
    const at = text.search(RAW_CONTROL);
    expect(
      at,
      `${name} has a raw control character: ${JSON.stringify(text.slice(Math.max(0, at - 60), at + 20))}`,
    ).toBe(-1);
    expect(
      text.split('\n').some((line) => line.startsWith('FORGED')),
      `${name} has a line the target wrote`,
    ).toBe(false);
  }
}

/** The runner's peak resident memory the issue asks for, whatever the target answers. */
const RSS_BOUND_MIB = 500;

function expectBounded(run: HostileRun): void {
  const total = run.files.reduce((n, f) => n + f.bytes, 0);
  expect(total, `reports: ${run.files.map((f) => `${f.name} ${f.bytes}`).join(', ')}`).toBeLessThan(5 * MB);
  expect(run.stdout.length + run.stderr.length, 'console output').toBeLessThan(1 * MB);
  expect(run.maxRssMiB, 'peak resident memory of the runner (MiB)').toBeLessThan(RSS_BOUND_MIB);
  for (const out of everythingLeftTheProcess(run)) {
    const internal = out.text.split('\n').find((line) => /internal error|RangeError|Maximum call stack/.test(line));
    expect(internal, `${out.name}: ${internal?.slice(0, 600)}`).toBeUndefined();
  }
}

describe('a target that reflects the credentials and writes terminal control', () => {
  const token = `tok/Secret+${randomBytes(8).toString('hex')}`;
  const gateway = `gw-${randomBytes(8).toString('hex')}`;
  let target: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    let n = 0;
    target = await listen(async (req: IncomingMessage, res: ServerResponse) => {
      await bodyOf(req);
      const auth = String(req.headers.authorization ?? '');
      const key = String(req.headers['x-gateway-key'] ?? '');
      const path = req.url ?? '';
      const json = (status: number, text: string) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(text);
      if (req.method === 'GET' && path.includes('conformance-preflight')) return json(200, '{}');
      // The setup chain's first stage: the token and the Authorization header as attr and code.
      if (path.includes('/account-import-process/create-or-update/') && n++ % 2 === 0)
        return json(
          400,
          JSON.stringify({
            errors: [
              { attr: token, code: auth },
              { attr: key, code: HOSTILE_TEXT },
            ],
          }),
        );
      if (n++ % 3 === 0)
        return res
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(`${HOSTILE_TEXT} ${token} ${auth} ${encodeURIComponent(key)}`);
      // JSON whose strings are \u-escaped: a reader that parses and re-serialises decodes them.
      const escaped = `{"echo":"${escapedJson(token)}","key":"${escapedJson(key)}","status":"${escapedJson(HOSTILE_TEXT)}","errors":[{"attr":"${escapedJson(auth)}","code":"${escapedJson(HOSTILE_TEXT)}"}],"b64":"${Buffer.from(token).toString('base64')}","url":"${encodeURIComponent(token)}"}`;
      return json(n % 2 ? 400 : 200, escaped);
    });
  });
  afterAll(() => target?.close());

  it('keeps the token and header values out of the live setup cause, the console and every report, in every spelling', async () => {
    const run = await runHostile(target.url, `  token: ${JSON.stringify(token)}`, [
      '--header',
      `X-Gateway-Key: ${gateway}`,
      '--num-runs',
      '3',
      '--verbose',
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/Setup refused: stage the canonical account/);
    expect(run.files.map((f) => f.name).sort()).toEqual([
      'ctrf.json',
      'junit.xml',
      'report.html',
      'report.json',
      'summary.md',
    ]);
    expectNoSecret(run, [token, gateway, `Token ${token}`]);
    expectNoTerminalControl(run);
    expectBounded(run);
  }, 300_000);
});

describe('a GraphQL endpoint answering 200k errors with terminal control in their messages', () => {
  const apiKey = `ak-${randomBytes(10).toString('hex')}`;
  let target: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    const errors = Array.from({ length: 200_000 }, (_, i) => ({
      message:
        i % 1000 === 1
          ? `${HOSTILE_TEXT}${apiKey}`
          : i % 1000 === 2
            ? `bad key ${escapedJson(apiKey)}`
            : i % 1000 === 3
              ? `bad key ${apiKey}`
              : `e${i}`,
    }));
    const body = JSON.stringify({ data: null, errors });
    expect(body.length).toBeLessThan(16 * MB); // under the runner's answer cap: it reads them all
    target = await listen(async (req, res) => {
      await bodyOf(req);
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  });
  afterAll(() => target?.close());

  it('says a few of them, bounded and escaped, and exits 3', async () => {
    const run = await runHostile(target.url, `  api_key: ${apiKey}`, []);
    expect(run.code, run.stderr.slice(0, 2000)).toBe(3);
    expect(run.stderr).toMatch(/and 199995 more errors/);
    expect(run.stderr.length).toBeLessThan(16 * 1024);
    expectNoSecret(run, [apiKey]);
    expectNoTerminalControl(run);
    expectBounded(run);
  }, 120_000);
});

describe('big and deep answers', () => {
  let reference: ReferenceServer;
  beforeAll(async () => {
    reference = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
  });
  afterAll(() => reference?.close());

  /** `extra` spliced into the upstream JSON object as more fields (or the whole body when it is not one). */
  const spliced = (up: Upstream, extra: string): Upstream => {
    const body = up.body.trim();
    const merged =
      body.startsWith('{') && body.endsWith('}')
        ? `${body.slice(0, -1)}${body === '{}' ? '' : ','}${extra}}`
        : `{${extra}}`;
    return { ...up, headers: { ...up.headers, 'content-type': 'application/json' }, body: merged };
  };

  async function againstProxy(change: (n: number, up: Upstream) => Upstream, args: string[]) {
    let n = 0;
    const proxy = await startProxy(reference.url, async (req, forward) => {
      if (req.path.includes('/_operator/')) return undefined;
      return change(++n, await forward());
    });
    try {
      return await runHostile(proxy.url, '  token: ${T}', ['--num-runs', '5', ...args], { env: { T: DEFAULT_TOKEN } });
    } finally {
      await proxy.close();
    }
  }

  it('15 MiB of small keys in every 40th answer, over half the rules: reports under 5 MB, the runner bounded', async () => {
    const keys: string[] = [];
    let size = 0;
    for (let i = 0; size < 15 * MB; i++) {
      const entry = `"k${i}":${i % 10}`;
      keys.push(entry);
      size += entry.length + 1;
    }
    const big = keys.join(',');
    // Half the rules (a shard mixes every family): each large answer costs the runner some 0.7 s of
    // parsing and collecting, and what this bounds is how many are held at once, which depends on
    // how densely they come (every 40th), not on how many come in all (about 22 here, 45 in a whole run).
    const run = await againstProxy((n, up) => (n % 40 === 0 ? spliced(up, big) : up), ['--shard', '1/2']);
    expect([0, 1, 4]).toContain(run.code);
    // The runner reads large answers within a budget, parses each for the history and reuses that
    // value in the rule while it is alive, keeps a parsed one only weakly once a rule has moved on,
    // collects before reading the next, and starts no rule while a running one holds one: 306-317 MiB
    // over three runs of this case on the 2-core machine, quiet, and 304-437 over three of a whole run.
    expectBounded(run);
    const report = JSON.parse(run.files.find((f) => f.name === 'report.json')!.text);
    expect(report.http.requests).toBeGreaterThan(400);
  }, 400_000);

  it('100k-deep JSON in every third answer: not parsed past MAX_JSON_DEPTH, the rules reading it not judged, never an internal error', async () => {
    const deep = `"deep":${'['.repeat(100_000)}${']'.repeat(100_000)},"deeper":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const run = await againstProxy((n, up) => (n % 3 === 0 ? spliced(up, deep) : up), []);
    expect([0, 1, 4]).toContain(run.code);
    expectBounded(run);
    // Each such answer parsed cost the runner some 20 ms and a collection (a run took a minute): it
    // is an exchange error instead, saying why, and never a failure of the rule that read it.
    const report = JSON.parse(run.files.find((f) => f.name === 'report.json')!.text) as {
      rules: { verdict: string; reason?: string }[];
    };
    const notRead = report.rules.filter((r) => r.reason?.includes(TOO_DEEP));
    expect(notRead.length).toBeGreaterThan(0);
    expect(notRead.every((r) => r.verdict === 'error')).toBe(true);
  }, 400_000);
});

describe('what the console prints of a target', () => {
  const capture = () => {
    let text = '';
    const stream = new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    });
    return { stream, text: () => text };
  };

  it('shows control characters of a setup cause as text, keeps its own colours, and redacts', () => {
    const out = capture();
    const redactor = new Redactor(['sekret-token-1']);
    const reporter = new ConsoleReporter({
      stream: out.stream,
      env: { FORCE_COLOR: '1' },
      redact: (t) => redactor.text(t),
      // The cause in full: the one-line form cuts the answer before the forged line.
      verbose: true,
    });
    const setup = new Setup();
    setup.refuse('account', {
      answer: `POST /x answered 400: ${HOSTILE_TEXT} sekret-token-1 \\u0073\\u0065kret-token-1`,
      fix: ['payloads.account'],
      hint: 'set payloads.account',
    });
    reporter.onEvent({ type: 'setup', setup });
    const text = out.text();
    expect(text).toMatch(/Setup refused/);
    expect(text).toContain('\u001b[33m'); // chalk's yellow is kept
    expect(text.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(RAW_CONTROL);
    expect(text).toContain('\\x1b]0;pwned title\\x07');
    expect(text).toContain(`\\r\\n${FORGED}\\n`);
    expect(text).not.toMatch(/sekret|\\u0073\\u0065kret/);
  });
});

describe('bounds on what a rule quotes and keeps', () => {
  it('a 15 MiB actual value is quoted in 2 KB with its size said', () => {
    const huge = Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, i]));
    let failure: RuleFailure | undefined;
    try {
      ruleExpect.equal(huge, { ok: true }, 'the body');
    } catch (error) {
      failure = error as RuleFailure;
    }
    expect(failure).toBeInstanceOf(RuleFailure);
    expect(failure!.detail.message.length).toBeLessThan(1024);
    expect(JSON.stringify(failure!.detail.actual).length).toBeLessThan(3 * 1024);
    // Cut with its size said, or clipped with what was left out counted.
    expect(JSON.stringify(failure!.detail.actual)).toMatch(/… \(\d+ bytes\)"$|and 199800 more keys/);
  });

  it('observations are capped in number and size', () => {
    const state = new RuleState();
    for (let i = 0; i < 10_000; i++) state.observe(`extra field ${'x'.repeat(10_000)} ${i}`);
    expect(state.observations.length).toBeLessThanOrEqual(51);
    expect(state.observations.join('').length).toBeLessThan(51 * 2.2 * 1024);
    expect(state.observations.at(-1)).toMatch(/and 9950 more observations/);
  });

  it('a 100k-deep value is clipped with a marker by the redaction walk and by quoting', () => {
    let deep: unknown = 'tok-deep-secret';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const redacted = redactDeep({ actual: deep, n: 1n }, new Redactor(['tok-deep-secret']));
    expect(JSON.stringify(redacted, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).toMatch(
      /clipped: nested deeper than 64 levels/,
    );
    expect(quoteJson(deep)).toMatch(/clipped/);
    expect(JSON.stringify(clipValue(deep)).length).toBeLessThan(1024);
  });
});

describe('the redactor', () => {
  const secret = 'tok/Secret+5555';
  const r = new Redactor([secret]);
  const u = (s: string, upper = false) =>
    [...s]
      .map((c) => {
        const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
        return `\\u${upper ? hex.toUpperCase() : hex}`;
      })
      .join('');
  it.each([
    ['raw', secret],
    ['\\u-escaped', u(secret)],
    ['\\u-escaped, upper case', u(secret, true)],
    ['\\u-escaped, then quoted again as JSON', JSON.stringify(u(secret)).slice(1, -1)],
    ['half escaped', `tok/${u('Secret')}+5555`],
    ['URL-encoded', encodeURIComponent(secret)],
    [
      'URL-encoded, lower case',
      encodeURIComponent(secret)
        .toLowerCase()
        .replace(/secret/, 'Secret'),
    ],
    ['JSON-escaped slash', 'tok\\/Secret+5555'],
    ['base64', Buffer.from(`Token ${secret}`).toString('base64')],
  ])('catches the secret %s', (_name, spelling) => {
    expect(r.text(`before ${spelling} after`)).not.toContain(spelling);
    expect(r.leaks(spelling)).toBe(true);
  });
});

describe('report writes', () => {
  it('replace a symlink at the destination, never follow it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'safe-writes-'));
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    const reports = join(dir, 'conformance-report');
    mkdirSync(reports);
    symlinkSync(victim, join(reports, 'report.json'));
    symlinkSync(victim, join(reports, 'summary.md'));
    await writeReports(sampleReport(), reports, ['json', 'markdown'], {});
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(join(reports, 'report.json')).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')).schema_version).toBeDefined();
    expect(readdirSync(reports).sort()).toEqual(['report.json', 'summary.md']);
    expect(() => readlinkSync(join(reports, 'summary.md'))).toThrow();
  });
});

describe('credentials over plain http', () => {
  it.each([
    ['http://192.0.2.10:8080', '192.0.2.10:8080'],
    ['http://staging.example.com', 'staging.example.com'],
    ['http://127.0.0.1:9', undefined],
    ['http://localhost:9', undefined],
    ['http://[::1]:9', undefined],
    ['https://staging.example.com', undefined],
  ])('%s with a token: %s', (url, warned) => {
    expect(sendsCredentialsInClear(url, { auth: { token: 'abcd' } })).toBe(warned);
  });

  it('without credentials nothing is said', () => {
    expect(sendsCredentialsInClear('http://192.0.2.10', { auth: {} })).toBeUndefined();
  });

  it('the CLI warns once on stderr for a non-loopback host, not for loopback', async () => {
    const env = { CONFORMANCE_TOKEN: 'tok-warn-1234', HTTP_PROXY: '', HTTPS_PROXY: '', NO_PROXY: '' };
    const args = ['--timeout', '300', '--reporter', 'console'];
    const far = await runCli(['--base-url', 'http://192.0.2.10:9', ...args], { env, timeoutMs: 60_000 });
    expect(far.stderr.match(/in clear \(plain http:\/\/\)/g)).toHaveLength(1);
    expect(far.stderr).not.toContain('tok-warn-1234');
    const near = await runCli(['--base-url', 'http://127.0.0.1:9', ...args], { env, timeoutMs: 60_000 });
    expect(near.stderr).not.toMatch(/in clear/);
  }, 120_000);
});
