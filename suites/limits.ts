/**
 * §8 Limits and §4.1 process rule 4: the optional process concurrency limit. A burst of process
 * requests is sent at once. Sent together is not processed together: a target that finishes each
 * account before the next request reaches it, or a runner too busy to send the burst close together,
 * never exceeds the limit, and answering no 429 is then what the spec asks. So "no 429" fails only when
 * the target itself said more than the limit were being processed at once: §3 `IN_PROGRESS` ("a
 * migration process is currently trying to create the account") for the same accounts in two status
 * reads, the second sent after the first was answered, so each was in progress throughout between.
 */
import { type RuleContext, defineRules } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import type { HttpResponse } from '../core/http/client.js';
import { ExchangeError } from '../core/http/exchange.js';
import { noAnswer } from '../core/engine/transient.js';
import { NotJudged } from '../core/engine/failures.js';
import { model } from '../core/spec/index.js';
import type { StagedAccount } from '../core/engine/given.js';
import { statedStatus, status } from './support.js';

export default defineRules('limits', [
  {
    id: 'limits.concurrency.429-then-retry',
    spec: '§8, §4.1 process rule 4, §7.2, §3',
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
      // The target never said it processed more than the limit at once (see above): again, with fresh
      // accounts, before calling it not judged.
      for (let attempt = 2; attempt <= BURSTS && !exceeded(burst, limit); attempt++) burst = await judged();
      const { size, answered } = burst;
      if (answered.length <= limit)
        throw new NotJudged(
          `only ${answered.length} of ${size} process requests of the burst were answered: no more than the limit`,
        );
      const statuses = answered.map(({ res }) => res.status);
      const limited = answered.filter(({ res }) => res.status === 429).map(({ account }) => account);
      if (limited.length === 0 && burst.inProgress <= limit)
        throw new NotJudged(
          `no 429 in ${BURSTS} bursts of ${size} process requests, and the status never said more than ${burst.inProgress} of them were IN_PROGRESS together: a limit of ${limit} was not shown exceeded (a target that finishes each account quickly never exceeds it)`,
        );
      ctx.expect.that(
        limited.length > 0,
        `${burst.inProgress} accounts of the burst were IN_PROGRESS together (two status reads in a row said so), with a limit of ${limit}: the requests beyond it must get 429`,
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

/** Bursts sent before a target that never said it exceeded the limit is left not judged. */
const BURSTS = 3;

/** Rounds of status reads while one burst is out: enough for two in a row, bounded for a slow target. */
const STATUS_ROUNDS = 10;

interface Burst {
  size: number;
  answered: { account: StagedAccount; res: HttpResponse }[];
  /** The most accounts of the burst two status reads in a row found IN_PROGRESS (§3). */
  inProgress: number;
}

const exceeded = (burst: Burst, limit: number) =>
  burst.inProgress > limit || burst.answered.some(({ res }) => res.status === 429);

/**
 * Three times the limit and two more process requests at once, for freshly staged accounts. While
 * they are out, and until one is refused, the status of the accounts still waiting for their answer is
 * read, round after round.
 */
async function sendBurst(ctx: RuleContext): Promise<Burst> {
  const limit = ctx.preconditions.concurrencyLimit;
  const size = limit * 3 + 2;
  const accounts = await Promise.all(Array.from({ length: size }, () => ctx.given.staged()));
  const body = (a: StagedAccount) => ({
    external_account_number: a.ext,
    import_supplier_code: a.supplier,
    operations_team_name: ctx.preconditions.operationsTeam,
  });
  const waiting = new Set(accounts);
  let refused = false;
  // A request of the burst that got no answer (a reset, a timeout) says nothing about the limit,
  // and whether it was processed is unknown: its account is left out, the others are judged.
  const burst = Promise.allSettled(
    accounts.map((a) =>
      ctx.api
        .call('processAccount', { body: body(a), step: 'burst of process requests' })
        .then((res) => {
          refused ||= res.status === 429;
          return res;
        })
        .finally(() => waiting.delete(a)),
    ),
  );
  let inProgress = 0;
  let before = new Set<StagedAccount>();
  for (let round = 0; round < STATUS_ROUNDS && !refused && waiting.size > limit && inProgress <= limit; round++) {
    const now = await inProgressNow(ctx, [...waiting]);
    inProgress = Math.max(inProgress, [...now].filter((a) => before.has(a)).length);
    before = now;
  }
  const settled = await burst;
  const answered: Burst['answered'] = [];
  settled.forEach((s, i) => {
    if (s.status === 'fulfilled') answered.push({ account: accounts[i], res: s.value });
    else if (s.reason instanceof ExchangeError && noAnswer(s.reason))
      ctx.observe(`${accounts[i].ext}: no answer to the burst (${s.reason.message}); left out`);
    else throw s.reason;
  });
  ctx.observe(
    `a burst of ${size} process requests: ${answered.filter(({ res }) => res.status === 429).length} answered 429; at most ${inProgress} IN_PROGRESS together in two status reads in a row`,
  );
  return { size, answered, inProgress };
}

/**
 * The accounts whose status says IN_PROGRESS, all read at once. A read that fails or says anything
 * else counts as not in progress: only the target's own word proves it.
 */
async function inProgressNow(ctx: RuleContext, accounts: StagedAccount[]): Promise<Set<StagedAccount>> {
  const reads = await Promise.allSettled(
    accounts.map((a) => status(ctx, a.supplier, a.ext, 'status while the burst is out')),
  );
  return new Set(
    accounts.filter((_, i) => {
      const read = reads[i];
      return read.status === 'fulfilled' && statedStatus(read.value) === 'IN_PROGRESS';
    }),
  );
}
