import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirst from './test/helpers/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every temporary file of the run under one directory, removed when the run ends (test/helpers/temp-root.ts).
    globalSetup: ['./test/helpers/temp-root.ts'],
    // A test waits on events (an exit, a line, an answer), and these limits only catch one that never
    // comes: generous, because a busy machine (CI beside other jobs, `npm run test:load`) can make a
    // CLI's cold start alone take seconds, and above the CLI helper's own limit (test/helpers/cli.ts).
    testTimeout: 150_000,
    hookTimeout: 150_000,
    // Tests start their own servers on 127.0.0.1 and child processes; forks isolate them best.
    pool: 'forks',
    // Each fork imports the sources once for all its files, not once per file: the tests share no
    // module state they change (servers, ports and directories are their own), and importing the
    // suites and the reference server again for each of 112 files cost about a fifth of npm test.
    isolate: false,
    // Vitest's default (one fork fewer than the cores) is a single fork on a 2-core machine, and most
    // files spend much of their time waiting on a child process, a socket, a timeout under test or a
    // Retry-After, not computing: one fork more than the cores keeps them busy (on CI's 2 cores npm
    // test took 658 s with one fork, 366 s with two, using 1.5 cores, and 320 s with three, using 1.8).
    maxWorkers: availableParallelism() + 1,
    // The longest files first (test/helpers/sequencer.ts): a long file started late runs alone at the end.
    sequence: { sequencer: LongestFirst },
    // `npm test` shows the failures and the summary ("Tests  N passed"), nothing else: a dot per test,
    // and console output only from tests that failed. `npm test -- --reporter=verbose` lists every test.
    // The load reporter adds the machine's load to any test that failed by running out of time.
    reporters: ['dot', './test/helpers/load-reporter.ts'],
    silent: 'passed-only',
  },
});
