/** Progress in a log (no terminal): a line every few seconds, so a slow run does not look hung in CI. */
import { describe, expect, it } from 'vitest';
import { capturedConsole } from '../helpers/console.js';
import type { RuleResult } from '../../core/engine/result.js';

function reporter(isTTY: boolean, env: NodeJS.ProcessEnv = { NO_COLOR: '1' }) {
  let clock = 0;
  const { reporter: r, text: out } = capturedConsole({ isTTY, env, now: () => clock, progressEveryMs: 5_000 });
  return { r, out, advance: (ms: number) => (clock += ms) };
}

const result = (i: number, verdict: 'pass' | 'fail'): RuleResult => ({
  id: `notes.rule-${i}`,
  title: `rule ${i}`,
  spec: '§4.2',
  sections: ['4.2'],
  level: 'MUST',
  tags: [],
  endpoints: ['createNotes'],
  property: false,
  ...(verdict === 'fail' ? { verdict, reason: 'expected 201', failure: { message: 'expected 201' } } : { verdict }),
  observations: [],
  duration_ms: 1,
  transcript: [],
});

describe('console progress without a terminal', () => {
  it('prints how far the run is every 5 s, and nothing more often', () => {
    const { r, out, advance } = reporter(false);
    r.onEvent({ type: 'start', total: 10, runId: 'abc123', seed: 1 });
    for (let i = 1; i <= 9; i++) {
      advance(2_000);
      r.onEvent({ type: 'rule', result: result(i, i === 2 ? 'fail' : 'pass'), done: i, total: 10 });
    }
    const progress = out()
      .split('\n')
      .filter((l) => l.startsWith('…'));
    expect(progress).toEqual([
      '… 3/10 rules done, 1 failed or errored so far',
      '… 6/10 rules done, 1 failed or errored so far',
      '… 9/10 rules done, 1 failed or errored so far',
    ]);
  });

  it('prints no such line on a terminal, which has its live line instead', () => {
    const { r, out, advance } = reporter(true, {});
    r.onEvent({ type: 'start', total: 3, runId: 'abc123', seed: 1 });
    advance(60_000);
    r.onEvent({ type: 'rule', result: result(1, 'pass'), done: 1, total: 3 });
    expect(out()).not.toMatch(/rules done/);
  });
});
