/**
 * "Refused means nothing happened" for the refusals of §3 and §4.1: staging refused (§4.1 "Failures
 * of staging (400) arise when: … the account is already imported or marked to be skipped; the
 * supplier's migration is paused or complete"; §2.2) and process refused (§4.1 process rules 1 and
 * 3, §2.2), each for a real process and a dry run. Each rule reads the account with the oracle
 * (core/engine/observe.ts) before and after the refused request and requires exactly the same
 * state; where the interface offers a probe (staging answers 201 only the first time, process 201
 * only once) the request that would now succeed is answered as a first request.
 *
 * The dry run that would succeed is `migration.process.dry-run-no-trace`; the 401 refusals are
 * `auth.refused-has-no-effect.*`. The §8 429 (`refused.process.over-limit`) is SHOULD: §4.1 process
 * rule 4 says "The request is retried after other accounts finish" without saying by whom, so a
 * service that queues the refused request and creates the account itself reads it otherwise.
 */
import type { RuleContext } from '../core/engine/context.js';
import type { AccountPayload } from '../core/spec/index.js';
import { type Need, TO_IMPORT } from '../core/engine/needs.js';
import { probeOf } from '../core/engine/drivers.js';
import { type AccountKey, oracle, type Probe } from '../core/engine/observe.js';
import { defineRules, type RuleInput } from '../core/engine/rule.js';
import type { HttpResponse } from '../core/http/client.js';
import { atOnce } from '../core/engine/probes.js';

/** The account a refusal is about, and what a request that may succeed afterwards would be. */
interface Setup {
  account: AccountKey;
  /** The staging request sent (stage refusals). */
  payload?: AccountPayload;
  /** Extra fields of the process request (process refusals). */
  extra?: Record<string, unknown>;
  /** The probe that ends the rule, if any. */
  probe?: Probe;
}

interface Refusal {
  id: string;
  spec: string;
  title: string;
  needs: readonly Need[];
  setup(ctx: RuleContext): Promise<Setup>;
}

const keyOf = (p: AccountPayload): AccountKey => ({ supplier: p.import_supplier, ext: p.external_account_number });

/** An account of a supplier the operator set up (Paused, Complete), under the run's account template. */
const accountOf = (ctx: RuleContext, supplier: string, ext?: string): AccountPayload => ({
  ...ctx.given.account(supplier),
  ...(ext === undefined ? {} : { external_account_number: ext }),
});

const stageRefusals: Refusal[] = [
  {
    id: 'already-imported',
    spec: '§3 imported → imported (stage: response 400), §4.1 failures of staging',
    title: 'Staging an account already imported',
    needs: TO_IMPORT,
    async setup(ctx) {
      const a = await ctx.given.imported();
      return { account: a, payload: a.payload };
    },
  },
  {
    id: 'skipped',
    spec: '§3 (account not … skipped), §4.1 failures of staging',
    title: 'Staging an account marked to be skipped',
    needs: ['ongoingSupplier', 'skippedAccount'],
    async setup(ctx) {
      const payload = accountOf(ctx, ctx.preconditions.ongoingSupplier, ctx.preconditions.skippedAccount);
      return { account: keyOf(payload), payload };
    },
  },
  ...(['paused', 'complete'] as const).flatMap((state): Refusal[] => {
    const supplier = state === 'paused' ? ('pausedSupplier' as const) : ('completeSupplier' as const);
    const staged =
      state === 'paused' ? ('pausedSupplierStagedAccount' as const) : ('completeSupplierStagedAccount' as const);
    const name = state === 'paused' ? 'Paused' : 'Complete';
    return [
      {
        id: `${state}-supplier`,
        spec: `§2.2 (${name}: accounts that try to migrate get an error), §4.1 failures of staging`,
        title: `Staging a new account of a ${name} supplier`,
        needs: [supplier],
        async setup(ctx) {
          const payload = accountOf(ctx, ctx.preconditions[supplier]);
          return { account: keyOf(payload), payload };
        },
      },
      {
        id: `${state}-supplier-again`,
        spec: `§2.2 (${name}: accounts that try to migrate get an error), §4.1 failures of staging`,
        title: `Staging again an account staged before its supplier became ${name}`,
        needs: [supplier, staged],
        async setup(ctx) {
          const payload = accountOf(ctx, ctx.preconditions[supplier], ctx.preconditions[staged]);
          return { account: keyOf(payload), payload };
        },
      },
    ];
  }),
];

const processRefusals: Refusal[] = [
  {
    id: 'not-staged',
    spec: '§4.1 process rule 1 (the account data must already be staged)',
    title: 'Processing an account whose data was never staged',
    needs: TO_IMPORT,
    async setup(ctx) {
      const payload = ctx.given.account();
      // Staging it afterwards is a first staging: the refused process left no import process behind.
      return { account: keyOf(payload), probe: probeOf('stageAccount', { body: payload }) };
    },
  },
  {
    id: 'unknown-team',
    spec: '§4.1 process rule 1 (the named team must already exist)',
    title: 'Processing with an operations team that does not exist',
    needs: TO_IMPORT,
    async setup(ctx) {
      const a = await ctx.given.staged();
      return {
        account: a,
        extra: { operations_team_name: `No such team ${ctx.ids.namespace}` },
        probe: probeOf('processAccount', {
          body: {
            import_supplier_code: a.supplier,
            external_account_number: a.ext,
            operations_team_name: ctx.preconditions.operationsTeam,
          },
        }),
      };
    },
  },
  {
    id: 'already-imported',
    spec: '§3 imported → imported (process: response 400), §4.1 process rule 3',
    title: 'Processing an account already imported',
    needs: TO_IMPORT,
    async setup(ctx) {
      return { account: await ctx.given.imported() };
    },
  },
  ...(['paused', 'complete'] as const).map((state): Refusal => {
    const supplier = state === 'paused' ? ('pausedSupplier' as const) : ('completeSupplier' as const);
    const staged =
      state === 'paused' ? ('pausedSupplierStagedAccount' as const) : ('completeSupplierStagedAccount' as const);
    const name = state === 'paused' ? 'Paused' : 'Complete';
    return {
      id: `${state}-supplier`,
      spec: `§2.2 (${name}: accounts that try to migrate get an error), §4.1`,
      title: `Processing an account staged before its supplier became ${name}`,
      needs: [supplier, staged, 'operationsTeam'],
      async setup(ctx) {
        return { account: { supplier: ctx.preconditions[supplier], ext: ctx.preconditions[staged] } };
      },
    };
  }),
];

