/**
 * §4.1 process rule 2 beyond its 400: a dry run runs "the full creation", so it runs every check
 * a real process runs, and `dry_run` is a documented field, never an invalid one. And §2.2 for an
 * account of a Complete supplier at process.
 *
 * The spec does not show the dry-run message's wording or body shape (and wording is never
 * compared, §7.1), so "would succeed" is told apart from "would fail" only by comparison: the answer
 * to a dry run that would fail (unknown team, Paused or Complete supplier) cannot be the very answer
 * a dry run that would succeed gets — status and body alike, once the account's own identifiers are
 * put aside. A server that answered "would succeed" without running the checks gives both the same.
 */
import type { RuleContext } from '../core/engine/context.js';
import { defineRules, type RuleInput } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import type { HttpResponse } from '../core/http/client.js';
import { model } from '../core/spec/index.js';
import { oracle } from '../core/engine/observe.js';
import { accountKey, errorsOf, listingShows, readListing, status } from './support.js';

/** A response with the account's own identifiers replaced, so answers about two accounts compare. */
function shape(res: HttpResponse, names: Record<string, string>): string {
  let text = res.text;
  for (const [value, placeholder] of Object.entries(names).sort((a, b) => b[0].length - a[0].length))
    text = text.split(value).join(placeholder);
  return `${res.status} ${text}`;
}

/** The answer to a dry run that would succeed, on a fresh staged account of the ongoing supplier. */
async function wouldSucceed(ctx: RuleContext): Promise<{ res: HttpResponse; supplier: string; ext: string }> {
  const a = await ctx.given.staged();
  const res = await ctx.given.process(a.supplier, a.ext, { dry_run: true }, 'a dry run that would succeed');
  ctx.expect.status(res, 400, 'a dry run that would succeed (§4.1 process rule 2)');
  return { res, supplier: a.supplier, ext: a.ext };
}

/** After a refused dry run no account exists: the status is UNKNOWN with no number, or there is no process. */
async function nothingCreated(ctx: RuleContext, supplier: string, ext: string) {
  const res = await status(ctx, supplier, ext, 'status after the dry run');
  if (res.status === 404) return;
  ctx.expect.status(res, [200, 404]);
  const body = ctx.expect.body(res, model.AccountTransferStatus, 'status');
  ctx.expect.equal(
    [body.status, body.service_account_number],
    ['UNKNOWN', ''],
    'a dry run creates nothing (§4.1 process rule 2)',
    res,
  );
}

/** §2.2: a dry run for an account of a Paused or Complete supplier would fail, so it is not answered "would succeed". */
function dryRunChecksSupplier(state: 'paused' | 'complete'): RuleInput {
  const supplierNeed = state === 'paused' ? ('pausedSupplier' as const) : ('completeSupplier' as const);
  const accountNeed =
    state === 'paused' ? ('pausedSupplierStagedAccount' as const) : ('completeSupplierStagedAccount' as const);
  const name = state === 'paused' ? 'Paused' : 'Complete';
  return {
    id: `migration.process.dry-run-checks-${state}-supplier`,
    spec: '§4.1 process rule 2 (the full creation runs), §2.2',
    level: 'MUST',
    title: `A dry run for an account of a ${name} supplier is refused, not answered as a dry run that would succeed`,
    needs: [...TO_IMPORT, supplierNeed, accountNeed],
    endpoints: ['processAccount'],
    async check(ctx) {
      const supplier = ctx.preconditions[supplierNeed];
      const ext = ctx.preconditions[accountNeed];
      const good = await wouldSucceed(ctx);
      const res = await ctx.given.process(
        supplier,
        ext,
        { dry_run: true },
        `a dry run for the ${state} supplier's staged account`,
      );
      ctx.expect.refused(
        res,
        `a dry run for an account of a ${name} supplier (§2.2: accounts that try to migrate get an error)`,
      );
      ctx.expect.that(
        shape(res, { [supplier]: '<supplier>', [ext]: '<account>' }) !==
          shape(good.res, { [good.supplier]: '<supplier>', [good.ext]: '<account>' }),
        `a dry run for a ${name} supplier's account got the very answer of a dry run that would succeed (${res.status} ${res.text.slice(0, 160)}): the supplier was not checked (§4.1 process rule 2 runs the full creation)`,
        { res, actual: res.text.slice(0, 300), expected: 'an answer other than "would succeed"' },
      );
      await nothingCreated(ctx, supplier, ext);
    },
  };
}

