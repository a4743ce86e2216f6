// The first step of `npm test`: builds dist/ (tsconfig.build.json: the sources the CLI runs, then the
// CLI's bundle, scripts/bundle.mjs) and type-checks everything, tests included (tsconfig.json, no
// output), at once. Each tsc is one thread for most of its time: on two cores the two side by side take
// the time of the longer, not of both. Exits with the first non-zero code; each compiler's output is
// printed whole, one after the other, never interleaved.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from './bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ args, code: 1, output: `${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ args, code: code ?? (signal ? 1 : 0), output }));
  });
}

/** The build, then the bundle of what it emitted (while the type check goes on). */
async function build() {
  const emitted = await run(['-p', 'tsconfig.build.json']);
  if (emitted.code !== 0) return emitted;
  try {
    await bundle();
    return emitted;
  } catch (error) {
    return { args: ['(bundle)'], code: 1, output: `${emitted.output}${error.stack ?? error}\n` };
  }
}

const results = await Promise.all([build(), run(['-p', 'tsconfig.json', '--noEmit'])]);
for (const { args, code, output } of results) {
  if (output) process.stdout.write(output);
  if (code !== 0) console.error(`tsc ${args.join(' ')} exited ${code}`);
}
process.exit(results.find((r) => r.code !== 0)?.code ?? 0);
