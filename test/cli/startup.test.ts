/**
 * What a CLI start loads: the yaml package only when a YAML text is read (core/config/yaml.ts). Most
 * runs read none, and loading it cost 25 ms of every start. A preload script reports, at exit,
 * whether any module of the package was loaded, however it was imported.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const PROBE = `process.on('exit', () => {
  const loaded = Object.keys(require('node:module')._cache).some((f) => /[\\\\/]node_modules[\\\\/]yaml[\\\\/]/.test(f));
  process.stderr.write('yaml loaded: ' + loaded + '\\n');
});`;

async function yamlLoaded(config?: string): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'startup-'));
  writeFileSync(join(dir, 'probe.cjs'), PROBE);
  if (config) writeFileSync(join(dir, 'conformance.config.yaml'), config);
  const res = await runCli(['--rule', 'auth.401.createNotes', '--reporter', 'json'], {
    cwd: dir,
    env: { NODE_OPTIONS: `--require=${join(dir, 'probe.cjs')}` },
  });
  expect(res.code, res.stderr).toBe(0);
  const said = /yaml loaded: (true|false)/.exec(res.stderr);
  expect(said, res.stderr).not.toBeNull();
  return said![1] === 'true';
}

describe('a CLI start', () => {
  it('loads the yaml package only when it reads a YAML file', async () => {
    expect(await yamlLoaded()).toBe(false);
    expect(await yamlLoaded('run:\n  seed: 3\n')).toBe(true);
  });
});