export default defineRules(
  'migration',
  [
    {
      id: 'migration.process.dry-run-no-trace',
      spec: '§4.1 process rule 2, §3 staged → staged (nothing created), §4.3, §4.2 notes rule 1',
      level: 'MUST',
      title:
        'A dry run leaves no trace: status, all and pending listings as before; notes still 404; staging again answers 200; a real process then answers 201',
      endpoints: [
        'processAccount',
        'accountTransferStatus',
        'allAccountImportProcesses',
        'pendingAccountImportProcesses',
      ],
      async check(ctx) {
        const a = await ctx.given.staged();
        const o = oracle(ctx);
        const before = await o.observe(a, 'before the dry run');
        const dry = await ctx.given.process(a.supplier, a.ext, { dry_run: true }, 'a dry run that would succeed');
        ctx.expect.status(dry, 400, 'a dry run that would succeed (§4.1 process rule 2)');
        await o.expectUnchanged(before, 'after the dry run', 'a dry run is rolled back (§4.1 process rule 2)');
        // §4.2 notes rule 1: "The account must be imported, not merely staged" — 404 (§7.2).
        const note = ctx.preconditions.payloads.item('notes', 'notes', ctx.ids);
        ctx.expect.status(
          await ctx.api.call('createNotes', {
            body: { ...accountKey(a.supplier, a.ext), notes: [note] },
            step: 'notes after the dry run',
          }),
          404,
          'after a dry run the account is still not imported, so notes answer 404 (§4.2 notes rule 1)',
        );
        // §3: "staged | stage again | … | staged, data replaced | response 200".
        ctx.expect.status(
          await ctx.given.stage(a.payload, 'stage again after the dry run'),
          200,
          'the account is still staged, not imported, so staging again answers 200 (§3)',
        );
        const real = await ctx.given.process(a.supplier, a.ext, {}, 'a real process after the dry run');
        ctx.expect.status(real, 201, 'a real process after the dry run creates the account (§3)');
      },
    },
    {
      id: 'migration.process.dry-run-not-listed-as-imported',
      spec: '§4.1 process rule 2, §4.3',
      level: 'SHOULD',
      why: "The imported listing's body is not shown; that a dry run leaves it as it was is read from its name and the roll-back.",
      title: 'After a dry run the imported listing does not show the account',
      endpoints: ['processAccount', 'importedAccountImportProcesses'],
      async check(ctx) {
        const a = await ctx.given.staged();
        const dry = await ctx.given.process(a.supplier, a.ext, { dry_run: true }, 'a dry run that would succeed');
        ctx.expect.status(dry, 400, 'a dry run that would succeed (§4.1 process rule 2)');
        const read = await readListing(ctx, 'imported', a.supplier, 'imported listing after the dry run');
        ctx.expect.status(read.first, 200);
        ctx.expect.that(!listingShows(read, a.ext), `the imported listing should not show ${a.ext} after a dry run`, {
          res: read.pages.find((p) => p.text.includes(a.ext)) ?? read.first,
        });
      },
    },
    {
      id: 'migration.process.dry-run-supported',
      spec: '§4.1 (dry_run: boolean, optional), §4.1 process rule 2',
      level: 'MUST',
      title:
        'dry_run: true is accepted as a documented field: the 400 of a dry run that would succeed reports no validation error on dry_run',
      endpoints: ['processAccount'],
      async check(ctx) {
        const { res, supplier, ext } = await wouldSucceed(ctx);
        const { attrs } = errorsOf(res);
        ctx.expect.that(
          !attrs.some((a) => a === 'dry_run' || a.startsWith('dry_run.')),
          `dry_run is a documented boolean (§4.1), but the dry run was refused as invalid input at ${JSON.stringify(attrs)}`,
          { res, actual: attrs },
        );
        await nothingCreated(ctx, supplier, ext);
      },
    },
    {
      id: 'migration.process.dry-run-checks-team',
      spec: '§4.1 process rules 1 and 2 (the full creation runs)',
      level: 'MUST',
      title:
        'A dry run with an operations team that does not exist is refused, not answered as a dry run that would succeed',
      endpoints: ['processAccount'],
      async check(ctx) {
        const a = await ctx.given.staged();
        const bad = await ctx.given.process(
          a.supplier,
          a.ext,
          { dry_run: true, operations_team_name: `No such team ${ctx.ids.namespace}` },
          'a dry run with an unknown team',
        );
        ctx.expect.refused(bad, 'a dry run with an unknown team');
        const good = await ctx.given.process(
          a.supplier,
          a.ext,
          { dry_run: true },
          'the same dry run with the team that exists',
        );
        ctx.expect.status(good, 400, 'a dry run that would succeed (§4.1 process rule 2)');
        ctx.expect.that(
          shape(bad, {}) !== shape(good, {}),
          `the dry run with an unknown team got the very answer of the dry run that would succeed (${bad.status} ${bad.text.slice(0, 160)}): the team was not checked (§4.1 process rule 1; rule 2 runs the full creation)`,
          { res: bad, actual: bad.text.slice(0, 300), expected: 'an answer other than "would succeed"' },
        );
        await nothingCreated(ctx, a.supplier, a.ext);
      },
    },
    {
      id: 'migration.process.dry-run-false-string',
      spec: '§4.1 (dry_run: boolean, optional), §4.1 process rule 2, §7.1, §7.2',
      level: 'MUST',
      title:
        'dry_run sent as the string "false" is never a dry run: the account is created (201, the string read as false) or the request is refused with a §7.1 validation error and nothing is created',
      endpoints: ['processAccount', 'accountTransferStatus'],
      async check(ctx) {
        const a = await ctx.given.staged();
        const res = await ctx.given.process(a.supplier, a.ext, { dry_run: 'false' }, 'process with dry_run "false"');
        if (res.status === 201) {
          ctx.observe('dry_run "false" was read as false: the account was created.');
          return;
        }
        // §4.1 process rule 2: a dry run is "when dry_run is true"; the string "false" is false or not a boolean.
        ctx.expect.validationError(
          res,
          'process with dry_run "false" (not a boolean, §4.1: a validation error, §7.2 — never the dry-run answer of rule 2)',
        );
        await nothingCreated(ctx, a.supplier, a.ext);
      },
    },
    dryRunChecksSupplier('paused'),
    dryRunChecksSupplier('complete'),
    {
      id: 'migration.process.dry-run-imported-numbers',
      spec: '§4.1 process rule 3, §3 imported → imported',
      level: 'MUST',
      title: 'A dry run for an imported account answers 400 with the external and service account numbers',
      endpoints: ['processAccount'],
      async check(ctx) {
        const a = await ctx.given.imported();
        const res = await ctx.given.process(a.supplier, a.ext, { dry_run: true }, 'a dry run for the imported account');
        ctx.expect.status(res, 400);
        const body = ctx.expect.body(res, model.AlreadyImportedBody, 'already-imported body');
        ctx.expect.equal(
          {
            external_account_number: body.external_account_number,
            service_account_number: body.service_account_number,
          },
          { external_account_number: a.ext, service_account_number: a.number },
          'the 400 for an already imported account carries both numbers, dry run or not (§4.1 process rule 3)',
          res,
        );
      },
    },
    {
      id: 'migration.process.refuses-complete-supplier',
      spec: '§2.2 (Complete: accounts that try to migrate get an error), §4.1',
      level: 'MUST',
      title:
        'Processing an account whose supplier was marked Complete after it was staged is refused and creates nothing',
      needs: ['completeSupplier', 'completeSupplierStagedAccount', 'operationsTeam'],
      endpoints: ['processAccount'],
      async check(ctx) {
        const supplier = ctx.preconditions.completeSupplier;
        const ext = ctx.preconditions.completeSupplierStagedAccount;
        const res = await ctx.given.process(supplier, ext, {}, 'process for the complete supplier');
        ctx.expect.refused(res, 'processing for a Complete supplier');
        await nothingCreated(ctx, supplier, ext);
      },
    },
  ],
  { tags: ['dry-run'], needs: TO_IMPORT },
);
