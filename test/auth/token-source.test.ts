/** The run's token renewed as often as the run needs, bounded by what renewing achieves (§5: lifetime not shown). */
import { describe, expect, it } from 'vitest';
import { TokenSource } from '../../core/auth/token-source.js';

/** An API key that hands out t1, t2, … and counts how often it was asked. */
function issuer() {
  let n = 0;
  const obtain = async () => `t${++n}`;
  return { obtain, asked: () => n };
}

describe('TokenSource', () => {
  it('renews every time an accepted token is refused, with no count to run out', async () => {
    const key = issuer();
    const tokens = new TokenSource('t0', key.obtain);
    for (let i = 1; i <= 50; i++) {
      const refused = tokens.current();
      expect(await tokens.renew(refused)).toBe(`t${i}`);
      tokens.acceptedBy(`t${i}`);
    }
    expect(tokens.stats.renewals).toBe(50);
    expect(tokens.stats.refusedMidRun).toBe(0);
    expect(tokens.stopped).toBeUndefined();
  });

  it('shares one renewal among every rule refused at the same moment (single flight)', async () => {
    const key = issuer();
    const tokens = new TokenSource('t0', key.obtain);
    const renewed = await Promise.all(Array.from({ length: 20 }, () => tokens.renew('t0')));
    expect(new Set(renewed)).toEqual(new Set(['t1']));
    expect(key.asked()).toBe(1);
    expect(tokens.stats.renewals).toBe(1);
  });

  it('answers a 401 to a token already replaced with the current one, without renewing', async () => {
    const key = issuer();
    const tokens = new TokenSource('t0', key.obtain);
    await tokens.renew('t0');
    tokens.acceptedBy('t1');
    expect(await tokens.renew('t0')).toBe('t1');
    expect(key.asked()).toBe(1);
  });

  it('stops, and says why once, when new tokens are refused twice in a row before one was accepted', async () => {
    const key = issuer();
    const tokens = new TokenSource('t0', key.obtain);
    expect(await tokens.renew('t0')).toBe('t1');
    tokens.refusedAfterRenewal();
    // One new token refused at once may have waited out its life on a busy runner: one more is tried.
    expect(await tokens.renew('t1')).toBe('t2');
    expect(tokens.stopped).toBeUndefined();
    tokens.refusedAfterRenewal();
    expect(await tokens.renew('t2')).toBeNull();
    expect(tokens.stopped).toBe('2 newly obtained tokens in a row were refused before the target accepted one');
    expect(await tokens.renew('t2')).toBeNull();
    expect(key.asked()).toBe(2);
    expect(tokens.stats.refusedMidRun).toBe(4);
  });

  it('forgets a new token refused at once as soon as a later one is accepted', async () => {
    const key = issuer();
    const tokens = new TokenSource('t0', key.obtain);
    for (let i = 0; i < 10; i++) {
      await tokens.renew(tokens.current()); // refused at once …
      await tokens.renew(tokens.current()); // … and its successor accepted
      tokens.acceptedBy(tokens.current());
    }
    expect(tokens.stopped).toBeUndefined();
    expect(tokens.stats.renewals).toBe(20);
  });

  it('stops when obtaining a token fails, and never asks again', async () => {
    let asked = 0;
    const tokens = new TokenSource('t0', async () => {
      asked++;
      throw new Error('the mutation answered 500');
    });
    expect(await tokens.renew('t0')).toBeNull();
    expect(tokens.stopped).toBe('obtaining a new token failed: the mutation answered 500');
    expect(await tokens.renew('t0')).toBeNull();
    expect(asked).toBe(1);
  });

  it('without an API key the 401 stands, from the first one', async () => {
    const tokens = new TokenSource('static');
    expect(await tokens.renew('static')).toBeNull();
    expect(tokens.stopped).toMatch(/no API key/);
    expect(tokens.stats.renewals).toBe(0);
  });
});