const stageRules: RuleInput[] = stageRefusals.map((r) => ({
  id: `refused.stage.${r.id}`,
  spec: r.spec,
  level: 'MUST',
  title: `${r.title} is answered 400 and leaves the observable state (status, all and pending listings) as it was`,
  needs: r.needs,
  endpoints: ['stageAccount'],
  async check(ctx) {
    const s = await r.setup(ctx);
    const o = oracle(ctx);
    const before = await o.observe(s.account, 'before the refused staging');
    const res = await ctx.api.call('stageAccount', { body: s.payload, step: 'the staging to be refused' });
    ctx.expect.status(res, 400, `${r.title.toLowerCase()} (§4.1: failures of staging are 400)`);
    await o.assertState(
      { expected: before, why: 'a staging refused with 400 must change nothing', probes: [s.probe] },
      'after the refused staging',
    );
  },
}));

const processRules: RuleInput[] = processRefusals.flatMap((r) =>
  [false, true].map(
    (dry): RuleInput => ({
      id: `refused.process.${r.id}${dry ? '-dry-run' : ''}`,
      spec: `${r.spec}${dry ? ', §4.1 process rule 2 (the full creation runs and is rolled back)' : ''}`,
      level: 'MUST',
      title: `${r.title}${dry ? ' as a dry run' : ''} is refused and leaves the observable state as it was`,
      needs: r.needs,
      endpoints: ['processAccount'],
      async check(ctx) {
        const s = await r.setup(ctx);
        const o = oracle(ctx);
        const before = await o.observe(s.account, 'before the refused process');
        const res = await ctx.given.process(
          s.account.supplier,
          s.account.ext,
          { ...s.extra, ...(dry ? { dry_run: true } : {}) },
          `the process${dry ? ' dry run' : ''} to be refused`,
        );
        if (r.id === 'already-imported')
          ctx.expect.status(res, 400, 'process for an account already imported (§3, §4.1 process rule 3)');
        else ctx.expect.refused(res, `${r.title.toLowerCase()}${dry ? ' as a dry run' : ''} (§4.1)`);
        await o.assertState(
          {
            expected: before,
            why: `a process${dry ? ' dry run' : ''} refused must change nothing`,
            probes: [s.probe],
          },
          'after the refused process',
        );
      },
    }),
  ),
);

/** §8: a burst above the limit, sent unpaced (the rule needs the limit, so its process calls are raw). */
const overLimit: RuleInput = {
  id: 'refused.process.over-limit',
  spec: '§8, §4.1 process rule 4, §7.2 (429)',
  level: 'SHOULD',
  why: '§4.1 process rule 4 says the request "is retried after other accounts finish" without saying by whom: a service that queues a refused request and creates the account itself reads it otherwise. That the 429 leaves the account as it was is the reading in which the client retries (the one limits.concurrency.429-then-retry takes).',
  title:
    'A process request refused with 429 above the enabled concurrency limit leaves the account as it was, and processing it again creates it',
  needs: [...TO_IMPORT, 'concurrencyLimit'],
  endpoints: ['processAccount'],
  async check(ctx) {
    const burst = ctx.preconditions.concurrencyLimit * 3 + 2;
    const accounts = await Promise.all(Array.from({ length: burst }, () => ctx.given.staged()));
    const o = oracle(ctx);
    const before = await o.observeMany(accounts, 'before the burst');
    const answers: HttpResponse[] = await Promise.all(
      accounts.map((a) =>
        ctx.api.call('processAccount', {
          body: {
            external_account_number: a.ext,
            import_supplier_code: a.supplier,
            operations_team_name: ctx.preconditions.operationsTeam,
          },
          pacing: 'raw',
          step: 'burst of process requests',
        }),
      ),
    );
    const limited = accounts.map((_, i) => i).filter((i) => answers[i].status === 429);
    if (!limited.length) {
      ctx.observe(`no 429 in a burst of ${burst} (judged by limits.concurrency.429-then-retry); nothing to judge here`);
      return;
    }
    // Every answer is in: the refused requests must have left their accounts as they were.
    await o.expectAllUnchanged(
      limited.map((i) => before[i]),
      'after the burst',
      'a process request refused with 429 must change nothing',
    );
    // Each account on its own: the probes go out a few at a time (the §8 slots pace their process calls).
    await atOnce(limited, (i) =>
      o.assertState(
        {
          why: 'refused with 429',
          probes: [
            probeOf('processAccount', {
              body: {
                external_account_number: accounts[i].ext,
                import_supplier_code: accounts[i].supplier,
                operations_team_name: ctx.preconditions.operationsTeam,
              },
            }),
          ],
        },
        `account ${i}`,
      ),
    );
  },
};

export default defineRules('refused', [...stageRules, ...processRules, overLimit], { tags: ['refused', 'migration'] });
