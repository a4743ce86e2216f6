/**
 * §8 Limits and §4.1 process rule 4: the optional process concurrency limit. A burst of process
 * requests is sent at once; "no 429" fails only when the answer times prove the target held more
 * than the limit together (core/engine/held-at-once.ts), since a target that finishes each account
 * quickly, or a runner too busy to send the burst close together, never exceeds it.
 */
import { type RuleContext, defineRules } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import type { HttpResponse } from '../core/http/client.js';
import { ExchangeError } from '../core/http/exchange.js';
import { noAnswer } from '../core/engine/transient.js';
import { NotJudged } from '../core/engine/failures.js';
import { model } from '../core/spec/index.js';
import { heldAtOnce } from '../core/engine/held-at-once.js';
import type { StagedAccount } from '../core/engine/given.js';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

export default defineRules('limits', [
  {
    id: 'limits.concurrency.429-then-retry',
    spec: '§8, §4.1 process rule 4, §7.2',
    level: 'MUST',
    title: 'Above the enabled concurrency limit, process answers 429, and each refused request succeeds when retried',
    needs: [...TO_IMPORT, 'concurrencyLimit'],
    endpoints: ['processAccount'],
    tags: ['limits'],
    async check(ctx) {
      const limit = ctx.preconditions.concurrencyLimit;
      const judged = async () => {
        const sent = await sendBurst(ctx);
        for (const { res } of sent.answered)
          ctx.expect.status(res, [201, 429], 'each request of the burst is either processed or refused by the limit');
        return sent;
      };
      let burst = await judged();
      // The target held too few at once to exceed the limit (a busy runner spreads a burst out): again,
      // with fresh accounts, before calling it not judged.
      for (let attempt = 2; attempt <= BURSTS && !exceeded(burst, limit); attempt++) burst = await judged();
      const { size, answered } = burst;
      if (answered.length <= limit)
        throw new NotJudged(
          `only ${answered.length} of ${size} process requests of the burst were answered: no more than the limit`,
        );
      const statuses = answered.map(({ res }) => res.status);
      const limited = answered.filter(({ res }) => res.status === 429).map(({ account }) => account);
      if (limited.length === 0 && !exceeded(burst, limit))
        throw new NotJudged(
          `no 429 in ${BURSTS} bursts of ${size} process requests, but the target surely held at most ${burst.heldAtOnce} at once (answers in ${spread(answered)}; the runner's event loop up to ${Math.round(burst.margin)} ms late, with the round trip): a limit of ${limit} was not shown exceeded`,
        );
      ctx.expect.that(
        limited.length > 0,
        `${burst.heldAtOnce} process requests held at once by the target (from the answer times), with a limit of ${limit}, must see at least one 429`,
        { expected: 'at least one 429', actual: statuses },
      );
      for (const account of limited) {
        // §4.1 rule 4: "The request is retried after other accounts finish" (honouring Retry-After, within the budget).
        let outcome: Awaited<ReturnType<typeof ctx.given.processWithRetries>>;
        try {
          outcome = await ctx.given.processWithRetries(account.supplier, account.ext, {}, 'retry the refused request');
        } catch (error) {
          // No answer to a retry: it may have been processed, so it is not judged (another retry could meet "already imported").
          if (!(error instanceof ExchangeError && noAnswer(error))) throw error;
          ctx.observe(`${account.ext}: no answer to its retry (${error.message}); left out`);
          continue;
        }
        const { res: retried, exhausted } = outcome;
        ctx.expect.status(
          retried,
          201,
          `retrying ${account.ext} after other accounts finished${exhausted ? ` (${exhausted})` : ''}`,
        );
        ctx.expect.body(retried, model.ProcessAccountResponse, 'process response');
      }
    },
  },
]);

/** Bursts sent before a target that held too few at once is left not judged. */
const BURSTS = 3;

interface Burst {
  size: number;
  answered: { account: StagedAccount; res: HttpResponse }[];
  /** Requests of the burst the target surely held at once (held-at-once.ts). */
  heldAtOnce: number;
  /** What was taken off each end of a request's time: the loop's worst delay and a round trip. */
  margin: number;
}

const exceeded = (burst: Burst, limit: number) =>
  burst.heldAtOnce > limit || burst.answered.some(({ res }) => res.status === 429);

/**
 * Three times the limit and two more process requests at once, for freshly staged accounts, timed: the
 * event loop's delay is watched while they are out, and one status read before them bounds the
 * network's part of an answer time.
 */
async function sendBurst(ctx: RuleContext): Promise<Burst> {
  const size = ctx.preconditions.concurrencyLimit * 3 + 2;
  const accounts = await Promise.all(Array.from({ length: size }, () => ctx.given.staged()));
  const roundTrip = await ctx.api.call('accountTransferStatus', {
    params: { import_supplier_code: accounts[0].supplier, external_account_number: accounts[0].ext },
    step: 'one status read: a round trip, the network part of an answer time',
  });
  const body = (a: StagedAccount) => ({
    external_account_number: a.ext,
    import_supplier_code: a.supplier,
    operations_team_name: ctx.preconditions.operationsTeam,
  });
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loop.enable();
  const start = performance.now();
  // A request of the burst that got no answer (a reset, a timeout) says nothing about the limit,
  // and whether it was processed is unknown: its account is left out, the others are judged.
  const settled = await Promise.allSettled(
    accounts.map(async (a) => {
      const res = await ctx.api.call('processAccount', { body: body(a), step: 'burst of process requests' });
      return { res, at: performance.now() };
    }),
  );
  loop.disable();
  const answered: (Burst['answered'][number] & { at: number })[] = [];
  settled.forEach((s, i) => {
    if (s.status === 'fulfilled') answered.push({ account: accounts[i], ...s.value });
    else if (s.reason instanceof ExchangeError && noAnswer(s.reason))
      ctx.observe(`${accounts[i].ext}: no answer to the burst (${s.reason.message}); left out`);
    else throw s.reason;
  });
  const margin = loop.max / 1e6 + LOOP_RESOLUTION_MS + roundTrip.exchange.duration_ms;
  const timed = answered.map(({ res, at }) => ({ sent: Math.max(start, at - res.exchange.duration_ms), answered: at }));
  const held = heldAtOnce(timed, margin);
  ctx.observe(
    `a burst of ${size} process requests: ${answered.filter(({ res }) => res.status === 429).length} answered 429; the target surely held ${held} at once (answers in ${spread(answered)}, ${Math.round(margin)} ms off each end for the runner's delay and the round trip)`,
  );
  return { size, answered, heldAtOnce: held, margin };
}

const LOOP_RESOLUTION_MS = 1;

/** The answer times of a burst, for a reason: "12-31 ms". */
function spread(answered: Burst['answered']): string {
  const times = answered.map(({ res }) => Math.round(res.exchange.duration_ms));
  const low = times.reduce((a, b) => Math.min(a, b));
  const high = times.reduce((a, b) => Math.max(a, b));
  return `${low}-${high} ms`;
}
