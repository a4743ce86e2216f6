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

/** An endpoint answered 501 (core/engine/not-implemented.ts): the rules that needed it are skipped with its cause. */
describe('the verdict line of a partial implementation', () => {
  const notImplemented = {
    verdict: 'skip',
    reason: 'not judged: pending listing not implemented (GET … answered 501)',
    cause: 'not-implemented.pendingAccountImportProcesses',
  } as const;
  const entry = {
    endpoint: 'pendingAccountImportProcesses',
    status: 501,
    request: 'GET /v1/data-import/pending-account-import-processes/ACME/',
  } as const;
  function partialReport(level: 'MUST' | 'SHOULD', should: 'pass' | 'fail', strict: boolean, partial: boolean) {
    const cases: Case[] = [
      { rule: { id: 'a.must', level: 'MUST', spec: '§4.1', endpoints: [] }, outcome: OUTCOMES.pass as never },
      {
        rule: { id: 'b.observes', level, spec: '§4.1', endpoints: ['processAccount'] },
        outcome: notImplemented as never,
      },
      { rule: { id: 'c.should', level: 'SHOULD', spec: '§4.2', endpoints: [] }, outcome: OUTCOMES[should] as never },
    ];
    return build(cases, { strict, partial, notImplemented: [entry] });
  }

  for (const level of ['MUST', 'SHOULD'] as const)
    for (const should of ['pass', 'fail'] as const)
      for (const strict of [false, true])
        for (const partial of [false, true])
          it(`${level} rule not judged for a missing endpoint, SHOULD ${should}, ${strict ? '--strict' : 'default'}, ${partial ? '--partial' : 'not accepted'}`, () => {
            const r = partialReport(level, should, strict, partial);
            const { state, title, detail } = runVerdict(r);
            const expected = strict && should === 'fail' ? 'not conformant' : partial ? 'conformant' : 'incomplete';
            expect(state).toBe(expected);
            expect(r.summary.exit_code).toBe(EXIT[state as keyof typeof EXIT]);
            expect(r.summary.not_implemented).toEqual(['pendingAccountImportProcesses']);
            expect(r.summary.missing_keys).toEqual([]);
            expect(r.capabilities.find((c) => c.endpoint === 'pendingAccountImportProcesses')?.status).toBe(
              'not implemented',
            );
            if (state === 'conformant') {
              expect(title).toBe('Conformant for what is implemented');
              expect(detail).toMatch(/1 endpoint not implemented \(pendingAccountImportProcesses\)/);
            }
            if (state === 'incomplete')
              expect(detail).toMatch(
                new RegExp(
                  `1 endpoint not implemented \\(pendingAccountImportProcesses\\), so 1 rule \\(${level === 'MUST' ? 1 : 0} MUST\\) not judged: .*--partial`,
                ),
              );
            if (level === 'MUST' && partial) expect(detail).toMatch(/1 MUST rule skipped, accepted by --partial/);
            if (level === 'MUST') expect(detail).not.toMatch(/every MUST rule was judged/);
            expect(detail).not.toMatch(/set .*not-implemented/);
          });
});
