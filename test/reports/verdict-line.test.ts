/**
 * The verdict line says what the counts say, in every combination of MUST outcome × SHOULD outcome ×
 * --strict: never "nothing failed" beside a failure, never "every MUST rule was judged" beside a
 * skipped one, and the state matches the exit code.
 */
import { describe, expect, it } from 'vitest';
import { runVerdict } from '../../core/report/verdict-line.js';
import { type Case, build } from '../helpers/sample-report.js';

const OUTCOMES = {
  pass: { verdict: 'pass' },
  fail: { verdict: 'fail', reason: 'r', failure: { message: 'r', expected: 1, actual: 2, path: 'status' } },
  error: { verdict: 'error', error_kind: 'timeout', reason: 'no response within 10 s' },
  skip: { verdict: 'skip', reason: 'needs it: set fixtures.x', skip_key: 'fixtures.x' },
} as const;

type MustOutcome = keyof typeof OUTCOMES | 'accepted skip';

function report(must: MustOutcome, should: 'pass' | 'fail', strict: boolean) {
  const cases: Case[] = [
    { rule: { id: 'a.must', level: 'MUST', spec: '§4.1', endpoints: [] }, outcome: OUTCOMES.pass as never },
    {
      rule: { id: 'b.must', level: 'MUST', spec: '§4.1', endpoints: [] },
      outcome: OUTCOMES[must === 'accepted skip' ? 'skip' : must] as never,
    },
    { rule: { id: 'c.should', level: 'SHOULD', spec: '§4.2', endpoints: [] }, outcome: OUTCOMES[should] as never },
  ];
  return build(cases, { strict, allowSkip: must === 'accepted skip' ? ['b.must'] : undefined });
}

const EXIT = { conformant: 0, 'not conformant': 1, incomplete: 4 } as const;

describe('the verdict line', () => {
  for (const must of ['pass', 'fail', 'error', 'skip', 'accepted skip'] as const)
    for (const should of ['pass', 'fail'] as const)
      for (const strict of [false, true])
        it(`MUST ${must}, SHOULD ${should}, ${strict ? '--strict' : 'default'}`, () => {
          const r = report(must, should, strict);
          const { state, detail } = runVerdict(r);
          const countedShould = strict && should === 'fail';
          const expected =
            must === 'fail' || must === 'error' || countedShould
              ? 'not conformant'
              : must === 'skip'
                ? 'incomplete'
                : 'conformant';
          expect(state).toBe(expected);
          expect(r.summary.exit_code).toBe(EXIT[state as keyof typeof EXIT]);
          if (must === 'fail') expect(detail).toMatch(/1 MUST failure/);
          if (must === 'error') expect(detail).toMatch(/1 MUST rule not judged \(error\)/);
          if (should === 'fail') expect(detail).toMatch(/1 SHOULD failure/);
          if (should === 'fail' && !strict) expect(detail).toMatch(/not counted without --strict/);
          if (should === 'fail' || must === 'fail') expect(detail).not.toMatch(/nothing failed/);
          if (must === 'skip' || must === 'accepted skip') expect(detail).not.toMatch(/every MUST rule was judged/);
          if (must === 'accepted skip') expect(detail).toMatch(/1 MUST rule skipped, accepted by --allow-skip/);
          if (must === 'skip') expect(detail).toMatch(/set fixtures\.x/);
        });
});
