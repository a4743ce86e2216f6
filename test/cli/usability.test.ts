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
    const next = await runCli(['init', '--out', 'conformance.local.yaml'], { cwd: dir });
    expect(next.stderr).toMatch(/--out conformance\.local-2\.yaml/);
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
