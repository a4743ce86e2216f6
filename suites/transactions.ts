/**
 * §4.2 Transactions: every type, dedup with check_previously_added, and the open statement period
 * with force_add_to_current_statement. A date long before any account existed (2001) is outside the
 * open statement period of any freshly imported account; today is inside it.
 */
import type { RuleContext } from '../core/engine/context.js';
import { defineRules } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import type { HttpResponse } from '../core/http/client.js';
import { model } from '../core/spec/index.js';
import { LARGE_BATCH } from '../generators/index.js';
import { withinDeclared } from '../core/engine/limits.js';
import { sendInsideLimits } from '../core/engine/inside-limits.js';
import { type AccountRef, accountKey, today, transaction } from './support.js';

const OUT_OF_PERIOD = '2001-03-15';

async function post(
  ctx: RuleContext,
  account: AccountRef,
  transactions: unknown[],
  step: string,
  query?: Record<string, string>,
): Promise<HttpResponse> {
  return ctx.api.call('createTransactions', {
    body: { ...accountKey(account.supplier, account.ext), transactions },
    query,
    step,
  });
}

/**
 * The statuses of the transactions sent, in the order sent. The order of `results` is not stated
 * and the content of `transaction_data` is not shown: when every result's transaction_data names
 * its transaction_id, results are matched by it; otherwise only the multiset of statuses can be
 * judged, and the statuses come back sorted (callers compare with `sameStatuses`).
 */
export function alignTransactions(
  sent: readonly { transaction_id?: unknown }[],
  results: readonly { status: string; transaction_data: Record<string, unknown> }[],
): { statuses: string[]; aligned: boolean } {
  const unused = [...results];
  const statuses: string[] = [];
  for (const tx of sent) {
    const i = unused.findIndex((r) => r.transaction_data?.transaction_id === tx.transaction_id);
    if (i < 0) return { statuses: results.map((r) => r.status).sort(), aligned: false };
    statuses.push(unused.splice(i, 1)[0].status);
  }
  return { statuses, aligned: true };
}

/** Posts transactions that must be taken; returns the per-transaction statuses (see alignTransactions). */
async function statuses(
  ctx: RuleContext,
  res: HttpResponse,
  sent: readonly { transaction_id?: unknown }[],
): Promise<{ statuses: string[]; aligned: boolean }> {
  ctx.expect.status(res, 201);
  const body = ctx.expect.body(res, model.TransactionsResponse, 'transactions response');
  ctx.expect.equal(body.results.length, sent.length, 'one result per transaction sent', res);
  return alignTransactions(sent, body.results as { status: string; transaction_data: Record<string, unknown> }[]);
}

/** Compares statuses in the order sent, or as a multiset when results could not be matched to transactions. */
function expectStatuses(
  ctx: RuleContext,
  got: { statuses: string[]; aligned: boolean },
  expected: string[],
  what: string,
  res?: HttpResponse,
) {
  ctx.expect.equal(
    got.statuses,
    got.aligned ? expected : [...expected].sort(),
    got.aligned ? what : `${what} (results matched as a multiset: transaction_data does not name the transactions)`,
    res,
  );
}

const ADDED = 'TRANSACTION_ADDED_TO_ACCOUNT';
const EXISTS = 'TRANSACTION_ALREADY_EXISTS';

/**
 * §4.2: check_previously_added=true skips a transaction added earlier (stated: the check runs and
 * TRANSACTION_ALREADY_EXISTS means "added earlier, skipped now"). With =false the spec says only that
 * the service does not "check whether each transaction was already added": adding the duplicate
 * again is the strong reading, refusing it (e.g. by a unique constraint) is legal — so SHOULD.
 */
function dedupWithCheck(check: 'true' | 'false') {
  return {
    id: `transactions.dedup.check-${check}`,
    spec:
      check === 'true'
        ? '§4.2 transactions (check_previously_added)'
        : '§4.2 transactions (check_previously_added: "check whether each transaction was already added")',
    level: check === 'true' ? ('MUST' as const) : ('SHOULD' as const),
    ...(check === 'false'
      ? {
          why: 'With the check off the spec says only that the service does not check for an earlier copy; that the duplicate is then added again (not refused by some other means) is a reading.',
        }
      : {}),
    title:
      check === 'true'
        ? 'check_previously_added=true skips transactions added earlier'
        : 'check_previously_added=false does not check: a transaction added earlier is added again',
    async check(ctx: RuleContext) {
      const a = await ctx.given.imported();
      const tx = transaction(ctx);
      await statuses(ctx, await post(ctx, a, [tx], 'add a transaction'), [tx]);
      const again = await post(ctx, a, [tx], `again with check_previously_added=${check}`, {
        check_previously_added: check,
      });
      expectStatuses(
        ctx,
        await statuses(ctx, again, [tx]),
        [check === 'true' ? EXISTS : ADDED],
        check === 'true' ? 'the transaction exists' : 'without the check the transaction is added',
        again,
      );
    },
  };
}

