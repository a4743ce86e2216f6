/**
 * §4.1 process rule 4: a 429 from the process endpoint "is retried after other accounts finish".
 * Every rule's process call retries it, waiting at least what Retry-After asks, within the budget;
 * when the budget runs out the rule is not judged (error), never failed on the 429.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN, startReferenceServer, type ReferenceServer } from '../../reference/index.js';
import { embeddedFixtures, embeddedSeed } from '../../app/embedded.js';
import { retryAfterMs } from '../../core/engine/given.js';
import { runConformance } from '../../app/conformance.js';
import { startProxy } from '../helpers/proxy.js';

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
});
afterAll(() => server.close());

const tooMany = (retryAfter: string) => ({
  status: 429,
  headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
  body: '{"detail":"busy"}',
});

/**
 * Answers the first `refusals` process requests of each account with 429 and `Retry-After`,
 * recording when each came. The setup chain processes an account of its own first; the rule's
 * account is the last one seen.
 */
async function run(refusals: number, retryAfter: string, processRetryBudgetMs: number) {
  const arrivals = new Map<string, number[]>();
  const proxy = await startProxy(server.url, (req) => {
    if (!req.path.endsWith('/process/')) return undefined;
    const ext = String((JSON.parse(req.body) as { external_account_number?: unknown }).external_account_number);
    const seen = [...(arrivals.get(ext) ?? []), Date.now()];
    arrivals.set(ext, seen);
    return seen.length <= refusals ? tooMany(retryAfter) : undefined;
  });
  try {
    const report = await runConformance({
      baseUrl: proxy.url,
      auth: { token: DEFAULT_TOKEN },
      fixtures: await embeddedFixtures(),
      selection: { rules: ['migration.process.creates-account'] },
      processRetryBudgetMs,
      fullTranscripts: true,
    });
    return { result: report.rules[0], arrivals: [...arrivals.values()].at(-1) ?? [] };
  } finally {
    await proxy.close();
  }
}

describe('process calls retry a 429 honouring Retry-After', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(' 0 ')).toBe(0);
    expect(retryAfterMs(new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(10_000);
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });

  it('waits at least Retry-After between attempts, then judges the answer that follows', async () => {
    const { result, arrivals } = await run(2, '1', 30_000);
    expect(result.verdict, result.reason).toBe('pass');
    expect(arrivals).toHaveLength(3);
    expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(990);
    expect(arrivals[2] - arrivals[1]).toBeGreaterThanOrEqual(990);
    expect(
      result.transcript
        .filter((e) => e.request.url.endsWith('/process/'))
        .map((e: { response?: { status: number }; step?: string }) => [e.response?.status, e.step]),
    ).toEqual([
      [429, 'process the staged account'],
      [429, 'process the staged account (retry 1 after 429)'],
      [201, 'process the staged account (retry 2 after 429)'],
    ]);
  });

  it('is not judged (error, precondition) when the limit still refuses after the budget: never a failure on the 429', async () => {
    // 1.9 s: a second wait of 1 s always overruns it, and the first 429 may take 0.9 s on a busy machine.
    const { result, arrivals } = await run(1000, '1', 1_900);
    expect(result.verdict).toBe('error');
    expect(result.error_kind).toBe('precondition');
    expect(result.reason).toMatch(/still answered 429 \(§8 concurrency limit\) after 2 attempts .* Retry-After 1\)/);
    expect(arrivals).toHaveLength(2); // a second wait of 1 s would overrun the 1.9 s budget
  });
});
