/**
 * Transient failures are retried, and said, so that a busy network is not read as a broken target: a
 * rule that ended in error because an exchange got no response is run again with fresh identifiers;
 * one that passes then is a pass marked flaky, listed and counted; a fail is never run again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunOptions, runConformance } from '../../app/conformance.js';
import { embeddedFixtures, embeddedPayloads, embeddedSeed } from '../../app/embedded.js';
import { transient } from '../../core/engine/run.js';
import type { RuleResult } from '../../core/engine/result.js';
import { executeRule } from '../../core/engine/execute.js';
import { NotJudged, RuleFailure } from '../../core/engine/failures.js';
import type { Rule } from '../../core/engine/rule.js';
import { type Exchange, ExchangeError } from '../../core/http/exchange.js';
import { Redactor } from '../../core/http/redact.js';
import { DEFAULT_API_KEY, DEFAULT_TOKEN, startReferenceServer, type ReferenceServer } from '../../reference/index.js';
import { request } from 'node:http';
import type { Socket } from 'node:net';
import { type Behaviour, type Seen, startChaos } from '../helpers/chaos.js';
import { listen } from '../helpers/listen.js';

/**
 * A gateway in front of `target` that resets one connection in `every`: the first request on that
 * connection never reaches the server. Like a load balancer it closes each connection after
 * `perConnection` requests, so a run opens connections all along.
 */
async function startResetting(target: string, every: number, perConnection = 5) {
  let connections = 0;
  let resets = 0;
  const doomed = new WeakSet<Socket>();
  const served = new WeakMap<Socket, number>();
  const seenSockets = new WeakSet<Socket>();
  const front = await listen((req, res) => {
    const socket = req.socket;
    if (!seenSockets.has(socket)) {
      seenSockets.add(socket);
      if (++connections % every === 0) doomed.add(socket);
    }
    if (doomed.has(socket)) {
      resets++;
      return socket.destroy();
    }
    const n = (served.get(socket) ?? 0) + 1;
    served.set(socket, n);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const up = request(
        new URL(req.url ?? '/', target),
        { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, {
            ...upRes.headers,
            ...(n >= perConnection ? { connection: 'close' } : {}),
          });
          upRes.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      up.end(Buffer.concat(chunks));
    });
  });
  return { url: front.url, resets: () => resets, close: front.close };
}

/** The result executeRule makes of a rule whose check ends as `check` does, over `transcript`. */
async function endingOf(check: () => never, transcript: Exchange[] = []): Promise<RuleResult> {
  const rule: Rule = {
    id: 'x.rule',
    spec: '§4.2',
    level: 'MUST',
    title: 't',
    endpoints: [],
    check: async () => check(),
  };
  return executeRule({
    rule,
    run: async () => check(),
    transcript: () => transcript,
    runSignal: new AbortController().signal,
    timeoutMs: 5_000,
    redactor: new Redactor([]),
  });
}

const answered = (status: number): Exchange => ({
  seq: 1,
  request: { method: 'POST', url: '/v1/data-import/notes/create/', headers: {} },
  response: { status, headers: {}, bytes: 0, body: '' },
  duration_ms: 1,
});

describe('which results are transient', () => {
  it('an exchange that got no answer (reset, timeout, refused) is, from the error that ended the rule', async () => {
    for (const kind of ['reset', 'timeout', 'refused'] as const)
      expect(
        transient(
          await endingOf(() => {
            throw new ExchangeError(kind, 'm');
          }),
        ),
      ).toBe(true);
  });

  it("a body that is not JSON, a too large one, a starved call or the rule's time limit is not: the target answered", async () => {
    for (const kind of ['not_json', 'too_large', 'other'] as const)
      expect(
        transient(
          await endingOf(() => {
            throw new ExchangeError(kind, 'm');
          }),
        ),
      ).toBe(false);
    const starved = await endingOf(() => {
      throw new NotJudged('429 after the budget');
    });
    expect(transient(starved)).toBe(false);
    // Not judged for a reason of its own, which is no timeout.
    expect(starved).toMatchObject({
      verdict: 'error',
      error_kind: 'not-judged',
      reason: 'not judged: 429 after the budget',
    });
  });

  it('a failure on a 502–504 answer is not judged and transient; on any other status it stays a fail, never run again', async () => {
    const failing = () => {
      throw new RuleFailure({ message: 'expected 201, got it not', exchange_seq: 1 });
    };
    for (const status of [502, 503, 504]) {
      const result = await endingOf(failing, [answered(status)]);
      expect(result).toMatchObject({ verdict: 'error', error_kind: 'exchange', transient: true });
      expect(result.reason).toMatch(new RegExp(`answered ${status} instead of the implementation`));
    }
    for (const status of [400, 500, 501]) {
      const result = await endingOf(failing, [answered(status)]);
      expect(result.verdict).toBe('fail');
      expect(transient(result)).toBe(false);
    }
  });
});

