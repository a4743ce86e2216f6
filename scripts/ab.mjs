#!/usr/bin/env node
/**
 * `npm run bench:ab -- --base REV [--what run|test|nightly] [--rounds N]`: is this working tree
 * slower than REV? Both builds are timed alternately in the same minutes — A B, then B A, round
 * after round — so a busy machine weighs on both alike, which two runs an hour apart cannot
 * promise. REV is checked out into a temporary worktree with a copy of node_modules and built
 * there; nothing of this tree is touched.
 *
 *   run      the default run against the embedded server, start to exit (`conformance`)
 *   nightly  `--num-runs 400`, start to exit, and its peak RSS (Linux: VmHWM)
 *   test     the whole test suite (`vitest run`; the build is done once per side beforehand)
 *
 * Prints one line per timing and the medians; exits 0 whatever the result (a measurement, not a gate).
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    what: { type: 'string', default: 'run' },
    rounds: { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
  },
});
if (!values.base) {
  console.error('bench:ab: give --base REV (a commit, branch or tag to compare this working tree with).');
  process.exit(2);
}
if (!['run', 'test', 'nightly'].includes(values.what)) {
  console.error(`bench:ab: --what must be run, test or nightly, got "${values.what}".`);
  process.exit(2);
}
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) {
  console.error(`bench:ab: --rounds must be a whole number from 1 to 20, got "${values.rounds}".`);
  process.exit(2);
}

const here = process.cwd();
const git = (...args) => execFileSync('git', args, { cwd: here, encoding: 'utf8' }).trim();
const base = git('rev-parse', '--verify', `${values.base}^{commit}`);
const head = `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') ? '+changes' : ''}`;
const there = mkdtempSync(join(tmpdir(), 'conformance-ab-'));

const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });

console.log(
  `bench:ab: ${values.what}, ${rounds} rounds: A = ${base.slice(0, 7)} (${values.base}), B = ${head} (this tree)`,
);
git('worktree', 'add', '--detach', there, base);
try {
  // A copy, not a link: node_modules/data-import-conformance links to `..`, which must be the worktree.
  cpSync(join(here, 'node_modules'), join(there, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  for (const dir of [there, here]) sh('npm', ['run', 'build', '--silent'], dir);

  const sides = { A: there, B: here };
  const times = { A: [], B: [] };
  const peaks = { A: [], B: [] };
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
      const { ms, peakMb, code } = await timed(values.what, sides[side]);
      times[side].push(ms);
      if (peakMb !== undefined) peaks[side].push(peakMb);
      console.log(
        `  round ${round + 1} ${side}: ${(ms / 1000).toFixed(2)} s${peakMb !== undefined ? `, peak ${peakMb} MB` : ''} (exit ${code})`,
      );
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const a = median(times.A);
  const b = median(times.B);
  console.log(
    `median A ${(a / 1000).toFixed(2)} s, B ${(b / 1000).toFixed(2)} s: B is ${(((b - a) / a) * 100).toFixed(1)} % ${b > a ? 'slower' : 'faster'}`,
  );
  if (peaks.B.length) console.log(`peak RSS median A ${median(peaks.A)} MB, B ${median(peaks.B)} MB`);
} finally {
  if (!values.keep) {
    git('worktree', 'remove', '--force', there);
    rmSync(there, { recursive: true, force: true });
  }
}

/** One timing of `what` in `cwd`: wall time, exit code, and the peak RSS where asked and readable. */
function timed(what, cwd) {
  const [cmd, args] =
    what === 'test'
      ? [process.execPath, [join(cwd, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=dot']]
      : [process.execPath, [join(cwd, 'dist/cli/main.js'), ...(what === 'nightly' ? ['--num-runs', '400'] : [])]];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(cmd, args, { cwd, stdio: 'ignore', env: { ...process.env, NO_COLOR: '1', CI: 'true' } });
    let peakMb;
    const poll =
      what === 'nightly' && existsSync(`/proc/${process.pid}/status`)
        ? setInterval(() => {
            try {
              const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
              if (hwm) peakMb = Math.max(peakMb ?? 0, Math.round(Number(hwm[1]) / 1024));
            } catch {
              // The process ended between two polls.
            }
          }, 100)
        : undefined;
    child.on('error', reject);
    child.on('close', (code) => {
      if (poll) clearInterval(poll);
      resolve({ ms: performance.now() - started, code, peakMb });
    });
  });
}
