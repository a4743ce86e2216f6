/**
 * When the run says a target stopped answering (core/http/answers.ts): only after an answer, only
 * when every request since got none (refused or reset), never for a blip the target recovered from.
 */
import { describe, expect, it } from 'vitest';
import { AnswerLog, SILENCE_AFTER } from '../../core/http/answers.js';
import type { Exchange } from '../../core/http/exchange.js';

const req = (url: string) => ({ method: 'GET', url });
const exchange = (seq: number, kind: 'refused' | 'reset' | 'timeout'): Exchange => ({
  seq,
  request: { method: 'GET', url: `/x/${seq}`, headers: {} },
  error: { kind, message: kind },
  duration_ms: 1,
});

describe('a target that stopped answering', () => {
  it('is named after its last answer, with the first request sent after it that got none', () => {
    const log = new AnswerLog();
    const [a, b, c, d] = [log.send(), log.send(), log.send(), log.send()];
    log.answered(a, req('/a'));
    // c was sent before d but ends after it: the first request with no answer is the one sent first.
    log.unanswered(d, req('/d'), 'refused', exchange(1, 'refused'));
    log.answered(b, req('/b'));
    log.unanswered(d, req('/d'), 'refused', exchange(2, 'refused'));
    log.unanswered(c, req('/c'), 'reset', exchange(3, 'reset'));
    const silence = log.silence();
    expect(silence?.lastAnswered).toMatchObject({ url: '/b', n: 2 });
    expect(silence?.firstUnanswered).toMatchObject({ url: '/c', n: 3, error: 'reset' });
    expect(silence?.unanswered).toBe(2);
    expect(silence?.exchanges.map((x) => x.seq)).toEqual([2, 3]);
  });

  it('is not said for a blip the target recovered from, for fewer than SILENCE_AFTER requests, or for timeouts', () => {
    const log = new AnswerLog();
    log.answered(log.send(), req('/a'));
    for (let i = 0; i < SILENCE_AFTER; i++) log.unanswered(log.send(), req('/b'), 'reset', exchange(i, 'reset'));
    expect(log.silence()).toBeDefined();
    log.answered(log.send(), req('/c'));
    expect(log.silence()).toBeUndefined();
    log.unanswered(log.send(), req('/d'), 'refused', exchange(9, 'refused'));
    log.unanswered(log.send(), req('/e'), 'timeout', exchange(10, 'timeout'));
    expect(log.silence()).toBeUndefined();
  });

  it('is not said of a target that never answered (the preflight names that one)', () => {
    const log = new AnswerLog();
    for (let i = 0; i < 5; i++) log.unanswered(log.send(), req('/a'), 'refused', exchange(i, 'refused'));
    expect(log.silence()).toBeUndefined();
  });
});
