/**
 * Pacing by what the target says, so a rate limit is never read as a fault: a 429 on any endpoint is
 * waited out and sent again, the run's own process calls never exceed the §8 limit the operator
 * configured, and the report counts the 429s absorbed per endpoint.
 */
import { describe, expect, it } from 'vitest';
import { runAgainstReference } from '../../app/against-reference.js';
import { runConformance } from '../../app/conformance.js';
import { embeddedFixtures, embeddedSeed } from '../../app/embedded.js';
import { Semaphore, retryAfterMs, seededRandom, waitAfter429 } from '../../core/http/pacing.js';
import { DEFAULT_TOKEN, startReferenceServer } from '../../reference/index.js';
import { startProxy } from '../helpers/proxy.js';

describe('pacing primitives', () => {
  it('reads Retry-After as delta-seconds or an HTTP date, and backs off with seeded jitter when it is absent', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(Date.UTC(2030, 0, 1, 0, 0, 5)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(5000);
    expect(waitAfter429('2', 1, seededRandom(1))).toBe(2000);
    const a = [1, 2, 3, 4].map((n) => waitAfter429(undefined, n, seededRandom(7)));
    const b = [1, 2, 3, 4].map((n) => waitAfter429(undefined, n, seededRandom(7)));
    expect(a).toEqual(b); // the same seed, the same waits
    expect(a[3]).toBeGreaterThan(a[0]); // exponential
    expect(waitAfter429(undefined, 30, seededRandom(7))).toBeLessThanOrEqual(2000); // capped
  });

  it('a semaphore never lets more than its size through, serves in order, and drops an aborted waiter', async () => {
    const s = new Semaphore(2);
    const order: number[] = [];
    const r1 = await s.acquire();
    const r2 = await s.acquire();
    const abort = new AbortController();
    const waiting = [3, 4].map((n) =>
      s.acquire(n === 3 ? abort.signal : undefined).then((release) => {
        order.push(n);
        return release;
      }),
    );
    waiting[0].catch(() => order.push(-3));
    abort.abort(new Error('gone'));
    await expect(waiting[0]).rejects.toThrow('gone');
    expect(s.inUse).toBe(2);
    r1();
    (await waiting[1])();
    r2();
    expect(order).toEqual([-3, 4]);
    expect(s.peak).toBe(2);
    expect(s.inUse).toBe(0);
  });

  it('a group takes its slots together, in its turn: single waiters behind it do not overtake it', async () => {
    const s = new Semaphore(3);
    const order: string[] = [];
    const first = await s.acquire();
    const group = s.acquire(undefined, 3).then((release) => {
      order.push(`group with ${s.inUse} held`);
      return release;
    });
    const single = s.acquire().then((release) => {
      order.push(`single with ${s.inUse} held`);
      return release;
    });
    await Promise.resolve();
    // Two slots are free, but the group wants three and is first in line.
    expect(order).toEqual([]);
    first();
    (await group)();
    (await single)();
    expect(order).toEqual(['group with 3 held', 'single with 1 held']);
    expect(s.inUse).toBe(0);
    // A group larger than the semaphore takes all it has, and no more.
    const all = await s.acquire(undefined, 10);
    expect(s.inUse).toBe(3);
    all();
    expect(s.peak).toBe(3);
  });

  it('a group whose wait is aborted lets the single waiters behind it through', async () => {
    const s = new Semaphore(2);
    const held = await s.acquire();
    const abort = new AbortController();
    const group = s.acquire(abort.signal, 2);
    let single = false;
    const behind = s.acquire().then((release) => {
      single = true;
      return release;
    });
    await Promise.resolve();
    expect(single).toBe(false);
    abort.abort(new Error('rule stopped'));
    await expect(group).rejects.toThrow('rule stopped');
    (await behind)();
    expect(single).toBe(true);
    held();
    expect(s.inUse).toBe(0);
  });
});

