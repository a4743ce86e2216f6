/** Small things a person reads: init's way out of an existing file, aligned help, uncut list columns. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRules } from '../../suites/index.js';
import { runCli } from '../helpers/cli.js';

describe('init where a config exists', () => {
  it('refuses to overwrite, names a free file name to write instead, and writes it when asked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'init-'));
    writeFileSync(join(dir, 'conformance.config.yaml'), 'base_url: https://mine.example\n');
    const refused = await runCli(['init'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--out conformance\.local\.yaml/);
    expect(refused.stderr).toMatch(/--force/);
    expect(readFileSync(join(dir, 'conformance.config.yaml'), 'utf8')).toBe('base_url: https://mine.example\n');
    const written = await runCli(['init', '--out', 'conformance.local.yaml'], { cwd: dir });
    expect(written.code).toBe(0);
    expect(readFileSync(join(dir, 'conformance.local.yaml'), 'utf8')).toMatch(/fixtures:/);
    expect(written.stdout).toMatch(/then run: npx conformance --config conformance\.local\.yaml\n$/);
    const next = await runCli(['init', '--out', 'conformance.local.yaml'], { cwd: dir });
    expect(next.stderr).toMatch(/--out conformance\.local-2\.yaml/);
  });

  it('the default file needs no --config to be found, and the follow-up says none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'init-'));
    const written = await runCli(['init'], { cwd: dir });
    expect(written.code).toBe(0);
    expect(written.stdout).toMatch(/then run: npx conformance\n$/);
  });
});

describe('--allow-skip patterns', () => {
  it('one that names no rule, configuration key or endpoint is a warning, written out safely; one that does is not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'allow-skip-'));
    const res = await runCli(
      [
        '--rule',
        'notes.404.wrong-supplier-existing',
        '--reporter',
        'json',
        '--allow-skip',
        'payment.*',
        '--allow-skip',
        'fixtures.payment_instruction',
        '--allow-skip',
        'createPaymentInstruction',
        '--allow-skip',
        'typo\u001b[2J',
      ],
      { cwd: dir },
    );
    expect(res.code).toBe(0);
    const warnings = res.stderr.split('\n').filter((l) => l.includes('--allow-skip'));
    expect(warnings).toEqual([
      "conformance: warning: --allow-skip / run.allow_skip 'payment.*' names no rule, configuration key (fixtures.*, payloads.*) or endpoint (operation id): it accepts nothing; see conformance list.",
      "conformance: warning: --allow-skip / run.allow_skip 'typo\\x1b[2J' names no rule, configuration key (fixtures.*, payloads.*) or endpoint (operation id): it accepts nothing; see conformance list.",
    ]);
  });
});

describe('help and list', () => {
  it('--help lines every command summary up in one column', async () => {
    const { stdout } = await runCli(['--help']);
    const lines = stdout.split('\n');
    const start = lines.indexOf('Commands:') + 1;
    const commands = lines.slice(start, lines.indexOf('', start));
    expect(commands.length).toBeGreaterThanOrEqual(10);
    expect(commands.some((l) => l.startsWith('  merge-reports'))).toBe(true);
    const columns = new Set(commands.map((l) => l.search(/(?<=\S {2,})\S/)));
    expect([...columns]).toHaveLength(1);
  });

  it('list prints every spec reference whole', async () => {
    const { stdout } = await runCli(['list']);
    const longest = allRules.reduce((a, r) => (r.spec.length > a.spec.length ? r : a));
    expect(longest.spec.length).toBeGreaterThan(24);
    expect(stdout.split('\n').find((l) => l.startsWith(`${longest.id} `))).toContain(longest.spec);
  });
});
