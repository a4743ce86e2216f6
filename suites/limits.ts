/** §8 Limits and §4.1 process rule 4: the optional process concurrency limit. */
import { defineRules } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import type { HttpResponse } from '../core/http/client.js';
import { ExchangeError } from '../core/http/exchange.js';
import { noAnswer } from '../core/engine/transient.js';
import { NotJudged } from '../core/engine/failures.js';
import { model } from '../core/spec/index.js';

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
      const burst = ctx.preconditions.concurrencyLimit * 3 + 2;
      const accounts = await Promise.all(Array.from({ length: burst }, () => ctx.given.staged()));
      const body = (a: (typeof accounts)[number]) => ({
        external_account_number: a.ext,
        import_supplier_code: a.supplier,
        operations_team_name: ctx.preconditions.operationsTeam,
      });
      // A request of the burst that got no answer (a reset, a timeout) says nothing about the limit,
      // and whether it was processed is unknown: its account is left out, the others are judged.
      const settled = await Promise.allSettled(
        accounts.map((a) => ctx.api.call('processAccount', { body: body(a), step: 'burst of process requests' })),
      );
      const answered: { account: (typeof accounts)[number]; res: HttpResponse }[] = [];
      settled.forEach((s, i) => {
        if (s.status === 'fulfilled') answered.push({ account: accounts[i], res: s.value });
        else if (s.reason instanceof ExchangeError && noAnswer(s.reason))
          ctx.observe(`${accounts[i].ext}: no answer to the burst (${s.reason.message}); left out`);
        else throw s.reason;
      });
      if (answered.length <= ctx.preconditions.concurrencyLimit)
        throw new NotJudged(
          `only ${answered.length} of ${burst} process requests of the burst were answered: no more than the limit`,
        );
      const first = answered.map((a) => a.res);
      const statuses = first.map((r) => r.status);
      for (const res of first)
        ctx.expect.status(res, [201, 429], 'each request of the burst is either processed or refused by the limit');
      const limited = answered.filter(({ res }) => res.status === 429).map(({ account }) => account);
      ctx.expect.that(
        limited.length > 0,
        `${burst} simultaneous process requests with a limit of ${ctx.preconditions.concurrencyLimit} must see at least one 429`,
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
