import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests start their own servers on 127.0.0.1 and child processes; forks isolate them best.
    pool: 'forks',
    // `npm test` shows the failures and the summary ("Tests  N passed"), nothing else: a dot per test,
    // and console output only from tests that failed. `npm test -- --reporter=verbose` lists every test.
    reporters: ['dot'],
    silent: 'passed-only',
  },
});