describe('a faithful server with the §8 limit on is conformant at the default concurrency', () => {
  it('limit 1 and a 120 ms process: exit 0, the §8 rule still sees its 429, and the 429s absorbed are counted', async () => {
    const { report } = await runAgainstReference(
      { settings: { concurrency_limit: 1, processing_delay_ms: 120 } },
      // The budget derived from the rule's time limit, not the fixed one of the mutation run.
      { seed: 21, numRuns: 5, processRetryBudgetMs: undefined },
    );
    const bad = report.rules.filter((r) => r.level === 'MUST' && (r.verdict === 'fail' || r.verdict === 'error'));
    expect(
      bad.map((r) => `${r.id}: ${r.reason}`),
      'no MUST rule failed or went unjudged',
    ).toEqual([]);
    expect(report.summary.exit_code).toBe(0);
    const limits = report.rules.find((r) => r.id === 'limits.concurrency.429-then-retry');
    expect(limits?.verdict).toBe('pass');
    // The §8 rule's burst is sent raw: it saw the 429s it provokes.
    expect(limits?.transcript.some((e) => e.response?.status === 429)).toBe(true);
    // The report counts the 429s: those the §8 rule provoked, and those the run waited out (its
    // own retries of the refused requests, or another rule's call that met the burst).
    const counted = report.http.rate_limited?.processAccount;
    expect(counted?.answered).toBeGreaterThan(0);
    expect(counted?.absorbed).toBeGreaterThanOrEqual(0);
  }, 240_000);
});

describe('the run never has more process calls in flight than the configured §8 limit', () => {
  it('limit 1, eight workers, races sending five process requests at once: one in flight at a time', async () => {
    const server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
    server.store.settings.concurrencyLimit = 1;
    server.store.settings.processingDelayMs = 20;
    let inFlight = 0;
    let peak = 0;
    const proxy = await startProxy(server.url, async (req, forward) => {
      if (!req.path.endsWith('/process/')) return undefined;
      peak = Math.max(peak, ++inFlight);
      try {
        return await forward();
      } finally {
        inFlight--;
      }
    });
    try {
      const report = await runConformance({
        baseUrl: proxy.url,
        auth: { token: DEFAULT_TOKEN },
        fixtures: { ...(await embeddedFixtures()), concurrency_limit: 1 },
        selection: { rules: ['races.process.one-account', 'migration.process.*', 'status.*'] },
        concurrency: 8,
        seed: 3,
      });
      expect(report.rules.length).toBeGreaterThan(5);
      expect(report.rules.filter((r) => r.verdict === 'error' || r.verdict === 'fail').map((r) => r.id)).toEqual([]);
      expect(peak).toBe(1);
      // Nothing starved, so the server's own limit never had to refuse the run's process calls.
      expect(report.http.rate_limited?.processAccount).toBeUndefined();
    } finally {
      await proxy.close();
      await server.close();
    }
  }, 120_000);
});

describe('a server that rate-limits every endpoint (the rate-limited profile)', () => {
  it('is clean: every 429 is waited out as Retry-After asks, on every endpoint, and counted', async () => {
    const { report } = await runAgainstReference({ profile: 'rate-limited' }, { seed: 5, numRuns: 5 });
    const bad = report.rules.filter((r) => r.level !== 'INFO' && (r.verdict === 'fail' || r.verdict === 'error'));
    expect(bad.map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    const counted = report.http.rate_limited ?? {};
    // Every 20th request per endpoint: the endpoints most used were refused and waited out.
    for (const endpoint of ['stageAccount', 'processAccount', 'accountTransferStatus', 'createNotes'])
      expect(counted[endpoint]?.absorbed, endpoint).toBeGreaterThan(0);
    // A run waits: the transcripts show a 429 followed by the same request sent again.
    const retried = report.rules.flatMap((r) => r.transcript).filter((e) => e.step?.includes('after 429'));
    expect(retried.length).toBeGreaterThan(0);
  }, 300_000);
});

describe('a rule still refused when its waiting ends', () => {
  it('is not judged (never failed on the 429), with a reason that names the fix', async () => {
    const server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
    // Every status request of the rule is answered 429 (the preflight's is let through).
    const proxy = await startProxy(server.url, (req) =>
      req.method === 'GET' && req.path.includes('account-transfer-status/') && !req.path.includes('preflight')
        ? { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: '{}' }
        : undefined,
    );
    try {
      const report = await runConformance({
        baseUrl: proxy.url,
        auth: { token: DEFAULT_TOKEN },
        fixtures: await embeddedFixtures(),
        selection: { rules: ['migration.process.status-completed'] },
        timeoutMs: 2_000,
        maxTimeMs: 6_000,
      });
      const [rule] = report.rules;
      expect(rule.verdict).toBe('error');
      expect(rule.reason).toMatch(/still answered 429 \(a rate limit; §8: not shown\) after \d+ attempts/);
      expect(rule.reason).toMatch(/waiting ends with the run's time limit \(--max-time\)/);
      expect(rule.reason).toMatch(/--concurrency.*fixtures\.concurrency_limit.*--max-time/);
      expect(report.http.rate_limited?.accountTransferStatus?.answered).toBeGreaterThan(1);
    } finally {
      await proxy.close();
      await server.close();
    }
  }, 60_000);
});
