/**
 * Independent probes of one rule sent a few at a time (core/engine/probes.ts): what the rule throws
 * is what a sequential loop would throw, whatever answer comes first; a probe that got no answer
 * is sent again in place; one that failed never is.
 */
import { describe, expect, it } from 'vitest';
import { PROBE_WIDTH, atOnce, eachProbe } from '../../core/engine/probes.js';
import type { RuleContext } from '../../core/engine/rule.js';
import { ExchangeError } from '../../core/http/exchange.js';
import { transientCause } from '../../core/engine/transient.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function context(times = 1) {
  const flaky: string[] = [];
  const ctx = {
    retry: { times, cause: (error: unknown) => transientCause(error, []) },
    signal: new AbortController().signal,
    flaky: (why: string) => void flaky.push(why),
  } as unknown as RuleContext;
  return { ctx, flaky };
}

describe('probes sent a few at a time', () => {
  it('never more than PROBE_WIDTH in flight, every item once', async () => {
    let inFlight = 0;
    let most = 0;
    const done: number[] = [];
    await atOnce([...Array(13).keys()], async (i) => {
      most = Math.max(most, ++inFlight);
      await wait(5 + (i % 3) * 3);
      inFlight--;
      done.push(i);
    });
    expect(most).toBe(PROBE_WIDTH);
    expect(done.sort((a, b) => a - b)).toEqual([...Array(13).keys()]);
  });

  it('one at a time when asked: a width of 1 is a loop', async () => {
    let inFlight = 0;
    let most = 0;
    const order: number[] = [];
    await atOnce(
      [0, 1, 2, 3, 4],
      async (i) => {
        most = Math.max(most, ++inFlight);
        await wait(2);
        inFlight--;
        order.push(i);
      },
      1,
    );
    expect(most).toBe(1);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it('throws the failure of the first failing item, even when a later one fails first', async () => {
    const started: number[] = [];
    const run = atOnce([0, 1, 2, 3, 4, 5, 6, 7, 8], async (i) => {
      started.push(i);
      if (i === 1) {
        await wait(30);
        throw new Error('item 1');
      }
      if (i === 2) throw new Error('item 2');
      await wait(5);
    });
    await expect(run).rejects.toThrow('item 1');
    // Nothing after the first known failure (item 2, at once) is started.
    expect(Math.max(...started)).toBeLessThanOrEqual(PROBE_WIDTH - 1);
  });

  it('a probe that got no answer is sent again in place and the rule is marked flaky; a failure is not', async () => {
    const { ctx, flaky } = context();
    const sent: string[] = [];
    await eachProbe(
      ctx,
      ['a', 'b', 'c'],
      async (x) => {
        sent.push(x);
        if (x === 'b' && sent.filter((s) => s === 'b').length === 1) throw new ExchangeError('reset', 'socket hang up');
      },
      (x) => `probe ${x}`,
    );
    expect(sent.sort()).toEqual(['a', 'b', 'b', 'c']);
    expect(flaky).toEqual(['probe b sent again after it was not judged: socket hang up']);

    const failing = context();
    const tries: string[] = [];
    const run = eachProbe(
      failing.ctx,
      ['a'],
      async (x) => {
        tries.push(x);
        throw new ExchangeError('not_json', 'expected a JSON body');
      },
      (x) => x,
    );
    await expect(run).rejects.toThrow('expected a JSON body');
    expect(tries).toEqual(['a']);
    expect(failing.flaky).toEqual([]);
  });

  it('tried again at most --retries times, and not at all with 0', async () => {
    for (const times of [0, 2]) {
      const { ctx } = context(times);
      let sent = 0;
      const run = eachProbe(
        ctx,
        ['x'],
        async () => {
          sent++;
          throw new ExchangeError('timeout', 'no answer within 10 s');
        },
        (x) => x,
      );
      await expect(run).rejects.toThrow('no answer');
      expect(sent).toBe(times + 1);
    }
  });
});
