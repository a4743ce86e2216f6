/**
 * The CLI's bundle when the bundler cannot load (scripts/bundle.mjs): its native binding is an
 * optional dependency, so an install with --omit=optional (the GitHub Action's) has none. The bin
 * must still run, module by module, and say why once.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

/** A resolve hook that fails `rolldown` as a missing native binding does. */
const NO_BUNDLER = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(
  "export async function resolve(s, c, next) { if (s === 'rolldown') throw new Error('Cannot find native binding. (test)'); return next(s, c); }"
));`)}`;

describe('without the bundler', () => {
  it('writes a bin that runs the CLI module by module, and says so', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'bundle-')), 'cli');
    const script = `import { bundle } from ${JSON.stringify(pathToFileURL(join(ROOT, 'scripts', 'bundle.mjs')).href)}; await bundle(${JSON.stringify(out)});`;
    const built = spawnSync(process.execPath, ['--import', NO_BUNDLER, '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(built.status, built.stderr).toBe(0);
    expect(built.stderr).toMatch(/The CLI is not bundled: the bundler did not load \(Cannot find native binding\)/);
    const bin = join(out, 'main.js');
    expect(statSync(bin).mode & 0o111).not.toBe(0);
    expect(execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()).toBe(VERSION);
  });
});
