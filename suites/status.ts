/** §4.3 Status and listings, §2.9 account import process records. */
import type { RuleContext } from '../core/engine/context.js';
import { defineRules } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import { model } from '../core/spec/index.js';
import { listing, listingShows, readListing, recordsFor, statedStatus, status } from './support.js';

const POLLS = 50;
const POLL_INTERVAL_MS = 5;

/**
 * §4.3, §2.9: a freshly staged account is in the `which` listing once, with service_account_number
 * and account_created_at null (it has no live account yet).
 */
async function expectStagedOnceWithNulls(
  ctx: RuleContext,
  which: 'pending' | 'all',
  schema: typeof model.PendingAccountImportProcesses | typeof model.AllAccountImportProcesses,
) {
  const account = await ctx.given.staged();
  const read = await readListing(ctx, which, account.supplier, `${which} listing`);
  const res = read.first;
  ctx.expect.status(res, 200);
  ctx.expect.body(res, schema, `${which} listing`);
  const records = recordsFor(read.items, account.ext);
  ctx.expect.equal(
    records,
    [{ ...records[0], external_account_number: account.ext, service_account_number: null, account_created_at: null }],
    `the ${which} listing shows ${account.ext} once, with nulls`,
    res,
  );
}

export default defineRules(
  'status',
  [
    {
      id: 'status.404-without-process',
      spec: '§4.3, §7.2',
      level: 'MUST',
      title: 'The status endpoint answers 404 when no import process exists for the supplier code and external number',
      endpoints: ['accountTransferStatus'],
      async check(ctx) {
        const res = await status(
          ctx,
          ctx.preconditions.ongoingSupplier,
          ctx.ids.externalAccountNumber(),
          'status of an account never staged',
        );
        ctx.expect.status(res, 404);
      },
    },
    {
      id: 'status.staged-unknown',
      spec: '§3, §4.3',
      level: 'MUST',
      title: 'A staged account has status UNKNOWN and an empty service_account_number',
      endpoints: ['accountTransferStatus'],
      async check(ctx) {
        const account = await ctx.given.staged();
        const res = await status(ctx, account.supplier, account.ext, 'status of the staged account');
        ctx.expect.status(res, 200);
        const body = ctx.expect.body(res, model.AccountTransferStatus, 'status');
        ctx.expect.equal(
          [body.status, body.service_account_number],
          ['UNKNOWN', ''],
          'status and number before the account exists',
          res,
        );
      },
    },
    {
      id: 'status.in-progress',
      spec: '§3',
      level: 'INFO',
      why: 'IN_PROGRESS can only be seen while a process runs; whether a request lands in that window depends on timing, not on conformance.',
      title: 'While a process request runs, the status endpoint reports IN_PROGRESS',
      needs: TO_IMPORT,
      endpoints: ['accountTransferStatus', 'processAccount'],
      async check(ctx) {
        const account = await ctx.given.staged();
        const processing = ctx.given.process(account.supplier, account.ext, {}, 'process');
        const seen = new Set<string>();
        let finished = false;
        void processing.finally(() => (finished = true)).catch(() => undefined);
        // Polls at a gentle pace and a bounded number of times: this must not load a shared server.
        for (let poll = 0; poll < POLLS && !finished && !seen.has('IN_PROGRESS'); poll++) {
          const res = await status(ctx, account.supplier, account.ext, 'status while processing');
          if (res.status === 200 && res.isJson) seen.add(String(statedStatus(res)));
          await new Promise((r) => setTimeout(r, POLL_INTERVAL_MS));
        }
        ctx.expect.status(await processing, 201, 'the process');
        ctx.observe(
          seen.has('IN_PROGRESS')
            ? 'IN_PROGRESS was observed while the process request ran'
            : `IN_PROGRESS was not observed (statuses seen: ${[...seen].join(', ') || 'none'}); processing may be too fast to observe`,
        );
      },
    },
    {
      id: 'status.listing-pending-nulls',
      spec: '§4.3, §2.9',
      level: 'MUST',
      title: 'The pending listing shows a staged account with service_account_number and account_created_at null',
      endpoints: ['pendingAccountImportProcesses'],
      async check(ctx) {
        await expectStagedOnceWithNulls(ctx, 'pending', model.PendingAccountImportProcesses);
      },
    },
    {
      id: 'status.listing-all-pending',
      spec: '§4.3, §2.9',
      level: 'MUST',
      title: 'The all-accounts listing shows a pending account with null service_account_number and account_created_at',
      endpoints: ['allAccountImportProcesses'],
      async check(ctx) {
        await expectStagedOnceWithNulls(ctx, 'all', model.AllAccountImportProcesses);
      },
    },
    {
      id: 'status.listing-imported-200',
      spec: '§4.3',
      level: 'MUST',
      title: 'The imported listing answers 200',
      endpoints: ['importedAccountImportProcesses'],
      async check(ctx) {
        ctx.expect.status(await listing(ctx, 'imported', ctx.preconditions.ongoingSupplier, 'imported listing'), 200);
      },
    },
    {
      id: 'status.listing-imported-excludes-pending',
      spec: '§4.3',
      level: 'SHOULD',
      why: "The imported listing's body is not shown; that it leaves out pending accounts is what its name says.",
      title: 'The imported listing does not show an account that is only staged',
      endpoints: ['importedAccountImportProcesses'],
      async check(ctx) {
        const account = await ctx.given.staged();
        const read = await readListing(ctx, 'imported', account.supplier, 'imported listing');
        ctx.expect.status(read.first, 200);
        ctx.expect.that(
          !listingShows(read, account.ext),
          `the imported listing should not show the staged-only account ${account.ext}`,
          { res: read.pages.find((p) => p.text.includes(account.ext)) },
        );
      },
    },
    {
      id: 'status.listings-per-supplier',
      spec: '§4.3, §1',
      level: 'MUST',
      title: "The listings and the status endpoint of one supplier never show another supplier's accounts",
      needs: ['ongoingSupplier', 'otherOngoingSupplier', 'operationsTeam'],
      endpoints: [
        'allAccountImportProcesses',
        'pendingAccountImportProcesses',
        'importedAccountImportProcesses',
        'accountTransferStatus',
      ],
      async check(ctx) {
        const staged = await ctx.given.staged();
        const imported = await ctx.given.imported();
        const other = ctx.preconditions.otherOngoingSupplier;
        for (const which of ['all', 'pending', 'imported'] as const) {
          const read = await readListing(ctx, which, other, `${which} listing of the other supplier`);
          ctx.expect.status(read.first, 200);
          for (const ext of [staged.ext, imported.ext])
            ctx.expect.that(
              !listingShows(read, ext),
              `the ${which} listing of ${other} must not show ${ext}, an account of ${staged.supplier}`,
              { res: read.pages.find((p) => p.text.includes(ext)) ?? read.first },
            );
        }
        for (const ext of [staged.ext, imported.ext]) {
          ctx.expect.status(
            await status(ctx, other, ext, `status of ${ext} under the other supplier`),
            404,
            `no import process of ${other} is named ${ext}`,
          );
        }
      },
    },
  ],
  { needs: ['ongoingSupplier'] },
);
