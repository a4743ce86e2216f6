/**
 * How many rules run at once (core/engine/width.ts): a fixed --concurrency stays as given; auto
 * follows the target's answer time while the runner is idle, and goes back to 8 for good once the
 * target asks the run to slow down.
 */
import { describe, expect, it } from 'vitest';
import { LatencyGauge } from '../../core/http/latency.js';
import type { RateLimitCount } from '../../core/http/pacing.js';
import { AUTO, RuleWidth } from '../../core/engine/width.js';

function target(latencyMs: number | undefined, busy: number | undefined = 0.1) {
  const latency = new LatencyGauge();
  if (latencyMs !== undefined) for (let i = 0; i < 10; i++) latency.record(latencyMs, 200);
  const rateLimited: Record<string, RateLimitCount> = {};
  return { latency, rateLimited, busy: () => busy };
}

describe('the number of rules at once', () => {
  it('a number given is kept whatever the target does', () => {
    const t = target(300);
    t.rateLimited.createNotes = { answered: 3, absorbed: 3 };
    expect(new RuleWidth(3, t).current()).toBe(3);
    expect(new RuleWidth(20, target(1)).current()).toBe(20);
  });

  it('auto: 8 until answers are timed, and for a target answering within 25 ms', () => {
    expect(new RuleWidth('auto', target(undefined)).current()).toBe(AUTO.base);
    expect(new RuleWidth('auto', target(2)).current()).toBe(8);
    expect(new RuleWidth('auto', target(25)).current()).toBe(8);
  });

  it('auto: more rules for a slower target, as many requests per second as 8 rules at 25 ms, at most 32', () => {
    expect(new RuleWidth('auto', target(50)).current()).toBe(16);
    expect(new RuleWidth('auto', target(100)).current()).toBe(32);
    expect(new RuleWidth('auto', target(2000)).current()).toBe(AUTO.max);
  });

  it('auto: slow answers do not count while the runner itself is busy (or its load is not known yet)', () => {
    expect(new RuleWidth('auto', target(100, 0.9)).current()).toBe(8);
    expect(new RuleWidth('auto', { ...target(100), busy: () => undefined }).current()).toBe(8);
  });

  it('auto: says a busy runner held it back while answers are slow, and only then', () => {
    const held = new RuleWidth('auto', target(100, 0.9));
    expect(held.current()).toBe(8);
    expect(held.heldBack).toBe(true);
    const others = {
      'a fast target, which wants no more than 8 whether the runner is busy or not': target(10, 0.9),
      'an idle runner, which takes them': target(100, 0.1),
      'a runner whose load is not known yet': { ...target(100), busy: () => undefined },
    };
    for (const [what, signals] of Object.entries(others)) {
      const width = new RuleWidth('auto', signals);
      width.current();
      expect(width.heldBack, what).toBe(false);
    }
    // Held back while a few slow answers passed, then answers came fast again: the answer time no longer calls for more.
    const passing = target(100, 0.9);
    const width = new RuleWidth('auto', passing);
    width.current();
    for (let i = 0; i < 40; i++) passing.latency.record(3, 200);
    expect(width.heldBack).toBe(false);
  });

  it('auto: the median answer time, so a few slow process calls do not pass for a slow network', () => {
    const t = target(undefined);
    for (let i = 0; i < 20; i++) t.latency.record(3, 200);
    for (let i = 0; i < 8; i++) t.latency.record(900, 201);
    expect(new RuleWidth('auto', t).current()).toBe(8);
  });

  it('auto: back to 8 for good after a 429 the run waited out, or a 503', () => {
    const limited = target(100);
    const width = new RuleWidth('auto', limited);
    expect(width.current()).toBe(32);
    limited.rateLimited.createNotes = { answered: 1, absorbed: 1 };
    expect(width.current()).toBe(8);
    expect(width.pushback).toBe(true);
    limited.rateLimited.createNotes = { answered: 0, absorbed: 0 };
    expect(width.current()).toBe(8);

    const unavailable = target(100);
    const other = new RuleWidth('auto', unavailable);
    unavailable.latency.record(100, 503);
    expect(other.current()).toBe(8);
  });

  it('auto: 429s the §8 rules provoke on the process endpoint, or answered to them, are no sign to slow down', () => {
    const t = { ...target(100), expected429: ['processAccount'] };
    t.rateLimited.processAccount = { answered: 12, absorbed: 4 };
    t.rateLimited.createNotes = { answered: 2, absorbed: 0 };
    const width = new RuleWidth('auto', t);
    expect(width.current()).toBe(32);
    expect(width.pushback).toBe(false);
  });

  it('keeps the most rules it had at once', () => {
    const width = new RuleWidth('auto', target(100));
    for (const n of [1, 5, 3, 17, 2]) width.started(n);
    expect(width.peak).toBe(17);
  });
});
