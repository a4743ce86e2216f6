/**
 * §5 statements about particular endpoints, beside the per-endpoint families of suites/auth.ts: a 401
 * carries none of the data the request would have returned, a refused staging stages nothing, the
 * documented header is accepted. They name their endpoints; the families read the driver table.
 */
import { defineRules } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import { listing, listingShows, readListing, status } from './support.js';

export default defineRules('auth', [
  {
    id: 'auth.401.no-data',
    spec: '§5.3, §7.2',
    level: 'MUST',
    // §5.3: a missing token "gives 401" — the request is answered with the 401, not with its data.
    // The 401 body is "not shown" (§7.2): nothing is asserted about its form, only that the
    // accounts' identifiers and numbers the request would have returned are not in it.
    title: 'A 401 carries none of the account data the request would have returned',
    needs: TO_IMPORT,
    endpoints: ['allAccountImportProcesses', 'pendingAccountImportProcesses', 'accountTransferStatus'],
    tags: ['auth'],
    async check(ctx) {
      const staged = await ctx.given.staged();
      const imported = await ctx.given.imported();
      for (const which of ['all', 'pending'] as const) {
        const res = await ctx.api.call(
          which === 'all' ? 'allAccountImportProcesses' : 'pendingAccountImportProcesses',
          {
            params: { import_supplier_code: staged.supplier },
            auth: 'none',
            step: `list ${which} without a token`,
          },
        );
        ctx.expect.status(res, 401);
        for (const secret of [staged.ext, imported.ext, imported.number]) {
          ctx.expect.that(
            !res.text.includes(secret),
            `the 401 of the ${which} listing must not contain ${secret}, data of an account of the supplier`,
            { res },
          );
        }
      }
      const open = await ctx.api.call('accountTransferStatus', {
        params: { import_supplier_code: imported.supplier, external_account_number: imported.ext },
        auth: 'none',
        step: 'status without a token',
      });
      ctx.expect.status(open, 401);
      ctx.expect.that(
        !open.text.includes(imported.number),
        `the 401 of the status endpoint must not reveal the service_account_number ${imported.number}`,
        { res: open },
      );
    },
  },
  {
    id: 'auth.401.nothing-done',
    spec: '§5.3, §7.2',
    level: 'MUST',
    title: 'A request refused with 401 has no effect: staging without a token stages nothing',
    needs: ['ongoingSupplier'],
    endpoints: ['stageAccount'],
    tags: ['auth'],
    async check(ctx) {
      const account = ctx.given.account();
      const res = await ctx.api.call('stageAccount', { body: account, auth: 'none', step: 'stage without a token' });
      ctx.expect.status(res, 401);
      const after = await status(
        ctx,
        account.import_supplier,
        account.external_account_number,
        'status with the token',
      );
      ctx.expect.status(after, 404, 'the account was not staged, so no import process exists (§4.3)');
      const pending = await readListing(ctx, 'pending', account.import_supplier);
      ctx.expect.that(
        !listingShows(pending, account.external_account_number),
        `the pending listing must not contain ${account.external_account_number}`,
        { res: pending.first },
      );
    },
  },
  {
    id: 'auth.token-scheme.accepted',
    spec: '§5.2',
    level: 'MUST',
    title: 'A valid token sent as "Authorization: Token <ACCESS_TOKEN>" is accepted',
    needs: ['ongoingSupplier'],
    endpoints: ['allAccountImportProcesses'],
    tags: ['auth'],
    async check(ctx) {
      const res = await listing(ctx, 'all', ctx.preconditions.ongoingSupplier, 'list with the documented header');
      ctx.expect.status(res, 200);
    },
  },
]);
