/**
 * The GitHub Action's step (app/ci/github-action.ts), run as the action runs it — node on the built
 * script, inputs and secrets in the environment, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and GITHUB_ENV
 * pointing at files — against the reference server: once with a fault that fails more MUST rules
 * than GitHub shows annotations for, once clean (the embedded server).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { embeddedSeed } from '../../app/embedded.js';
import { ReportSchema } from '../../core/report/schema.js';
import { DEFAULT_TOKEN, type ReferenceServer, startReferenceServer } from '../../reference/index.js';
import { CLI_WAIT_MS } from '../helpers/cli.js';
import { conformantReport } from '../helpers/sample-report.js';
import { fullConfig } from '../helpers/config.js';
import { type Front, startFront } from '../helpers/staging.js';
import { until } from '../helpers/until.js';

const SCRIPT = fileURLToPath(new URL('../../dist/app/ci/github-action.js', import.meta.url));
const ACTION = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8'));
/** Breaks the attr index of every validation error: 21 MUST and 4 SHOULD rules fail. */
const FAULT = 'errors.attr-one-based';

interface StepResult {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  outputText: string;
  summary: string;
  envFile: string;
  dir: string;
}

/** Reads $GITHUB_OUTPUT as the runner does: `name=value` lines and `name<<DELIMITER` blocks. */
function readOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === '') continue;
    const block = /^([^=<]+)<<(.+)$/.exec(lines[i]);
    if (block) {
      const end = lines.indexOf(block[2], i + 1);
      expect(end, `closing delimiter of ${block[1]}`).toBeGreaterThan(i);
      out[block[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else {
      const eq = lines[i].indexOf('=');
      expect(eq, `an output line: ${lines[i]}`).toBeGreaterThan(0);
      out[lines[i].slice(0, eq)] = lines[i].slice(eq + 1);
    }
  }
  return out;
}

interface RunningStep {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  /** Resolves at the step's exit (rejects, killing it, when it never exits). */
  done: Promise<StepResult>;
}

/** Starts the step in a fresh directory with the given inputs (INPUT_*) and secrets. */
function startStep(env: Record<string, string>, dir = mkdtempSync(join(tmpdir(), 'action-'))): RunningStep {
  const files = {
    GITHUB_OUTPUT: join(dir, 'output.txt'),
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    GITHUB_ENV: join(dir, 'env.txt'),
  };
  for (const file of Object.values(files)) writeFileSync(file, '');
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(CONFORMANCE_|INPUT_|GITHUB_)/.test(k)),
  );
  const child = spawn(process.execPath, [SCRIPT], { cwd: dir, env: { ...clean, NO_COLOR: '1', ...files, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<StepResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the action's step did not exit within ${CLI_WAIT_MS / 1000} s\n${stdout}\n${stderr}`));
    }, CLI_WAIT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const outputText = readFileSync(files.GITHUB_OUTPUT, 'utf8');
      resolve({
        code,
        stdout,
        stderr,
        outputText,
        outputs: readOutputs(outputText),
        summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'),
        envFile: readFileSync(files.GITHUB_ENV, 'utf8'),
        dir,
      });
    });
  });
  return { child, stdout: () => stdout, done };
}

/** Runs the step to its exit. */
const runStep = (env: Record<string, string>, dir?: string) => startStep(env, dir).done;

const lines = (text: string) => text.split('\n');
const commandLines = (stdout: string, name: string) => lines(stdout).filter((l) => l.startsWith(`::${name} `));

/** `secret` appears in none of the step's other outputs and in no file of its report directory. */
function expectNowhereElse(step: StepResult, secret: string, reportDir: string): void {
  for (const [name, text] of Object.entries({
    stderr: step.stderr,
    GITHUB_OUTPUT: step.outputText,
    GITHUB_STEP_SUMMARY: step.summary,
    GITHUB_ENV: step.envFile,
  }))
    expect(text.includes(secret), name).toBe(false);
  for (const file of readdirSync(join(step.dir, reportDir)))
    expect(readFileSync(join(step.dir, reportDir, file), 'utf8').includes(secret), file).toBe(false);
}

