/**
 * §5 Authentication. Every endpoint gets its own rule so the report shows which one is open. The
 * requests are valid in every respect but the credentials, so the only reason to refuse is §5.
 */
import { randomBytes } from 'node:crypto';
import { defineRules, type Rule } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import { CATALOGUE, type Catalogue } from '../core/engine/drivers.js';
import { listing, listingShows, readListing, sampleRequest, status } from './support.js';
import { eachProbe } from '../core/engine/probes.js';

/** Credentials that are missing or invalid in the sense of §5.3 / §7.2. */
const badCredentials = (): { what: string; auth: 'none' | { authorization: string } }[] => [
  { what: 'no Authorization header', auth: 'none' },
  { what: 'an invalid token', auth: { authorization: `Token ${randomBytes(20).toString('hex')}` } },
  { what: 'the Token scheme without a token', auth: { authorization: 'Token' } },
  { what: 'an empty Authorization header', auth: { authorization: '' } },
];

/** One 401 rule per endpoint of the catalogue, each with the driver's valid request. */
export const unauthorizedRules = (c: Catalogue = CATALOGUE): Rule[] =>
  c.endpoints.map((e) => ({
    id: `auth.401.${e.id}`,
    spec: e.id === 'createBusinessPaymentInstruction' ? '§5.3, §7.2' : '§5.3, §7.2, §4',
    level: 'MUST',
    title: `${e.method} ${e.path} answers 401 to a missing or invalid token`,
    endpoints: [e.id],
    tags: ['auth'],
    async check(ctx) {
      await eachProbe(
        ctx,
        badCredentials(),
        async ({ what, auth }) => {
          const res = await ctx.api.call(e.id, { ...c.drivers[e.id].sample(ctx), auth, step: `send ${what}` });
          ctx.expect.status(res, 401, `with ${what}`);
        },
        ({ what }) => `the request with ${what}`,
      );
    },
  }));

export default defineRules('auth', [
  ...unauthorizedRules(),
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
  {
    id: 'auth.other-schemes.refused',
    spec: '§5.2',
    level: 'SHOULD',
    why: 'The spec shows the "Token" form as the documented example; it does not say other schemes are refused.',
    title: 'A valid token sent under another scheme, or without one, is refused with 401',
    needs: ['ongoingSupplier'],
    endpoints: CATALOGUE.endpoints.map((e) => e.id),
    tags: ['auth'],
    async check(ctx) {
      const probes = CATALOGUE.endpoints.flatMap((e) =>
        ['Bearer', 'Basic', 'JWT', ''].map((scheme) => ({ e, scheme })),
      );
      const under = (scheme: string) => (scheme ? `the ${scheme} scheme` : 'no scheme');
      await eachProbe(
        ctx,
        probes,
        async ({ e, scheme }) => {
          const res = await ctx.api.call(e.id, {
            ...sampleRequest(ctx, e.id),
            auth: { scheme },
            step: `${e.id} with the token under ${under(scheme)}`,
          });
          ctx.expect.status(
            res,
            401,
            `${e.method} ${e.path} with ${scheme ? `"${scheme} <token>"` : 'the bare token'}`,
          );
        },
        ({ e, scheme }) => `${e.id} with the token under ${under(scheme)}`,
      );
    },
  },
]);
