/**
 * Rules that ended the same way share one cause, worded for what ended them: a broken exchange
 * points at the target; one fact several rules could not read (not-judged) at that fact; the run's
 * own deadline (--max-time) at the run, never at the target.
 */
import { describe, expect, it } from 'vitest';
import { DEADLINE_CAUSE } from '../../core/engine/interrupt.js';
import type { Ending } from '../../core/engine/result.js';
import { renderMarkdown } from '../../reports/markdown.js';
import { type Case, build } from '../helpers/sample-report.js';

const ruleOf = (id: string, outcome: Case['outcome']): Case => ({
  rule: { id, level: 'MUST', spec: '§4.2', endpoints: ['createNotes'] },
  outcome,
});

const ended = (ending: Ending) => (id: string) => ruleOf(id, ending);

describe('shared causes', () => {
  it('rules not judged for the same reason share a not-judged cause, apart from broken exchanges', () => {
    const notJudged = ended({
      verdict: 'error',
      error_kind: 'not-judged',
      reason: "not judged: the status before answered 500; the account's state could not be read",
    });
    const broken = ended({ verdict: 'error', error_kind: 'exchange', reason: 'no complete response within 10000 ms' });
    const report = build([notJudged('a.one'), notJudged('a.two'), broken('b.one'), broken('b.two'), broken('b.three')]);
    const byId = new Map(report.causes.map((c) => [c.id, c]));
    expect([...byId.keys()].sort()).toEqual(['exchange.1', 'not-judged.1']);
    expect(byId.get('not-judged.1')).toMatchObject({ rules: ['a.one', 'a.two'], fix: [] });
    expect(byId.get('not-judged.1')?.hint).not.toMatch(/exchange broke|target/);
    expect(byId.get('exchange.1')).toMatchObject({
      rules: ['b.one', 'b.two', 'b.three'],
      step: 'exchange with the target',
    });
    expect(report.rules.find((r) => r.id === 'a.one')).toMatchObject({
      error_kind: 'not-judged',
      cause: 'not-judged.1',
    });
  });

  it("the run's deadline is one cause of the run's own, with the key that gives it more time", () => {
    const cut = (when: string) =>
      ended({
        verdict: 'error',
        error_kind: 'timeout',
        reason: `not judged: the run reached its time limit (--max-time 5 s) before the rule ${when}`,
        cause: DEADLINE_CAUSE,
      });
    const report = build([cut('started')('c.one'), cut('finished')('c.two'), cut('started')('c.three')]);
    expect(report.causes).toHaveLength(1);
    const [cause] = report.causes;
    expect(cause).toMatchObject({
      id: DEADLINE_CAUSE,
      rules: ['c.one', 'c.two', 'c.three'],
      fix: ['run.max_time_s'],
      answer: 'the run reached its time limit (--max-time 5 s) before the rule started',
    });
    expect(cause.hint).toMatch(/says nothing of the target/);
    expect(cause.hint).not.toMatch(/the target, not these rules, is the problem/);
    expect(renderMarkdown(report)).toContain("the run's time limit (--max-time)");
  });
});
