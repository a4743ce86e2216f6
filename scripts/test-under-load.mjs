// `npm run test:load`: the project's timing-sensitive tests with the machine saturated. It starts one
// busy-loop process per CPU (`os.availableParallelism()`, or LOAD_PROCS), runs `vitest run` on the files
// below (or on the files given as arguments; options go to vitest), always stops the busy loops — on
// success, failure, Ctrl-C or SIGTERM — and exits with vitest's code. A test that passes here does not
// depend on a wall-clock budget that a busy CI runner can exhaust.
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The files that wait on the network, a child process, a timeout under test or a retry budget: the
 * ones a loaded machine used to turn red. Kept to a few minutes under load (measured on 2 CPUs: about
 * 3 min with the busy loops and other jobs at load 4-10, up to 8 min at load 10-18; the golden test
 * is a third to a half of it).
 */
export const TIMING_SENSITIVE = [
  'test/robustness/hostile.test.ts',
  'test/cli/serve.test.ts',
  'test/golden/verdicts.test.ts',
  'test/runner/engine.test.ts',
  'test/runner/hostile-targets.test.ts',
  'test/runner/process-retry.test.ts',
  'test/reference/hostile-clients.test.ts',
  'test/reference/migration.test.ts',
  'test/suites/property-cutoff.test.ts',
  // A gateway that resets connections, and a target answering in 100 ms: the retries in place and
  // the automatic width must give the same verdicts on a busy machine.
  'test/runner/flaky.test.ts',
  'test/runner/width-run.test.ts',
  // The reference server's peak memory under a flood of 10 MiB requests: garbage lingers longer
  // when the collector's threads get less CPU.
  'test/reference/large-bodies-memory.test.ts',
  // The embedded server's own thread answering while the runner's is blocked: a loaded machine
  // starts the requesting process late, and the test must then block longer, not fail.
  'test/runner/embedded-thread.test.ts',
];

// Arguments that are not options name the files (default: the list above); options go to vitest.
const args = process.argv.slice(2);
const named = args.filter((a) => !a.startsWith('-'));
const files = named.length ? named : TIMING_SENSITIVE;
const options = args.filter((a) => a.startsWith('-'));
const count = Number(process.env.LOAD_PROCS ?? availableParallelism());
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// A busy loop that also stops by itself when this script is gone (its parent changes when it is
// orphaned, even by SIGKILL) or after an hour, so no loop outlives the run that started it.
const LOOP = `const parent = process.ppid, until = Date.now() + 3_600_000;
for (;;) { for (let i = 0; i < 1e7; i++); if (process.ppid !== parent || Date.now() > until) process.exit(0); }`;

const loops = Array.from({ length: count }, () => spawn(process.execPath, ['-e', LOOP], { stdio: 'ignore' }));
let vitest;
function stopAll() {
  for (const loop of loops) if (loop.exitCode === null && loop.signalCode === null) loop.kill('SIGKILL');
}
process.on('exit', stopAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(signal, () => {
    vitest?.kill(signal);
    stopAll();
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
  });

console.log(`test:load: ${count} busy loop(s) beside vitest; load average ${load()}`);
console.log(`test:load: ${files.join(' ')}`);
const started = Date.now();
vitest = spawn(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...files, ...options], {
  cwd: root,
  stdio: 'inherit',
});
vitest.on('error', (error) => {
  console.error(`test:load: could not start vitest: ${error.message}`);
  stopAll();
  process.exit(1);
});
vitest.on('close', (code, signal) => {
  stopAll();
  console.log(
    `test:load: vitest exited ${code ?? signal} after ${((Date.now() - started) / 1000).toFixed(0)} s; load average ${load()}`,
  );
  process.exit(code ?? 1);
});
