/**
 * A run cut by SIGINT or SIGTERM ends cleanly: every report written and marked interrupted (exit
 * code 130, never "Conformant"), the HAR a whole document; a second signal exits at once, leaving
 * only whole files. And `--har` onto a symlink replaces the link, never writes through it.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../app/conformance.js';
import { EXIT } from '../../core/engine/verdict.js';
import { mergeReports } from '../../core/report/merge.js';
import { runVerdict } from '../../core/report/verdict-line.js';
import { DEFAULT_TOKEN, type ReferenceServer, startReferenceServer } from '../../reference/index.js';
import { CLI } from '../helpers/cli.js';
import { conformantReport } from '../helpers/sample-report.js';
import { fullConfig } from '../helpers/config.js';
import { until } from '../helpers/until.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(async () => {
  await server?.close();
});

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'interrupt-'));
  writeFileSync(join(dir, 'conformance.config.yaml'), fullConfig(server.url, `  token: ${DEFAULT_TOKEN}`));
  return dir;
}

interface Child {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function start(args: string[], cwd: string): Child {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** A rule's line as --verbose prints it when the rule ends: its mark, level and id. */
const RULE_LINE = /^\S+ (MUST|SHOULD|INFO) [a-z]+\./m;

/** Starts a run against the slowed server and waits until a rule has ended (so rules are under way). */
async function runUnderWay(dir: string): Promise<Child> {
  // Every answer late: the full run would take minutes, so the signal lands mid-run.
  server.store.settings.responseDelayMs = 200;
  const run = start(['--har', 'run.har', '--verbose'], dir);
  await until(() => RULE_LINE.test(run.stdout()) || run.child.exitCode !== null);
  expect(run.child.exitCode).toBeNull();
  return run;
}

const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

describe.each(['SIGINT', 'SIGTERM'] as const)('%s during a run', (signal) => {
  it('ends the run: every report written and marked interrupted, a valid HAR, exit code 130', async () => {
    const dir = workspace();
    const run = await runUnderWay(dir);
    run.child.kill(signal);
    const code = await run.exited;
    expect(code, run.stderr()).toBe(EXIT.INTERRUPTED);
    expect(run.stderr()).toContain(`conformance: ${signal}: stopping the run`);

    const report = JSON.parse(read(dir, 'conformance-report/report.json'));
    expect(report.interrupted).toMatchObject({ signal, reason: `the run was interrupted (${signal})` });
    expect(report.interrupted.not_judged).toBeGreaterThan(0);
    expect(report.summary).toMatchObject({ exit_code: EXIT.INTERRUPTED, conformant: false, incomplete: false });
    const cut = report.rules.filter((r: { error_kind?: string }) => r.error_kind === 'interrupted');
    expect(cut).toHaveLength(report.interrupted.not_judged);
    for (const rule of cut)
      expect(rule.reason).toMatch(
        new RegExp(`^not judged: the run was interrupted \\(${signal}\\) before the rule (started|finished)$`),
      );
    expect(report.rules.length - cut.length).toBeGreaterThan(0); // some rules ran before the signal

    expect(read(dir, 'conformance-report/summary.md')).toMatch(/^# ⏹️ Interrupted: the run was interrupted/m);
    const junit = read(dir, 'conformance-report/junit.xml');
    expect(junit).toContain('type="interrupted"');
    expect(junit).toContain(`the run was interrupted (${signal})`);

    const har = JSON.parse(read(dir, 'run.har'));
    expect(har.log.entries.length).toBeGreaterThan(0);
    expect(har.log.entries.length).toBeLessThanOrEqual(report.http.requests + 1);
    expect(run.stdout()).toContain(`HAR: run.har (${har.log.entries.length} exchanges)`);

    expect(run.stdout()).toMatch(/^Interrupted: the run was interrupted/m);
    expect(run.stdout()).not.toMatch(/^Conformant/m);
  });
});

describe('a second signal', () => {
  it('exits at once with the interrupted exit code, and every file left behind is whole', async () => {
    const dir = workspace();
    const run = await runUnderWay(dir);
    run.child.kill('SIGINT');
    await until(() => run.stderr().includes('stopping the run') || run.child.exitCode !== null);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(EXIT.INTERRUPTED);

    // The HAR is a whole document whenever the process ends; a report is there whole or not at all.
    expect(JSON.parse(read(dir, 'run.har')).log.version).toBe('1.2');
    const reports = join(dir, 'conformance-report');
    const files = existsSync(reports) ? readdirSync(reports) : [];
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    for (const file of files.filter((f) => f.endsWith('.json'))) JSON.parse(read(reports, file));
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('--har onto a symlink', () => {
  it('replaces the link with the HAR file and leaves what it pointed at untouched', async () => {
    server.store.settings.responseDelayMs = 0;
    const dir = workspace();
    const elsewhere = join(mkdtempSync(join(tmpdir(), 'interrupt-target-')), 'precious.txt');
    writeFileSync(elsewhere, 'not a HAR\n');
    symlinkSync(elsewhere, join(dir, 'run.har'));
    expect(readlinkSync(join(dir, 'run.har'))).toBe(elsewhere);

    const run = start(['--har', 'run.har', '--reporter', 'json', '--rule', 'status.*'], dir);
    expect(await run.exited, run.stderr()).toBe(EXIT.OK);
    expect(lstatSync(join(dir, 'run.har')).isFile()).toBe(true);
    expect(readFileSync(elsewhere, 'utf8')).toBe('not a HAR\n');
    const report = JSON.parse(read(dir, 'conformance-report/report.json'));
    expect(JSON.parse(read(dir, 'run.har')).log.entries).toHaveLength(report.http.requests);
  });
});

describe('RunOptions.interrupt (the library)', () => {
  it('a run interrupted before its rules judges none, says so, and an interrupted shard leaves the merged run interrupted', async () => {
    server.store.settings.responseDelayMs = 0;
    const controller = new AbortController();
    const report = await runConformance({
      baseUrl: server.url,
      auth: { token: DEFAULT_TOKEN },
      selection: { rules: ['status.*'] },
      interrupt: controller.signal,
      onEvent: (event) => {
        if (event.type === 'start') controller.abort('SIGTERM');
      },
    });
    expect(report.interrupted).toEqual({
      signal: 'SIGTERM',
      reason: 'the run was interrupted (SIGTERM)',
      not_judged: report.rules.length,
    });
    for (const rule of report.rules)
      expect(rule).toMatchObject({
        verdict: 'error',
        error_kind: 'interrupted',
        reason: 'not judged: the run was interrupted (SIGTERM) before the rule started',
      });
    expect(report.summary.exit_code).toBe(EXIT.INTERRUPTED);
    expect(runVerdict(report)).toMatchObject({ state: 'interrupted', title: 'Interrupted' });

    // The other shard conformant, with rules of its own.
    const other = conformantReport();
    const shard = { ...other, rules: other.rules.filter((r) => !report.rules.some((i) => i.id === r.id)) };
    const merged = mergeReports([
      { file: 'a/report.json', report: shard },
      { file: 'b/report.json', report: { ...report, target: conformantReport().target } },
    ]);
    expect(merged.interrupted?.signal).toBe('SIGTERM');
    expect(merged.summary).toMatchObject({ exit_code: EXIT.INTERRUPTED, conformant: false });
  });
});