describe('the GitHub Action against a faulty reference server', () => {
  /** The API key, given as the api-key input: it must reach nothing the step writes. */
  const API_KEY = `key-${randomBytes(16).toString('hex')}`;
  let server: ReferenceServer;
  let step: StepResult;
  let report: ReturnType<typeof ReportSchema.parse>;

  beforeAll(async () => {
    server = await startReferenceServer({ seed: await embeddedSeed({ apiKey: API_KEY }), faults: [FAULT] });
    const dir = mkdtempSync(join(tmpdir(), 'action-'));
    writeFileSync(
      join(dir, 'conformance.config.yaml'),
      fullConfig('http://127.0.0.1:1', '  api_key: ${CONFORMANCE_API_KEY}'),
    );
    step = await runStep(
      {
        INPUT_BASE_URL: server.url,
        INPUT_CONFIG: 'conformance.config.yaml',
        INPUT_REPORT_DIR: 'reports',
        INPUT_ARGS: '--seed 4242\n--reporter "console" --reporter html',
        INPUT_API_KEY: API_KEY,
      },
      dir,
    );
    report = ReportSchema.parse(JSON.parse(readFileSync(join(dir, 'reports', 'report.json'), 'utf8')));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('exits with the run exit code and sets every output the action declares', () => {
    expect(step.code, step.stderr).toBe(1);
    expect(Object.keys(step.outputs).sort()).toEqual(Object.keys(ACTION.outputs).sort());
    expect(step.outputs.verdict).toBe('not conformant');
    expect(step.outputs['exit-code']).toBe('1');
    expect(report.summary.must_failures).toBeGreaterThan(10);
    expect(step.outputs['must-failures']).toBe(String(report.summary.must_failures));
    expect(step.outputs['report-dir']).toBe(join(step.dir, 'reports'));
    // The reporters asked for in args, and the two the action reads.
    expect(readdirSync(join(step.dir, 'reports')).sort()).toEqual(['report.html', 'report.json', 'summary.md']);
    expect(report.run.seed).toBe(4242);
  });

  it('annotates the first 10 MUST failures as errors, then the SHOULD failures as warnings', () => {
    const errors = commandLines(step.stdout, 'error');
    const warnings = commandLines(step.stdout, 'warning');
    expect(errors).toHaveLength(10);
    const should = report.rules.filter((r) => r.level === 'SHOULD' && r.verdict !== 'pass' && r.verdict !== 'skip');
    expect(should.length).toBeGreaterThan(0);
    expect(warnings).toHaveLength(Math.min(10, should.length));
    const out = lines(step.stdout);
    expect(out.indexOf(warnings[0])).toBeGreaterThan(out.indexOf(errors.at(-1)!));
    const mustFailing = report.rules.filter((r) => r.level === 'MUST' && r.verdict === 'fail').map((r) => r.id);
    expect(errors.map((l) => /^::error title=MUST failed%3A (\S+) /.exec(l)?.[1])).toEqual(mustFailing.slice(0, 10));
    // Properties escape `:` and `,` (the spec references hold commas), and nothing is left raw.
    for (const line of [...errors, ...warnings]) {
      const [, properties] = /^::\w+ (.*?)::/.exec(line)!;
      expect(properties).toMatch(/^title=[^:,]*$/);
    }
  });

  it('keeps the run inside stop-commands, and the annotations after it', () => {
    const out = lines(step.stdout);
    const stop = out.findIndex((l) => l.startsWith('::stop-commands::'));
    const token = out[stop].slice('::stop-commands::'.length);
    expect(token).toMatch(/^conformance-[0-9a-f]{32}$/);
    const resume = out.indexOf(`::${token}::`);
    expect(resume).toBeGreaterThan(stop);
    expect(out.slice(stop + 1, resume).join('\n')).toContain('Not conformant');
    expect(out.findIndex((l) => l.startsWith('::error '))).toBeGreaterThan(resume);
  });

  it('leaves the step summary with the run summary and the failures the annotations could not show, counted', () => {
    expect(step.summary).toContain(readFileSync(join(step.dir, 'reports', 'summary.md'), 'utf8'));
    const more = report.summary.must_failures - 10;
    expect(step.summary).toContain(
      `Annotations: 10 of ${report.summary.must_failures} MUST failures and ${report.summary.should_failures} of ${report.summary.should_failures} SHOULD failures shown`,
    );
    expect(step.summary).toContain(`and ${more} more MUST failures not annotated`);
  });

  it('writes the API key to nothing but the add-mask command, which comes first', () => {
    const out = lines(step.stdout);
    expect(out[0]).toBe(`::add-mask::${API_KEY}`);
    expect(out.filter((l) => l.includes(API_KEY))).toEqual([out[0]]);
    expectNowhereElse(step, API_KEY, 'reports');
  });
});

describe('the GitHub Action against the embedded reference server', () => {
  it('a clean run: exit 0, verdict conformant, no annotations, the summary written', async () => {
    // args split like a shell: a quoted glob stays one word, unexpanded.
    const step = await runStep({ INPUT_ARGS: `--rule 'notes.*' --seed 7` });
    expect(step.code, step.stderr).toBe(0);
    expect(step.outputs).toEqual({
      verdict: 'conformant',
      'exit-code': '0',
      'must-failures': '0',
      'report-dir': join(step.dir, 'conformance-report'),
    });
    expect(commandLines(step.stdout, 'error')).toEqual([]);
    expect(commandLines(step.stdout, 'warning')).toEqual([]);
    const report = ReportSchema.parse(
      JSON.parse(readFileSync(join(step.dir, 'conformance-report', 'report.json'), 'utf8')),
    );
    expect(report.run.selection.rules).toEqual(['notes.*']);
    expect(step.summary).toContain(readFileSync(join(step.dir, 'conformance-report', 'summary.md'), 'utf8'));
    expect(step.summary).not.toContain('Annotations:');
  });

  it('a run that writes no report: verdict error, and an old report.json in the directory is not read as its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'action-'));
    mkdirSync(join(dir, 'conformance-report'));
    writeFileSync(join(dir, 'conformance-report', 'report.json'), JSON.stringify(conformantReport()));
    const step = await runStep({ INPUT_ARGS: '--num-runs 0' }, dir);
    expect(step.code).toBe(2);
    expect(step.stderr).toContain('--num-runs must be between 1 and 100000');
    expect(step.outputs).toEqual({
      verdict: 'error',
      'exit-code': '2',
      'must-failures': '',
      'report-dir': join(dir, 'conformance-report'),
    });
    expect(step.summary).toContain(
      '**Conformance: no report.** The run ended with exit code 2 before writing report.json',
    );
  });
});

describe('the GitHub Action cancelled', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a SIGINT to the step reaches the run once: its reports say interrupted, the outputs are set, exit 130', async () => {
    // Every answer late: the run would take minutes, so the signal lands mid-run.
    server.store.settings.responseDelayMs = 200;
    const dir = mkdtempSync(join(tmpdir(), 'action-'));
    writeFileSync(join(dir, 'conformance.config.yaml'), fullConfig(server.url, `  token: \${CONFORMANCE_TOKEN}`));
    const step = startStep({ CONFORMANCE_TOKEN: DEFAULT_TOKEN, INPUT_ARGS: '--verbose' }, dir);
    // A rule's line as --verbose prints it when the rule ends: rules are under way.
    await until(() => /^\S+ (MUST|SHOULD|INFO) [a-z]+\./m.test(step.stdout()) || step.child.exitCode !== null);
    expect(step.child.exitCode).toBeNull();
    step.child.kill('SIGINT');
    const result = await step.done;
    expect(result.code, result.stderr).toBe(130);
    // One signal, passed on once: a second would have ended the run at once, without its reports.
    expect(result.stderr.split('stopping the run').length - 1).toBe(1);
    expect(result.outputs).toMatchObject({ verdict: 'interrupted', 'exit-code': '130' });
    expect(result.summary).toMatch(/^# ⏹️ Interrupted/m);
  });
});