async function runBehindChaos(server: ReferenceServer, rules: string[] | undefined, retries?: number, every = 50) {
  const chaos = await startResetting(server.url, every);
  try {
    const report = await runConformance({
      baseUrl: chaos.url,
      auth: { apiKey: DEFAULT_API_KEY },
      fixtures: await embeddedFixtures(),
      payloads: embeddedPayloads(),
      seed: 8,
      numRuns: 5,
      ...(rules ? { selection: { rules } } : {}),
      ...(retries !== undefined ? { retries } : {}),
    });
    return { report, resets: chaos.resets() };
  } finally {
    await chaos.close();
  }
}

/** One selection of rules against `url` with the run's token and the embedded fixtures. */
async function runRules(url: string, rules: string[], extra: Partial<RunOptions> = {}) {
  return runConformance({
    baseUrl: url,
    auth: { token: DEFAULT_TOKEN },
    fixtures: await embeddedFixtures(),
    selection: { rules },
    ...extra,
  });
}

/** Resets the third validate request that passes (a probe of errors.bad-input.no-5xx.validate-account). */
function resetThirdValidate(): (req: Seen) => Behaviour | undefined {
  let posts = 0;
  return (req) =>
    req.method === 'POST' && req.path.includes('validate-account') && ++posts === 3 ? 'reset' : undefined;
}

