// Builds dist/: tsc with tsconfig.build.json (the sources the CLI and the library entry points run),
// then the CLI's bundle of what it emitted (bundle.mjs). `npm run build` runs this file; `npm test`
// (build-and-typecheck.mjs) and `prepare` (prepare.mjs) call `build`, so the steps and what they read
// are written once.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from './bundle.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Runs tsc with `args`. `collect`: its output is returned, for a caller that prints it whole beside
 * another compiler's; otherwise it goes straight to this terminal.
 */
export function tsc(args, { collect = false } = {}) {
  return new Promise((resolve) => {
    // Resolved here, not at the top: prepare.mjs imports this file on every install, and needs the
    // compiler (a development dependency) only when it builds.
    const compiler = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const child = spawn(process.execPath, [compiler, ...args], {
      cwd: root,
      stdio: collect ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ args, code: 1, output: `${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ args, code: code ?? (signal ? 1 : 0), output }));
  });
}

/**
 * What the build reads: the folders tsconfig.build.json compiles, the compiler settings, package.json
 * and the build scripts. `prepare` rebuilds when one of them is newer than dist/.
 */
export function buildInputs() {
  const { include } = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8'));
  return [
    ...include,
    'tsconfig.json',
    'tsconfig.build.json',
    'package.json',
    'scripts/build.mjs',
    'scripts/bundle.mjs',
  ];
}

/** tsc, then the bundle; `{ code, output }` as `tsc` gives them, the bundler's error added on failure. */
export async function build({ collect = false } = {}) {
  const emitted = await tsc(['-p', 'tsconfig.build.json'], { collect });
  if (emitted.code !== 0) return emitted;
  try {
    await bundle();
    return emitted;
  } catch (error) {
    const why = `${error?.stack ?? error}\n`;
    if (!collect) process.stderr.write(why);
    return { args: ['(bundle)'], code: 1, output: `${emitted.output}${collect ? why : ''}` };
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { code } = await build();
  process.exitCode = code;
}