describe('the GitHub Action refuses inputs it cannot run, before running', () => {
  it.each([
    ['an unclosed quote', `--rule 'notes.*`, "args: a ' quote opened at character 8 is never closed"],
    ['a token on the command line', '--token abc', 'args: --token would put the token on a command line'],
    ['an option the run does not have', '--colour', "args: Unknown option '--colour'"],
    [
      'a word that is not an option (not quoted: it may be part of a secret)',
      'merge-reports a b',
      'args: An argument is not an option of "conformance run", which takes no other arguments (its text is not shown',
    ],
    [
      'a header on the command line',
      "--header 'X-Gateway-Key: gw-9d8c7b6a'",
      "args: --header would put the header's value on a command line, where the process list shows it; give headers with the headers input",
    ],
    [
      'credentials in a --base-url on the command line',
      '--base-url https://deploy:pw-9d8c7b6a@staging.example.com',
      'args: --base-url with credentials in it (user:password@) would put them on a command line',
    ],
  ])('%s: exit 2, an error annotation, verdict error', async (_what, args, message) => {
    const step = await runStep({ INPUT_ARGS: args });
    expect(step.code).toBe(2);
    expect(step.stderr).toContain(`conformance action: ${message}`);
    const [annotation] = commandLines(step.stdout, 'error');
    expect(annotation).toContain(`::error title=conformance action%3A input::${message}`);
    expect(step.outputs.verdict).toBe('error');
    expect(step.outputs['exit-code']).toBe('2');
    expect(step.summary).toContain("The action's args input is wrong");
    expect(step.stdout).not.toContain('::stop-commands::'); // the run never started
    expect(step.stdout + step.stderr + step.summary).not.toContain('9d8c7b6a');
  });
});