/** The line and tax items of a SUPPLY_CHARGE (§2.4: present for that type), dated today. */
const supplyChargeItems = () => ({
  line_items: [
    {
      rate_band: 'CONSUMPTION_STANDARD',
      start_date: today(),
      end_date: today(),
      number_of_units: 100,
      net_amount: 20,
      price_per_unit: 0.2,
      units: [50, 50],
    },
  ],
  tax_items: [{ amount: 4.2, tax_type: 'VAT', value_taxed: 20, rate: 0.21, unit_type: 'PROPORTION' }],
});

export default defineRules(
  'transactions',
  [
    {
      id: 'transactions.create.every-type',
      spec: '§4.2 transactions, §2.4',
      level: 'SHOULD',
      why: 'Which reasons and payment types are valid for each transaction type is "not shown" (§2.4): the rule sends values the spec only shows as "seen", which an implementation may refuse for a type.',
      title:
        'Transactions of every type, with reasons and payment types the spec shows, are added: 201 {results: [{status, transaction_data}]}, one result each',
      async check(ctx) {
        const a = await ctx.given.imported();
        const txs = [
          transaction(ctx, { type: 'CHARGE', reason: 'IMPORTED_CHARGE' }),
          transaction(ctx, { type: 'CREDIT', reason: 'IMPORTED_CREDIT', amount: 5 }),
          transaction(ctx, {
            type: 'PAYMENT',
            reason: 'ACCOUNT_CHARGE_PAYMENT',
            payment_type: 'DD_REGULAR_COLLECTION',
          }),
          transaction(ctx, {
            type: 'REPAYMENT',
            reason: 'FULL_CREDIT_REFUND',
            payment_type: 'DIRECT_CREDIT',
            amount: '3.50',
          }),
          transaction(ctx, {
            type: 'SUPPLY_CHARGE',
            reason: 'IMPORTED_CHARGE',
            product_code: 'ELEC-2.0TD',
            amount: '24.20',
            ...supplyChargeItems(),
          }),
        ];
        const res = await post(ctx, a, txs, 'add one transaction of each type');
        expectStatuses(
          ctx,
          await statuses(ctx, res, txs),
          txs.map(() => ADDED),
          'every transaction is added',
          res,
        );
      },
    },
    {
      id: 'transactions.create.import-success-status',
      spec: '§3 creation statuses',
      level: 'SHOULD',
      why: 'The spec says TRANSACTION_IMPORT_SUCCESS "appears" in transaction_data; it does not say every added transaction carries it.',
      title: 'The transaction_data of an added transaction carries status TRANSACTION_IMPORT_SUCCESS',
      async check(ctx) {
        const a = await ctx.given.imported();
        const res = await post(ctx, a, [transaction(ctx)], 'add a transaction');
        ctx.expect.status(res, 201);
        const body = ctx.expect.body(res, model.TransactionsResponse, 'transactions response');
        ctx.expect.equal(
          body.results[0]?.transaction_data.status,
          'TRANSACTION_IMPORT_SUCCESS',
          'transaction_data.status',
          res,
        );
      },
    },
    {
      id: 'transactions.dedup.already-exists',
      spec: '§4.2 transactions (check_previously_added default true)',
      level: 'MUST',
      title:
        'A transaction added earlier is skipped with TRANSACTION_ALREADY_EXISTS; new ones in the same request are added',
      async check(ctx) {
        const a = await ctx.given.imported();
        const first = transaction(ctx);
        await statuses(ctx, await post(ctx, a, [first], 'add a transaction'), [first]);
        const sent = [first, transaction(ctx)];
        const res = await post(ctx, a, sent, 'the same transaction and a new one');
        expectStatuses(
          ctx,
          await statuses(ctx, res, sent),
          [EXISTS, ADDED],
          'the earlier one exists, the new one is added',
          res,
        );
      },
    },
    {
      id: 'transactions.create.added-is-stored',
      // §8 "payload size limits: not shown": a refusal naming the list is a discovered limit (docs/freedoms.md).
      spec: '§4.2 transactions (per-item statuses), §8',
      level: 'MUST',
      title: `Every transaction of a ${LARGE_BATCH}-transaction request answered TRANSACTION_ADDED_TO_ACCOUNT was added: sent again, each is TRANSACTION_ALREADY_EXISTS`,
      async check(ctx) {
        const a = await ctx.given.imported();
        const fresh = (count: number) => Array.from({ length: count }, () => transaction(ctx));
        const declared = withinDeclared({ transactions: fresh(LARGE_BATCH) }, ctx.declaredLimits);
        // §8 leaves payload size limits open: a refusal naming the transactions list is a discovered
        // limit, and the batch is sent again smaller, with new ids (whether a refused request kept some
        // is not shown).
        const answered = await sendInsideLimits(
          ctx,
          'createTransactions',
          declared,
          ({ transactions }, replay) =>
            post(
              ctx,
              a,
              transactions,
              replay
                ? `${transactions.length} new transactions (replay ${replay})`
                : `${transactions.length} new transactions`,
            ),
          `${declared.transactions.length} new transactions`,
          ({ transactions }) => ({ transactions: fresh(transactions.length) }),
        );
        const first = answered.res;
        const sent = answered.sent.transactions;
        ctx.expect.status(first, 201, `${sent.length} new transactions`);
        expectStatuses(
          ctx,
          await statuses(ctx, first, sent),
          sent.map(() => ADDED),
          'every new transaction is added',
          first,
        );
        const again = await post(ctx, a, sent, 'the same transactions again');
        expectStatuses(
          ctx,
          await statuses(ctx, again, sent),
          sent.map(() => EXISTS),
          'every transaction the first answer said was added exists',
          again,
        );
      },
    },
    dedupWithCheck('true'),
    dedupWithCheck('false'),
    {
      id: 'transactions.dedup.check-false-not-skipped',
      spec: '§4.2 transactions (check_previously_added: "check whether each transaction was already added")',
      level: 'MUST',
      title:
        'check_previously_added=false turns the check off: a transaction added earlier is not skipped as TRANSACTION_ALREADY_EXISTS ("added earlier, skipped now")',
      async check(ctx) {
        // Whether the duplicate is then added again or refused by other means is open (the SHOULD rule
        // transactions.dedup.check-false); reporting it skipped is the check the flag turned off.
        const a = await ctx.given.imported();
        const tx = transaction(ctx);
        await statuses(ctx, await post(ctx, a, [tx], 'add a transaction'), [tx]);
        const again = await post(ctx, a, [tx], 'again with check_previously_added=false', {
          check_previously_added: 'false',
        });
        if (again.status >= 400 && again.status < 500) return;
        const got = await statuses(ctx, again, [tx]);
        ctx.expect.that(
          !got.statuses.includes(EXISTS),
          `with check_previously_added=false the transaction must not be skipped as ${EXISTS} (the check is off), got ${JSON.stringify(got.statuses)}`,
          { res: again, actual: got.statuses },
        );
      },
    },
    {
      id: 'transactions.create.supply-charge-items',
      spec: '§2.4 (product_code, line_items, tax_items on SUPPLY_CHARGE)',
      level: 'MUST',
      title:
        'A SUPPLY_CHARGE the service accepts without its documented line_items and tax_items is accepted with them too',
      async check(ctx) {
        // Which reasons are valid per type is not shown (§2.4), so the rule compares the same
        // SUPPLY_CHARGE with and without its items: only the documented items differ.
        const a = await ctx.given.imported();
        const bare = transaction(ctx, {
          type: 'SUPPLY_CHARGE',
          reason: 'IMPORTED_CHARGE',
          product_code: 'ELEC-2.0TD',
          amount: '24.20',
        });
        const without = await post(ctx, a, [bare], 'a SUPPLY_CHARGE without items');
        if (without.status !== 201)
          ctx.skip(
            `the implementation refuses this SUPPLY_CHARGE even without items (${without.status}), so what its items change cannot be told`,
          );
        const items = {
          ...bare,
          transaction_id: ctx.ids.other('T'),
          ...supplyChargeItems(),
        };
        const res = await post(ctx, a, [items], 'the same SUPPLY_CHARGE with line_items and tax_items');
        expectStatuses(
          ctx,
          await statuses(ctx, res, [items]),
          [ADDED],
          'the SUPPLY_CHARGE with its documented items is added',
          res,
        );
      },
    },
    {
      id: 'transactions.dedup.within-one-request',
      spec: '§4.2 transactions',
      level: 'SHOULD',
      why: 'Whether a transaction added earlier in the same request counts as "already added" depends on processing order, which is not shown.',
      title: 'The same transaction twice in one request is added once',
      async check(ctx) {
        const a = await ctx.given.imported();
        const tx = transaction(ctx);
        // The two results are indistinguishable (same transaction), and their order is not stated.
        const res = await post(ctx, a, [tx, tx], 'the same transaction twice');
        ctx.expect.equal(
          (await statuses(ctx, res, [tx, tx])).statuses.sort(),
          [ADDED, EXISTS].sort(),
          'one copy added, the other exists',
          res,
        );
      },
    },
    {
      id: 'transactions.period.refused-without-forcing',
      spec: '§4.2 transactions (force_add_to_current_statement, 400 body)',
      level: 'MUST',
      title:
        'With force_add_to_current_statement=false an out-of-period transaction is refused: 400 {status: TRANSACTION_IMPORT_ERROR, error_detail, transaction_data} for the first failing one only',
      async check(ctx) {
        const a = await ctx.given.imported();
        const inside = transaction(ctx);
        const firstOut = transaction(ctx, { transaction_date: OUT_OF_PERIOD });
        const secondOut = transaction(ctx, { transaction_date: '2000-06-01' });
        const res = await post(ctx, a, [inside, firstOut, secondOut], 'out-of-period transactions without forcing', {
          force_add_to_current_statement: 'false',
        });
        ctx.expect.status(res, 400);
        const body = ctx.expect.body(res, model.TransactionImportErrorBody, 'transaction import error body');
        ctx.expect.equal(
          body.transaction_data.transaction_id,
          firstOut.transaction_id,
          'transaction_data is the first failing transaction',
          res,
        );
        ctx.expect.that(
          !res.text.includes(secondOut.transaction_id),
          `the body describes the first failing transaction only, but mentions ${secondOut.transaction_id} too`,
          { res },
        );
      },
    },
    {
      id: 'transactions.period.forced-by-default',
      spec: '§4.2 transactions (force_add_to_current_statement default true)',
      level: 'MUST',
      title: 'By default an out-of-period transaction is added (moved into the open statement period)',
      async check(ctx) {
        const a = await ctx.given.imported();
        const sent = [transaction(ctx, { transaction_date: OUT_OF_PERIOD })];
        const res = await post(ctx, a, sent, 'an out-of-period transaction with default flags');
        expectStatuses(ctx, await statuses(ctx, res, sent), [ADDED], 'the transaction is added', res);
      },
    },
    {
      id: 'transactions.period.forced-explicitly',
      spec: '§4.2 transactions',
      level: 'MUST',
      title: 'force_add_to_current_statement=true adds an out-of-period transaction',
      async check(ctx) {
        const a = await ctx.given.imported();
        const sent = [transaction(ctx, { transaction_date: OUT_OF_PERIOD })];
        const res = await post(ctx, a, sent, 'force_add_to_current_statement=true', {
          force_add_to_current_statement: 'true',
        });
        expectStatuses(ctx, await statuses(ctx, res, sent), [ADDED], 'the transaction is added', res);
      },
    },
    {
      id: 'transactions.period.forced-date-moved',
      spec: '§4.2 transactions',
      level: 'SHOULD',
      why: 'The content of transaction_data is not shown; when it carries the date, the moved date is observable there.',
      title: "A forced transaction's date is changed to fall inside the open statement period",
      async check(ctx) {
        const a = await ctx.given.imported();
        const res = await post(
          ctx,
          a,
          [transaction(ctx, { transaction_date: OUT_OF_PERIOD })],
          'an out-of-period transaction',
        );
        ctx.expect.status(res, 201);
        const data = ctx.expect.body(res, model.TransactionsResponse, 'transactions response').results[0]
          ?.transaction_data as { transaction_date?: unknown };
        if (data?.transaction_date === undefined)
          ctx.skip('transaction_data does not carry transaction_date, so the move is not observable');
        ctx.expect.that(
          typeof data.transaction_date === 'string' && data.transaction_date > OUT_OF_PERIOD,
          `the date should be moved into the open period, but transaction_data says ${JSON.stringify(data.transaction_date)}`,
          { res, actual: data.transaction_date },
        );
      },
    },
    {
      id: 'transactions.in-period.not-forced',
      spec: '§4.2 transactions',
      level: 'MUST',
      title: 'With force_add_to_current_statement=false a transaction dated today (inside the open period) is added',
      async check(ctx) {
        const a = await ctx.given.imported();
        const sent = [transaction(ctx)];
        const res = await post(ctx, a, sent, 'an in-period transaction without forcing', {
          force_add_to_current_statement: 'false',
        });
        expectStatuses(ctx, await statuses(ctx, res, sent), [ADDED], 'the transaction is added', res);
      },
    },
    {
      id: 'transactions.invalid.refused',
      spec: '§4.2 transactions, §2.4, §7.2',
      level: 'MUST',
      title: 'A transaction with an undocumented type, a non-numeric amount or an impossible date is refused with 400',
      async check(ctx) {
        const a = await ctx.given.imported();
        for (const [what, change] of [
          ['type GIFT', { type: 'GIFT' }],
          ['amount "lots"', { amount: 'lots' }],
          ['date 2024-02-30', { transaction_date: '2024-02-30' }],
        ] as const) {
          const res = await post(ctx, a, [transaction(ctx), transaction(ctx, change)], `a transaction with ${what}`);
          ctx.expect.status(res, 400, `a transaction with ${what}`);
        }
      },
    },
  ],
  { endpoints: ['createTransactions'], tags: ['transactions'], needs: TO_IMPORT },
);
