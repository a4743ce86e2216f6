import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliResult, runCli, startCli, stop } from '../helpers/cli.js';
import { SERVE_LIKE_EMBEDDED, fullConfig } from '../helpers/config.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'run-'));
const verdicts = (dir: string) =>
  (
    JSON.parse(readFileSync(join(dir, 'conformance-report', 'report.json'), 'utf8')).rules as {
      id: string;
      verdict: string;
    }[]
  )
    .map((r) => `${r.id} ${r.verdict}`)
    .sort();

/**
 * The main job as a newcomer runs it (no base URL), once for the tests that read it: what it
 * printed, and its report for seed 7, which the run against a hand-started server must match.
 */
let embeddedRun: Promise<{ dir: string; res: CliResult }> | undefined;
const embedded = () =>
  (embeddedRun ??= (async () => {
    const dir = tmp();
    const res = await runCli(['--reporter', 'console', '--reporter', 'json', '--seed', '7'], { cwd: dir });
    return { dir, res };
  })());

/** A port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('conformance (the main job)', () => {
  it('with no base URL runs every rule against the embedded reference server, says so, and exits 0', async () => {
    const { dir, res } = await embedded();
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      /No base URL given: running against the embedded reference server at http:\/\/127\.0\.0\.1:\d+/,
    );
    expect(res.stdout).toMatch(/Conformant: every MUST rule was judged and none failed/);
    const report = JSON.parse(readFileSync(join(dir, 'conformance-report', 'report.json'), 'utf8'));
    expect(report.target.embedded).toBe(true);
    expect(report.summary.counts.skip).toBe(0);
    expect(report.summary.counts.fail + report.summary.counts.error).toBe(0);
  });

  it('gives the same verdicts against "conformance serve" started by hand with a config file', async () => {
    const alone = await embedded();
    expect(alone.res.code).toBe(0);
    const { child, firstLine } = await startCli(['serve', '--port', '0', '--json', ...SERVE_LIKE_EMBEDDED]);
    try {
      const info = JSON.parse(firstLine);
      const dir = tmp();
      writeFileSync(join(dir, 'staging.yaml'), fullConfig(info.url, '  api_key: ${MY_KEY}'));
      const res = await runCli(
        ['--base-url', info.url, '--config', 'staging.yaml', '--reporter', 'json', '--seed', '7'],
        { cwd: dir, env: { MY_KEY: info.api_key } },
      );
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(verdicts(dir)).toEqual(verdicts(alone.dir));
    } finally {
      await stop(child);
    }
  });

  it('exits 3 when the target is unreachable, saying so', async () => {
    const port = await closedPort();
    const res = await runCli(['--base-url', `http://127.0.0.1:${port}`, '--reporter', 'json'], {
      cwd: tmp(),
      env: { CONFORMANCE_TOKEN: 'some-token' },
    });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/unreachable \(refused\)/);
    expect(res.stderr).toMatch(/No rule ran/);
  });

  it('exits 3 when authentication fails, without printing the secret', async () => {
    const { child, firstLine } = await startCli(['serve', '--port', '0', '--json']);
    try {
      const { url } = JSON.parse(firstLine);
      const badToken = await runCli(['--base-url', url, '--reporter', 'json'], {
        cwd: tmp(),
        env: { CONFORMANCE_TOKEN: 'wrong-token-4321' },
      });
      expect(badToken.code).toBe(3);
      expect(badToken.stderr).toMatch(/refused the token/);
      expect(badToken.stdout + badToken.stderr).not.toContain('wrong-token-4321');
      const badKey = await runCli(['--base-url', url, '--reporter', 'json'], {
        cwd: tmp(),
        env: { CONFORMANCE_API_KEY: 'wrong-api-key-9876' },
      });
      expect(badKey.code).toBe(3);
      expect(badKey.stderr).toMatch(/ObtainServiceToken mutation .* without a token: errors: Invalid API key/);
      expect(badKey.stdout + badKey.stderr).not.toContain('wrong-api-key-9876');
    } finally {
      await stop(child);
    }
  });

  it('exits 1 when a MUST rule fails, and prints what failed with a replay command (--verbose)', async () => {
    const { child, firstLine } = await startCli([
      'serve',
      '--port',
      '0',
      '--json',
      '--fault',
      'migration.stage.always-201',
    ]);
    try {
      const { url, token } = JSON.parse(firstLine);
      const dir = tmp();
      writeFileSync(
        join(dir, 'conformance.config.yaml'),
        `fixtures:\n  import_suppliers: { ongoing: SUPPLIER_ONGOING }\n  operations_team: Migrations\n`,
      );
      const res = await runCli(
        [
          '--base-url',
          url,
          '--rule',
          'migration.stage.update-200',
          '--reporter',
          'console',
          '--reporter',
          'json',
          '--seed',
          '3',
          // The replay command and curl are in the report; --verbose prints them on the console too.
          '--verbose',
        ],
        { cwd: dir, env: { CONFORMANCE_TOKEN: token } },
      );
      expect(res.code).toBe(1);
      expect(res.stdout).toMatch(/✗ MUST migration\.stage\.update-200/);
      expect(res.stdout).toMatch(
        /expected 200 from POST \/v1\/data-import\/account-import-process\/create-or-update\/, got 201/,
      );
      expect(res.stdout).toContain(
        `replay: npx conformance --base-url ${url} --config conformance.config.yaml --rule migration.stage.update-200 --seed 3`,
      );
      expect(res.stdout).toMatch(/Not conformant: 1 MUST failure\./);
    } finally {
      await stop(child);
    }
  });

  it('with only a base URL and a token the run is incomplete (exit 4), not conformant; accepted skips make it complete', async () => {
    const { child, firstLine } = await startCli(['serve', '--port', '0', '--json']);
    try {
      const { url, token } = JSON.parse(firstLine);
      const bare = await runCli(['--base-url', url, '--reporter', 'console', '--reporter', 'json'], {
        cwd: tmp(),
        env: { CONFORMANCE_TOKEN: token },
      });
      expect(bare.code).toBe(4);
      expect(bare.stdout).toMatch(
        /Incomplete: no MUST rule failed, but \d+ MUST rules not judged \(skipped\): set fixtures\.import_suppliers\.ongoing/,
      );
      expect(bare.stdout).not.toMatch(/Conformant/);
      const dir = tmp();
      const accepted = await runCli(
        ['--base-url', url, '--reporter', 'json', '--allow-skip', '*', '--allow-skip', '*.**'],
        { cwd: dir, env: { CONFORMANCE_TOKEN: token } },
      );
      expect(accepted.code).toBe(0);
      const report = JSON.parse(readFileSync(join(dir, 'conformance-report', 'report.json'), 'utf8'));
      expect(report.summary.conformant).toBe(true);
      expect(report.summary.accepted_skips.length).toBe(report.summary.counts.skip);
      expect(report.summary.accepted_skips).toContain('notes.dedup.same-body-and-created-at');
    } finally {
      await stop(child);
    }
  });

  it('names a refused setup step once, with the config key that fixes it, and groups the rules it stopped', async () => {
    const { child, firstLine } = await startCli(['serve', '--port', '0', '--json']);
    try {
      const { url, token } = JSON.parse(firstLine);
      // The ongoing fixture points at a Paused supplier: every stage is refused (§2.2), legally.
      const dir = tmp();
      writeFileSync(
        join(dir, 'conformance.config.yaml'),
        `fixtures:\n  import_suppliers: { ongoing: SUPPLIER_PAUSED }\n  operations_team: Migrations\n`,
      );
      const res = await runCli(
        [
          '--base-url',
          url,
          '--rule',
          'migration.*',
          '--rule',
          'notes.*',
          '--reporter',
          'console',
          '--reporter',
          'json',
        ],
        { cwd: dir, env: { CONFORMANCE_TOKEN: token } },
      );
      expect(res.code).toBe(1);
      expect(res.stdout.match(/Setup refused: stage the canonical account/g)).toHaveLength(2); // when found, and in the summary
      expect(res.stdout).toMatch(/fix: payloads\.account or fixtures\.import_suppliers\.ongoing/);
      expect(res.stdout).not.toMatch(/^. MUST notes\./m); // no paragraph per stopped rule
      const report = JSON.parse(readFileSync(join(dir, 'conformance-report', 'report.json'), 'utf8'));
      const cause = report.causes.find((c: { id: string }) => c.id === 'setup.account');
      expect(cause.status).toBe(400);
      expect(cause.rules).toContain('notes.dedup.same-body-and-created-at');
      const stopped = report.rules.filter((r: { cause?: string }) => r.cause === 'setup.account');
      expect(
        stopped.every(
          (r: { verdict: string; transcript: unknown[] }) => r.verdict === 'error' && r.transcript.length === 0,
        ),
      ).toBe(true);
      expect(res.stdout).toMatch(new RegExp(`${stopped.length} rules \\(\\d+ MUST\\) not judged because of it`));
      expect(res.stdout).toMatch(/\d+ failed, \d+ not judged \(error\)/);
    } finally {
      await stop(child);
    }
  });

  it('exits 2 for configuration and usage errors, naming the key or flag', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'conformance.config.yaml'), 'run:\n  concurency: 4\n');
    const bad = await runCli([], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/run\.concurency: unknown key \(did you mean "concurrency"\?\)/);
    for (const [args, message] of [
      [['--bogus'], /Unknown option '--bogus'/],
      [['--concurrency', 'x'], /--concurrency must be a whole number/],
      [['--section', '99'], /Nothing matches --section 99/],
      [['--base-url', 'http://127.0.0.1:9'], /No credentials for the target/],
    ] as const) {
      const res = await runCli([...args], { cwd: tmp(), env: { CONFORMANCE_TOKEN: '', CONFORMANCE_API_KEY: '' } });
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toMatch(message);
    }
  });
});

describe('conformance list, init and help', () => {
  it('lists every rule with id, section, level and title; --json gives the same as data', async () => {
    const table = await runCli(['list']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^RULE\s+LEVEL\s+SPEC\s+TITLE/);
    expect(table.stdout).toMatch(
      /^migration\.process\.dry-run\s+MUST\s+§4\.1 §3\s+\S.*\(§4\.1 process rule 2, §3 staged → staged\)$/m,
    );
    // The SPEC column is as wide as the sections, not as the longest reference.
    expect(table.stdout.split('\n')[0].indexOf('TITLE') - table.stdout.split('\n')[0].indexOf('SPEC')).toBeLessThan(40);
    const json = JSON.parse((await runCli(['list', '--json'])).stdout);
    expect(json.length).toBe(Number(/(\d+) rules/.exec(table.stdout)![1]));
    expect(
      json
        .find((r: { id: string }) => r.id === 'limits.concurrency.429-then-retry')
        .needs.map((n: { key: string }) => n.key),
    ).toContain('fixtures.concurrency_limit');
    const filtered = JSON.parse((await runCli(['list', '--json', '--section', '5', '--level', 'should'])).stdout);
    expect(filtered.map((r: { id: string }) => r.id)).toEqual(['auth.other-schemes.refused']);
  });

  it('init writes a commented starter config that validates, and will not overwrite it without --force', async () => {
    const dir = tmp();
    const first = await runCli(['init'], { cwd: dir });
    expect(first.code).toBe(0);
    const text = readFileSync(join(dir, 'conformance.config.yaml'), 'utf8');
    expect(text).toMatch(/^# yaml-language-server: \$schema=.*schema\/conformance\.config\.schema\.json/);
    expect((await runCli(['init'], { cwd: dir })).code).toBe(2);
    expect((await runCli(['init', '--force'], { cwd: dir })).code).toBe(0);
    const listed = await runCli(['list', '--json', '--rule', 'auth.401.create-notes'], { cwd: dir });
    expect(listed.code).toBe(0); // the starter config is picked up and valid
  });

  it('prints help for every command, and the main help shows the run options', async () => {
    for (const command of ['run', 'list', 'init', 'serve']) {
      const res = await runCli([command, '--help']);
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(new RegExp(`Usage: conformance ${command === 'run' ? '\\[run\\]' : command}`));
    }
    const main = await runCli(['--help']);
    expect(main.stdout).toMatch(/Commands:[\s\S]*serve[\s\S]*--base-url URL/);
  });
});