describe('the GitHub Action hands headers and URL credentials to the run through the environment', () => {
  const GATEWAY_KEY = `gw-${randomBytes(12).toString('hex')}`;
  const PASSWORD = `pw-${randomBytes(12).toString('hex')}`;
  let reference: ReferenceServer;
  let gateway: Front;
  let step: StepResult;

  beforeAll(async () => {
    reference = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
    gateway = await startFront(reference.url, {
      gate: (req) => (req.headers['x-gateway-key'] === GATEWAY_KEY ? undefined : 403),
    });
    const dir = mkdtempSync(join(tmpdir(), 'action-'));
    writeFileSync(
      join(dir, 'conformance.config.yaml'),
      fullConfig('http://127.0.0.1:1', '  token: ${CONFORMANCE_TOKEN}'),
    );
    const base = new URL(gateway.url);
    base.username = 'deploy-bot';
    base.password = PASSWORD;
    step = await runStep(
      {
        CONFORMANCE_TOKEN: DEFAULT_TOKEN,
        INPUT_BASE_URL: base.href,
        INPUT_HEADERS: `X-Gateway-Key: ${GATEWAY_KEY}\nX-Team: team-blue\n`,
        INPUT_CONFIG: 'conformance.config.yaml',
        INPUT_ARGS: "--rule 'notes.*'",
      },
      dir,
    );
  });
  afterAll(async () => {
    await gateway?.close();
    await reference?.close();
  });

  it('the run reaches the target with the headers (the gateway refuses any request without its key)', () => {
    expect(step.code, step.stderr).toBe(0);
    expect(step.outputs.verdict).toBe('conformant');
    expect(gateway.seen.length).toBeGreaterThan(10);
    for (const r of gateway.seen) expect(r.headers['x-team']).toBe('team-blue');
  });

  it('masks each header value and the URL credentials before anything else is printed, and prints them nowhere else', () => {
    const out = lines(step.stdout);
    const masks = [DEFAULT_TOKEN, GATEWAY_KEY, 'team-blue', 'deploy-bot', PASSWORD].map((s) => `::add-mask::${s}`);
    expect(out.slice(0, masks.length)).toEqual(masks);
    for (const secret of [GATEWAY_KEY, PASSWORD]) {
      expect(out.filter((l) => l.includes(secret))).toEqual([`::add-mask::${secret}`]);
      expectNowhereElse(step, secret, 'conformance-report');
    }
  });
});

describe('action.yml', () => {
  const steps = ACTION.runs.steps as {
    id?: string;
    run?: string;
    uses?: string;
    shell?: string;
    env?: Record<string, string>;
  }[];

  it('is a composite action whose every input is used and every output comes from the step', () => {
    expect(ACTION.runs.using).toBe('composite');
    const text = JSON.stringify(steps);
    for (const input of Object.keys(ACTION.inputs)) expect(text, input).toContain(`inputs.${input}`);
    const run = steps.find((s) => s.id === 'run');
    expect(run?.run).toContain('dist/app/ci/github-action.js');
    for (const [name, output] of Object.entries(ACTION.outputs as Record<string, { value: string }>))
      expect(output.value).toBe(`\${{ steps.run.outputs.${name} }}`);
  });

  it('the sharded example gives the action only inputs it declares, and uploads the report directory it names', () => {
    const example = parse(readFileSync(new URL('../../examples/ci/github-actions.yml', import.meta.url), 'utf8'));
    const uses = (
      example.jobs.conformance.steps as { id?: string; uses?: string; with?: Record<string, unknown> }[]
    ).find((s) => s.uses?.includes('/data-import-conformance@'))!;
    expect(Object.keys(uses.with ?? {}).filter((k) => !(k in ACTION.inputs))).toEqual([]);
    expect(uses.with?.shard).toBe('${{ matrix.shard }}/3');
    const upload = JSON.stringify(example.jobs.conformance.steps);
    expect(upload).toContain(`steps.${uses.id}.outputs.report-dir`);
    expect(JSON.stringify(example.jobs.report.steps)).toContain('npx conformance merge-reports');
  });

  it('passes inputs to scripts only through the environment, the secrets as the CLI reads them', () => {
    for (const step of steps)
      if (step.run) {
        expect(step.run, 'no expression is pasted into a script').not.toContain('${{');
        expect(step.shell).toBe('bash');
      }
    const run = steps.find((s) => s.id === 'run')!;
    expect(run.env?.INPUT_API_KEY).toBe('${{ inputs.api-key }}');
    expect(run.env?.INPUT_TOKEN).toBe('${{ inputs.token }}');
    expect(run.env?.INPUT_HEADERS).toBe('${{ inputs.headers }}');
    expect(run.env?.INPUT_BASE_URL).toBe('${{ inputs.base-url }}');
  });
});
