/**
 * #44 C1: a claim made with the report directory set to a project folder that also holds the
 * configuration (an API key, a gateway header), a `.env`, a client key and more below it. The claim
 * takes only the run's report files, by name; no secret of the folder reaches it in any spelling,
 * and a file a run could not have written, slipped into a claim afterwards, is named by verify-claim.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base64Spellings } from '../../core/http/redact.js';
import { runCli } from '../helpers/cli.js';

const work = mkdtempSync(join(tmpdir(), 'claim-secrets-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SECRETS = {
  apiKey: 'sk-live-7f3c9a2e41b8',
  gateway: 'gw-51ab9d0c7e3f',
  dotenv: 'dotenv-pass-9e2d4471',
  key: 'MIIEvQIBADANBgkqhkiG9w0BAQ',
  nested: 'nested-secret-77ac31',
  stale: 'stale-report-secret-0b9f',
};

/** Every way a secret could be written out: as is, URL-encoded, JSON-escaped, hex, and inside base64. */
const spellings = (secret: string) => [
  secret,
  encodeURIComponent(secret),
  [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  Buffer.from(secret).toString('hex'),
  ...base64Spellings(secret),
];

const filesOf = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)))
    .sort();

function leaks(dir: string): string[] {
  const found: string[] = [];
  for (const file of filesOf(dir)) {
    const text = readFileSync(join(dir, file), 'latin1');
    for (const [name, secret] of Object.entries(SECRETS))
      for (const spelling of spellings(secret))
        if (text.includes(spelling)) found.push(`${file}: ${name} as ${spelling}`);
  }
  return found;
}

const CLAIM_OF_A_RUN = [
  'SHA256SUMS',
  'badge.svg',
  'config.json',
  'reports/ctrf.json',
  'reports/junit.xml',
  'reports/report.html',
  'reports/report.json',
  'reports/summary.md',
  'spec/data-import-interface.md',
  'statement.json',
  'traffic.har',
];

const project = join(work, 'project');
const claim = join(work, 'claim');

describe('a claim whose report directory is a project folder full of secrets', () => {
  beforeAll(async () => {
    mkdirSync(join(project, 'nested'), { recursive: true });
    const config = readFileSync(join(import.meta.dirname, '../../conformance.config.yaml'), 'utf8')
      .replace(/^ {2}# api_key: .*$/m, `  api_key: ${SECRETS.apiKey}`)
      .replace(/^# headers:$/m, 'headers:')
      .replace(/^# {3}X-Gateway-Key: .*$/m, `  X-Gateway-Key: ${SECRETS.gateway}`);
    expect(config).toContain(SECRETS.apiKey);
    expect(config).toContain(SECRETS.gateway);
    writeFileSync(join(project, 'conformance.config.yaml'), config);
    writeFileSync(join(project, '.env'), `DB_PASSWORD=${SECRETS.dotenv}\n`);
    writeFileSync(
      join(project, 'client-key.pem'),
      `-----BEGIN PRIVATE KEY-----\n${SECRETS.key}\n-----END PRIVATE KEY-----\n`,
    );
    writeFileSync(join(project, 'nested', 'notes.txt'), SECRETS.nested);
    // A report file another run left: the run rewrites it, or the claim must leave it out.
    writeFileSync(join(project, 'report.sarif'), JSON.stringify({ old: SECRETS.stale }));
    const run = await runCli(['--num-runs', '2', '--report-dir', '.', '--claim', claim], { cwd: project });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Claim: ${claim} — conformant`);
  });

  it('holds only the run’s own report files and the claim’s files: nothing else of the folder', () => {
    expect(filesOf(claim)).toEqual(CLAIM_OF_A_RUN);
  });

  it('carries no secret of the folder in any spelling', () => {
    expect(leaks(claim)).toEqual([]);
    // The configuration is there, its secrets replaced by a word saying so.
    const config = JSON.parse(readFileSync(join(claim, 'config.json'), 'utf8'));
    expect(config.auth.api_key).toBe('(secret: removed)');
    expect(config.headers['X-Gateway-Key']).toBe('(secret: removed)');
  });

  it('made afterwards from the folder, leaves out a report file of another run and a link at a report’s name', async () => {
    const folder = join(work, 'afterwards');
    cpSync(project, folder, { recursive: true });
    const run = await runCli(['--num-runs', '1', '--report-dir', '.', '--reporter', 'json', '--har', 'run.har'], {
      cwd: folder,
    });
    expect(run.code, run.stderr).toBe(0);
    rmSync(join(folder, 'report.html'));
    symlinkSync('client-key.pem', join(folder, 'report.html'));
    const out = join(work, 'afterwards-claim');
    const made = await runCli(['claim', '--from', '.', '--out', out], { cwd: folder });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain('report.html is not in the claim: a symbolic link, which is not followed');
    expect(made.stderr).toMatch(
      /junit\.xml is not in the claim: it does not name this run \([a-z0-9]+\): another run wrote it/,
    );
    expect(filesOf(out).filter((f) => f.startsWith('reports/'))).toEqual(['reports/report.json']);
    expect(leaks(out)).toEqual([]);
  });

  it('verify-claim names a file slipped into the claim, even listed in SHA256SUMS, and reads nothing of it', async () => {
    const forged = join(work, 'forged');
    cpSync(claim, forged, { recursive: true });
    writeFileSync(join(forged, 'reports', '.env'), `DB_PASSWORD=${SECRETS.dotenv}\n`);
    // A FIFO is never opened: reading one would hang the verifier.
    execFileSync('mkfifo', [join(forged, 'reports', 'pipe')]);
    const sums = readFileSync(join(forged, 'SHA256SUMS'), 'utf8');
    writeFileSync(join(forged, 'SHA256SUMS'), `${sums}${'0'.repeat(64)}  reports/.env\n`);
    const { code, stdout } = await runCli(['verify-claim', forged]);
    expect(code).toBe(1);
    expect(stdout).toContain('files: reports/.env is not a file a run writes into a claim');
    expect(stdout).toContain('files: reports/pipe is not a file a run writes into a claim');
    expect(stdout).not.toContain(SECRETS.dotenv);
  });
});
