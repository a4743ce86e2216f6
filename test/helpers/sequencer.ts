/**
 * The order test files start in: the longest first. `npm test` on a 2-core machine keeps three forks
 * busy, and a file that starts late keeps one fork running alone at the end: a fresh clone has no
 * vitest cache of durations, so vitest starts the largest files first, and in one measured run the
 * 30-second race file began at 263 s of a 292 s run, alone for its last 17 s. Started early, long
 * files overlap with one another and the short ones fill the end.
 *
 * The list is measured (`npm test -- --reporter=json`, each file's duration, 2026-11-27) and only
 * orders: a file it misses runs in vitest's order after these, and a stale entry costs time, never a
 * result. test/helpers/sequencer.test.ts checks that every entry names a test file.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Test files (under test/, without `.test.ts`), longest first. */
export const LONGEST_FIRST = [
  'robustness/hostile-output',
  'golden/verdicts',
  'runner/pacing',
  'robustness/hostile',
  'ecosystem/pact',
  'robustness/safety',
  'suites/races',
  'cli/run',
  'robustness/big-answers',
  'traffic/proxy-bounds',
  'cli/mtls',
  'runner/engine',
  'claim/claim',
  'traffic/check-traffic-hostile',
  'cli/rerun-failed',
  'runner/hostile-targets',
  'cli/staging',
  'runner/partial-mock',
  'traffic/har-run',
  'runner/width-run',
];

const rank = (file: TestSpecification) => {
  const at = LONGEST_FIRST.findIndex((name) => file.moduleId.endsWith(`/test/${name}.test.ts`));
  return at < 0 ? LONGEST_FIRST.length : at;
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Stable: the files the list does not name keep vitest's order among themselves.
    return sorted
      .map((file, at) => ({ file, at, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.at - b.at)
      .map(({ file }) => file);
  }
}
