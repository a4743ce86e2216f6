/**
 * What a CLI start loads. The bin is the bundle (scripts/bundle.mjs): no dependency is loaded from
 * node_modules module by module, which cost about half a millisecond each. The yaml package is loaded
 * only when a YAML text is read (core/config/yaml.ts): most runs read none, and loading it cost 25 ms
 * of every start. A preload script reports, at exit, which modules of node_modules were loaded through
 * require, however they were imported.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI, runCli } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const PROBE = `process.on('exit', () => {
  const files = Object.keys(require('node:module')._cache).filter((f) => /[\\\\/]node_modules[\\\\/]/.test(f));
  const loaded = files.some((f) => /[\\\\/]node_modules[\\\\/]yaml[\\\\/]/.test(f));
  process.stderr.write('yaml loaded: ' + loaded + '\\n');
  process.stderr.write('required from node_modules: ' + files.length + '\\n');
});`;

async function startWith(config?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'startup-'));
  writeFileSync(join(dir, 'probe.cjs'), PROBE);
  if (config) writeFileSync(join(dir, 'conformance.config.yaml'), config);
  const res = await runCli(['--rule', 'auth.401.create-notes', '--reporter', 'json'], {
    cwd: dir,
    env: { NODE_OPTIONS: `--require=${join(dir, 'probe.cjs')}` },
  });
  expect(res.code, res.stderr).toBe(0);
  return res.stderr;
}

async function yamlLoaded(config?: string): Promise<boolean> {
  const stderr = await startWith(config);
  const said = /yaml loaded: (true|false)/.exec(stderr);
  expect(said, stderr).not.toBeNull();
  return said![1] === 'true';
}

describe('a CLI start', () => {
  it("is the bundle: package.json's bin, run as a program, requiring nothing from node_modules", async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(join(ROOT, pkg.bin.conformance)).toBe(CLI);
    expect(execFileSync(CLI, ['--version'], { encoding: 'utf8' }).trim()).toBe(pkg.version);
    // undici, graphql and fast-check are CommonJS: unbundled, a run required some 250 of their modules.
    const stderr = await startWith();
    expect(/required from node_modules: (\d+)/.exec(stderr)?.[1], stderr).toBe('0');
  });

  it('loads the yaml package only when it reads a YAML file', async () => {
    expect(await yamlLoaded()).toBe(false);
    expect(await yamlLoaded('run:\n  seed: 3\n')).toBe(true);
  });
});