describe('a target that resets one connection in 50', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
  });
  afterAll(() => server.close());

  it('is conformant with the default --retries: what a reset broke is run again, and listed as flaky', async () => {
    // 1 connection in 50 reset, a connection closed every 5 requests: about 8 resets a run. A reset
    // costs one probe or one generated case, tried again in place, or else one rule, run again: a
    // rule is lost only when its re-run meets a reset too, and the long rules no longer re-run whole.
    const { report, resets } = await runBehindChaos(server, undefined);
    expect(resets).toBeGreaterThan(2);
    const bad = report.rules.filter((r) => r.level === 'MUST' && (r.verdict === 'fail' || r.verdict === 'error'));
    expect(bad.map((r) => `${r.id}: ${r.reason}`)).toEqual([]);
    expect(report.summary.exit_code).toBe(0);
    const flaky = report.rules.filter((r) => r.verdict === 'pass' && r.flaky !== undefined);
    expect(flaky.length).toBeGreaterThan(0);
    expect(report.summary.flaky).toEqual(flaky.map((r) => r.id));
    for (const r of flaky) {
      // Run again whole (attempts counted), or a part of it tried again in place (said so).
      if (r.attempts !== undefined) {
        expect(r.attempts).toBe(2);
        expect(r.flaky).toMatch(/^first run not judged: .*(reset|socket|closed)/i);
      } else expect(r.flaky).toMatch(/(sent|run) again after it was not judged: .*(reset|socket|closed)/i);
    }
  }, 300_000);

  it('a GET whose connection was reset is sent again in place: the rule passes, not flaky', async () => {
    let reset = false;
    const chaos = await startChaos(server.url, (req) => {
      if (reset || req.method !== 'GET' || !req.path.includes('account-transfer-status/')) return undefined;
      if (req.path.includes('conformance-preflight')) return undefined;
      reset = true;
      return 'reset';
    });
    try {
      const report = await runRules(chaos.url, ['migration.process.status-completed']);
      expect(reset).toBe(true);
      expect(report.rules[0].verdict, report.rules[0].reason).toBe('pass');
      expect(report.rules[0].flaky).toBeUndefined();
      expect(report.http.resent_after_reset).toBe(1);
    } finally {
      await chaos.close();
    }
  });

  it('a probe whose request got no answer is sent again in place: one request more, not the whole rule', async () => {
    const chaos = await startChaos(server.url, resetThirdValidate());
    const chaosAgain = await startChaos(server.url, resetThirdValidate());
    try {
      const report = await runRules(chaos.url, ['errors.bad-input.no-5xx.validate-account']);
      const [rule] = report.rules;
      expect(rule.verdict, rule.reason).toBe('pass');
      expect(rule.attempts).toBeUndefined();
      expect(rule.flaky).toMatch(
        /^validateAccount with .* sent again after it was not judged: .*(reset|socket|closed)/i,
      );
      expect(report.summary.flaky).toEqual([rule.id]);
      // Every probe once, the reset one twice: nothing else was sent again.
      const probes = chaos.seen.filter((x) => x.method === 'POST' && x.path.includes('validate-account')).length;
      const again = await runRules(server.url, ['errors.bad-input.no-5xx.validate-account'], { fullTranscripts: true });
      // The transcript says which request was the second try.
      const tried = (
        await runRules(chaosAgain.url, ['errors.bad-input.no-5xx.validate-account'], { fullTranscripts: true })
      ).rules[0].transcript;
      const second = tried.filter((x) => /\(try 2, after no answer\)$/.test(x.step ?? ''));
      expect(second).toHaveLength(1);
      expect(tried.filter((x) => x.error).map((x) => `${x.step} (try 2, after no answer)`)).toEqual(
        second.map((x) => x.step),
      );
      const clean = again.rules[0].transcript.filter((x) => x.request.url.includes('validate-account')).length;
      expect(probes).toBe(clean + 1);
    } finally {
      await chaos.close();
      await chaosAgain.close();
    }
  });

  it('a generated case whose request got no answer is run again in place: the property passes, flaky', async () => {
    let reset = false;
    const chaos = await startChaos(server.url, (req) => {
      if (reset || req.method !== 'POST' || !req.path.includes('notes/create')) return undefined;
      reset = true;
      return 'reset';
    });
    try {
      const report = await runRules(chaos.url, ['properties.notes.dedup'], {
        numRuns: 5,
        seed: 4,
        fullTranscripts: true,
      });
      const [rule] = report.rules;
      expect(reset).toBe(true);
      expect(rule.verdict, rule.reason).toBe('pass');
      expect(rule.attempts).toBeUndefined();
      expect(rule.flaky).toMatch(/^case \d+ run again after it was not judged: .*(reset|socket|closed)/i);
      expect(rule.observations.join('\n')).toMatch(/5 of 5 generated case\(s\) ran/);
      // The case's requests of its second try say so; the first try's stay as they were.
      expect(rule.transcript.some((x) => /\(try 2, after no answer\)$/.test(x.step ?? ''))).toBe(true);
    } finally {
      await chaos.close();
    }
  });

  it('a probe that fails is not sent again, and a part that broke is not tried again with --retries 0', async () => {
    const chaos = await startChaos(server.url, resetThirdValidate());
    try {
      const report = await runRules(chaos.url, ['errors.bad-input.no-5xx.validate-account'], { retries: 0 });
      const [rule] = report.rules;
      expect(rule.verdict).toBe('error');
      expect(rule.flaky).toBeUndefined();
    } finally {
      await chaos.close();
    }
    // A real fault answers 500 to one probe: a verdict, never a blip, so nothing is sent again.
    const faulty = await startReferenceServer({
      seed: await embeddedSeed({ token: DEFAULT_TOKEN }),
      faults: ['errors.transactions-500-on-non-list'],
    });
    try {
      const report = await runRules(faulty.url, ['errors.bad-input.no-5xx.create-transactions'], {
        fullTranscripts: true,
      });
      const [rule] = report.rules;
      expect(rule.verdict, rule.reason).toBe('fail');
      expect(rule.reason).toMatch(/500/);
      expect(rule.flaky).toBeUndefined();
      expect(rule.attempts).toBeUndefined();
      const steps = rule.transcript.map((x) => x.step ?? '');
      expect(steps.filter((step) => /sent again/.test(step))).toEqual([]);
      expect(new Set(steps).size).toBe(steps.length);
    } finally {
      await faulty.close();
    }
  });

  it('with --retries 0 such blips leave rules not judged: the re-run is what makes it conformant', async () => {
    // One connection in three reset, so that the few rules selected surely meet one.
    const { report } = await runBehindChaos(server, ['notes.*', 'migration.*'], 0, 3);
    expect(report.rules.some((r) => r.verdict === 'error' && r.error_kind === 'exchange')).toBe(true);
    expect(report.summary.flaky ?? []).toEqual([]);
  }, 300_000);
});

describe('a target whose fault is real still fails behind the same blips', () => {
  it('notes.dedup-body-only: the rule that catches it fails, is not run again and is not flaky', async () => {
    const server = await startReferenceServer({
      seed: await embeddedSeed({ token: DEFAULT_TOKEN }),
      faults: ['notes.dedup-body-only'],
    });
    try {
      const { report } = await runBehindChaos(server, ['notes.*']);
      const failed = report.rules.filter((r) => r.verdict === 'fail' && r.level === 'MUST');
      expect(failed.length).toBeGreaterThan(0);
      for (const r of failed) expect(r.attempts).toBeUndefined();
      expect(report.summary.exit_code).toBe(1);
    } finally {
      await server.close();
    }
  }, 300_000);
});
