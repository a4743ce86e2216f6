#!/usr/bin/env node
/**
 * The GitHub Action's step (action.yml runs `node dist/app/ci/github-action.js`): the run and
 * everything GitHub reads from it, in app/ci/action-run.ts. Exits with the conformance run's code.
 */
import { shown } from '../../reports/terminal.js';
import { runGithubAction } from './action-run.js';

try {
  process.exitCode = await runGithubAction(process.env, process.cwd());
} catch (error) {
  // Never a stack trace in a CI log: what went wrong, in one line, and a failed step.
  console.error(`conformance action: ${shown(error instanceof Error ? error.message : String(error), 1024)}`);
  process.exitCode = 1;
}
