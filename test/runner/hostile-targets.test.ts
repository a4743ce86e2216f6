/**
 * The runner against hostile targets and careless configuration: an endless ObtainServiceToken
 * answer, credentials in the base URL, a report directory that cannot be written, a YAML alias
 * bomb, and a target so slow that only an overall deadline (--max-time) ends the run.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN, startReferenceServer, type ReferenceServer } from '../../reference/index.js';
import { base64Spellings, REDACTED, Redactor, withoutUrlCredentials } from '../../core/http/redact.js';
import { redactDeep } from '../../core/http/redact-deep.js';
import { runConformance } from '../../app/conformance.js';
import { embeddedFixtures, embeddedSeed } from '../../app/embedded.js';
import { parseConfig } from '../../core/config/load.js';
import { ReportSchema } from '../../core/report/schema.js';
import { CLI, runCli } from '../helpers/cli.js';
import { fullConfig } from '../helpers/config.js';
import { listen } from '../helpers/listen.js';
import { startProxy } from '../helpers/proxy.js';

const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

describe('the redactor', () => {
  it('finds a secret inside base64 of any text that contains it, at every offset, in both alphabets', () => {
    const secret = 'sEcReT-token-0123456789';
    const redactor = new Redactor([secret]);
    for (const prefix of ['', 'a', 'ab', 'Token ', 'user:', 'xyz:']) {
      for (const encoding of ['base64', 'base64url'] as const) {
        const encoded = Buffer.from(`${prefix}${secret}!`).toString(encoding);
        expect(redactor.text(`echo ${encoded} end`), `${prefix} ${encoding}`).not.toBe(`echo ${encoded} end`);
        expect(redactor.leaks(redactor.text(encoded))).toBe(false);
      }
    }
    expect(base64Spellings('abc')).toEqual([]); // too short to tell apart from ordinary text
    expect(redactor.text('nothing secret here: dG9rZW4=')).toBe('nothing secret here: dG9rZW4=');
  });

  it('hides the user information of any URL, username included', () => {
    expect(withoutUrlCredentials('https://TOKEN@host/x and ftp://u:p@h/ and a@b.c')).toBe(
      `https://${REDACTED}@host/x and ftp://${REDACTED}@h/ and a@b.c`,
    );
    expect(new Redactor().text('--base-url https://user:pw@example.com')).toBe(
      `--base-url https://${REDACTED}@example.com`,
    );
    // A URL without credentials before an e-mail address or another URL that has them.
    expect(withoutUrlCredentials('{"p":"https://h/x","e":"a@b.c","u":"s3://k:s@b/"}')).toBe(
      `{"p":"https://h/x","e":"a@b.c","u":"s3://${REDACTED}@b/"}`,
    );
  });

  it('hides URL credentials exactly as the one expression over the whole text does (its fast path skips texts it leaves alone)', async () => {
    const fc = (await import('fast-check')).default;
    const whole = (text: string) => text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@'"]+@/gi, `$1${REDACTED}@`);
    const piece = fc.constantFrom('https', 'x', '://', ':', '@', '/', ' ', '"', "'", '?', '#', 'a.b', '\u00a0', 'é');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const text = pieces.join('');
        expect(withoutUrlCredentials(text)).toBe(whole(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('redactDeep replaces secrets in every string and key of a report, and returns a clean report as is', () => {
    const redactor = new Redactor(['tok-1234567']);
    const report = {
      rules: [
        {
          failure: { actual: { errors: [{ attr: 'Token tok-1234567' }] }, expected: ['tok-1234567'] },
          observations: ['x'],
          'tok-1234567': 1,
        },
      ],
    };
    const clean = redactDeep(report, redactor);
    expect(JSON.stringify(clean)).not.toContain('tok-1234567');
    expect(clean.rules[0].failure.actual.errors[0].attr).toBe(`Token ${REDACTED}`);
    const untouched = { a: 'b' };
    expect(redactDeep(untouched, redactor)).toBe(untouched);
    // Values a property rule recorded may not be JSON: a bigint, a cycle. Still redacted, no crash.
    const odd: Record<string, unknown> = { n: 10n, s: 'x tok-1234567', url: 'https://user:pw@h/' };
    odd.self = odd;
    const redacted = redactDeep(odd, redactor);
    expect(redacted).toMatchObject({ n: 10n, s: `x ${REDACTED}`, url: `https://${REDACTED}@h/`, self: '[circular]' });
  });
});

describe('ObtainServiceToken', () => {
  it('an endless answer ends the run with a clear message, in bounded memory', async () => {
    // Streams JSON forever, as fast as the runner reads it.
    const endless = await listen((req, res) => {
      if (!req.url?.includes('graphql')) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(256 * 1024, 'a');
      res.write('{"data": "');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
      res.on('error', () => undefined);
    });
    try {
      const dir = tempDir('endless-');
      // Peak resident memory of the child, as the kernel counted it (VmHWM), read just before it exits.
      const child = spawn(
        process.execPath,
        [
          '--require',
          join(dir, 'peak.cjs'),
          CLI,
          '--base-url',
          endless.url,
          '--reporter',
          'json',
          '--timeout',
          '20000',
        ],
        {
          cwd: dir,
          env: { ...process.env, NO_COLOR: '1', CONFORMANCE_API_KEY: 'api-key-123456' },
        },
      );
      writeFileSync(
        join(dir, 'peak.cjs'),
        `process.on('exit', () => { try { const m = /VmHWM:\\s+(\\d+)/.exec(require('fs').readFileSync('/proc/self/status', 'utf8')); process.stderr.write('PEAK_KB=' + (m ? m[1] : '0') + '\\n'); } catch {} });`,
      );
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code, stderr).toBe(3);
      expect(stderr).toMatch(
        /Could not obtain a token from the ObtainServiceToken mutation at .*: the answer is larger than 16 MiB/,
      );
      const peakMb = Number(/PEAK_KB=(\d+)/.exec(stderr)?.[1]) / 1024;
      expect(peakMb).toBeGreaterThan(0);
      expect(peakMb).toBeLessThan(300);
      expect(stderr).not.toContain('api-key-123456');
    } finally {
      await endless.close();
    }
  });

  it('an answer that drips slower than the timeout ends with the timeout in words, not an error code', async () => {
    const slow = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 100);
      res.on('close', () => clearInterval(timer));
    });
    try {
      const res = await runCli(['--base-url', slow.url, '--reporter', 'json', '--timeout', '800'], {
        cwd: tempDir('drip-'),
        env: { CONFORMANCE_API_KEY: 'api-key-123456' },
      });
      expect(res.code).toBe(3);
      expect(res.stderr).toMatch(/no complete answer within 800 ms/);
      expect(res.stderr).not.toMatch(/: \d+\s*$/m);
    } finally {
      await slow.close();
    }
  });
});

describe('usage errors instead of crashes (exit 2, naming the flag or key)', () => {
  let reference: ReferenceServer;
  beforeAll(async () => {
    reference = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
  });
  afterAll(() => reference.close());

  it('a --report-dir that is a file, or under /dev/null, is refused before the run', async () => {
    const dir = tempDir('rd-');
    writeFileSync(join(dir, 'a-file'), 'x');
    for (const [args, where] of [
      [['--report-dir', 'a-file'], '--report-dir'],
      [['--report-dir', '/dev/null/reports'], '--report-dir'],
    ] as const) {
      const res = await runCli(['--base-url', reference.url, '--rule', 'status.*', ...args], {
        cwd: dir,
        env: { CONFORMANCE_TOKEN: DEFAULT_TOKEN },
      });
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(where);
      expect(res.stderr).not.toMatch(/\n\s+at /);
      expect(res.stdout).not.toMatch(/rules:/); // refused before any rule ran
    }
    writeFileSync(join(dir, 'conformance.config.yaml'), 'report:\n  dir: a-file\n');
    const fromConfig = await runCli(['--base-url', reference.url, '--rule', 'status.*'], {
      cwd: dir,
      env: { CONFORMANCE_TOKEN: DEFAULT_TOKEN },
    });
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.stderr).toContain('report.dir');
  });

  it('a YAML alias bomb in the config is exit 2 naming the problem', async () => {
    const dir = tempDir('bomb-');
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++)
      levels.push(
        `${'abcdefghi'[i]}: &${'abcdefghi'[i]} [${Array(9)
          .fill(`*${'abcdefghi'[i - 1]}`)
          .join(',')}]`,
      );
    writeFileSync(join(dir, 'conformance.config.yaml'), `${levels.join('\n')}\n`);
    const res = await runCli(['list'], { cwd: dir });
    const run = await runCli([], { cwd: dir });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/aliases/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(res.code).toBe(0); // list reads no config
    // A few aliases are fine; an alias to nothing is named as such.
    expect(parseConfig('run: &r { concurrency: 2 }\nreport: { dir: x }\n', 'c.yaml').run?.concurrency).toBe(2);
    expect(() => parseConfig('run: *nothing\n', 'c.yaml')).toThrow(/c\.yaml cannot be read: Unresolved alias/);
  });

  it('never prints credentials written into the base URL: username, password, or of a non-http URL', async () => {
    const bad = await runCli(['--base-url', 'ftp://someuser:s3cret-pass@example.com/'], { cwd: tempDir('url-') });
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toMatch(/someuser|s3cret-pass/);

    const dir = tempDir('url-');
    const url = new URL(reference.url);
    const withCredentials = `http://TOKENASUSER123:pass-word-99@${url.host}`;
    const res = await runCli(
      ['--base-url', withCredentials, '--rule', 'status.*', '--rule', 'notes.create.one-result-per-note'],
      { cwd: dir, env: { CONFORMANCE_TOKEN: DEFAULT_TOKEN } },
    );
    expect([0, 1, 4]).toContain(res.code);
    for (const text of [
      res.stdout,
      res.stderr,
      ...['report.json', 'junit.xml', 'report.html', 'summary.md', 'ctrf.json'].map((f) =>
        readFileSync(join(dir, 'conformance-report', f), 'utf8'),
      ),
    ]) {
      expect(text).not.toMatch(/TOKENASUSER123|pass-word-99/);
    }
  });

  it('--max-time and run.max_time_s must be positive numbers of seconds', async () => {
    const res = await runCli(['--max-time', 'soon'], { cwd: tempDir('mt-') });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--max-time');
    const dir = tempDir('mt-');
    writeFileSync(join(dir, 'conformance.config.yaml'), 'run:\n  max_time_s: -1\n');
    const fromConfig = await runCli([], { cwd: dir });
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.stderr).toContain('run.max_time_s');
  });
});

describe('--max-time', () => {
  it('ends a run against a target that takes seconds per request; unfinished rules are not judged, the reports are written', async () => {
    const reference = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
    // The §4.2 data endpoints never answer (the setup chain's stage, process and business do): only the
    // deadline can end the run, however busy the machine, so the test waits on the CLI's exit alone.
    const slow = await startProxy(reference.url, async (req, forward) => {
      if (
        /\/(notes|transactions|agreements|supply-points|historical-billing-documents|historical-statements|payment-instruction)\/create\/$/.test(
          req.path,
        )
      )
        return 'hang';
      return forward();
    });
    try {
      const dir = tempDir('maxtime-');
      writeFileSync(join(dir, 'conformance.config.yaml'), fullConfig(slow.url, `  token: ${DEFAULT_TOKEN}`));
      const res = await runCli(['--max-time', '5', '--timeout', '30000', '--concurrency', '4', '--section', '4.2'], {
        cwd: dir,
      });
      expect(res.code, res.stderr).toBe(1);
      for (const file of ['report.json', 'junit.xml', 'report.html', 'summary.md', 'ctrf.json'])
        expect(existsSync(join(dir, 'conformance-report', file)), file).toBe(true);
      const report = ReportSchema.parse(
        JSON.parse(readFileSync(join(dir, 'conformance-report', 'report.json'), 'utf8')),
      );
      const notJudged = report.rules.filter(
        (r) =>
          r.verdict === 'error' && /not judged: the run reached its time limit \(--max-time 5 s\)/.test(r.reason ?? ''),
      );
      expect(notJudged.length).toBeGreaterThan(report.rules.length / 2);
      // A time limit of the run's own: timed out, one cause that says the run, not the target, ran out of time.
      for (const r of notJudged) expect(r).toMatchObject({ error_kind: 'timeout', cause: 'run.max-time' });
      expect(report.causes.find((c) => c.id === 'run.max-time')).toMatchObject({
        fix: ['run.max_time_s'],
        rules: expect.arrayContaining(notJudged.map((r) => r.id)),
      });
      expect(notJudged.some((r) => /before the rule started/.test(r.reason!))).toBe(true);
      expect(notJudged.some((r) => /before the rule finished/.test(r.reason!))).toBe(true);
      expect(res.stdout).toMatch(/not judged/);
    } finally {
      await slow.close();
      await reference.close();
    }
  });

  it('bounds the setup chain too: a step still waiting at the deadline is one cause, and the run ends on time', async () => {
    const reference = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
    // The stage request never gets an answer: only the deadline can end the run, so the run returning
    // at all, with the stage seen and unanswered, shows the deadline bounded the setup chain.
    let stages = 0;
    const slow = await startProxy(reference.url, async (req, forward) => {
      if (!req.path.endsWith('/create-or-update/')) return forward();
      stages++;
      return 'hang';
    });
    try {
      const report = await runConformance({
        baseUrl: slow.url,
        auth: { token: DEFAULT_TOKEN },
        fixtures: await embeddedFixtures(),
        maxTimeMs: 3_000,
        selection: { rules: ['notes.*'] },
      });
      expect(stages, 'the stage request reached the target and was never answered').toBeGreaterThan(0);
      expect(report.causes.find((c) => c.id === 'setup.account')).toMatchObject({ fix: ['run.max_time_s'] });
      expect(report.causes.find((c) => c.id === 'setup.account')?.answer).toMatch(
        /time limit \(--max-time 3 s\) before this step was done/,
      );
      expect(report.rules.every((r) => r.verdict === 'error' || r.verdict === 'skip')).toBe(true);
    } finally {
      await slow.close();
      await reference.close();
    }
  });
});
