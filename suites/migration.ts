/**
 * §3 States and transitions, §4.1 Account migration: validate, stage, process — the state table of
 * §3 row by row, and the four process rules of §4.1.
 */
import { defineRules } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import type { RuleContext } from '../core/engine/context.js';
import type { HttpResponse } from '../core/http/client.js';
import { type AccountPayload, model } from '../core/spec/index.js';
import { alignNotes } from './notes.js';
import {
  accountKey,
  describeDifference,
  echoDifference,
  mentions,
  readListing,
  recordsFor,
  requestKinds,
  status,
} from './support.js';

const ACCOUNT_KINDS = requestKinds('validateAccount');

/** A payload §2.1 / §2.3 make invalid for any implementation: an impossible date. */
function invalidAccount(ctx: RuleContext) {
  const account = ctx.given.account();
  account.supply_addresses![0].customer_at_supply_address_from_date = '2023-02-30';
  return account;
}

/** After a refusal, nothing must exist: no import process, or one still UNKNOWN with no number. */
async function expectNoAccount(ctx: RuleContext, supplier: string, ext: string, mayBeStaged: boolean) {
  const res = await status(ctx, supplier, ext, 'check that no account was created');
  if (mayBeStaged && res.status === 200) {
    const body = ctx.expect.body(res, model.AccountTransferStatus, 'status');
    ctx.expect.equal(body.status, 'UNKNOWN', 'no account may exist, so the status is UNKNOWN (§3)', res);
    ctx.expect.equal(
      body.service_account_number,
      '',
      'the number is an empty string when no account exists (§4.3)',
      res,
    );
  } else {
    ctx.expect.status(res, mayBeStaged ? [200, 404] : 404, 'no import process may exist (§4.3)');
  }
}

/** §2.2: only an Ongoing supplier's accounts may migrate; staging for a Paused or Complete one is refused. */
function refusesSupplierState(state: 'paused' | 'complete') {
  const fixture = state === 'paused' ? 'pausedSupplier' : 'completeSupplier';
  const name = state === 'paused' ? 'Paused' : 'Complete';
  return {
    id: `migration.stage.refuses-${state}-supplier`,
    spec: '§2.2, §3, §4.1',
    level: 'MUST' as const,
    title: `Staging an account of a ${name} import supplier answers 400`,
    needs: [fixture] as const,
    endpoints: ['stageAccount'] as const,
    async check(ctx: RuleContext) {
      const account = ctx.given.account(ctx.preconditions[fixture]);
      const res = await ctx.api.call('stageAccount', { body: account, step: `stage for the ${state} supplier` });
      ctx.expect.status(res, 400);
      await expectNoAccount(ctx, account.import_supplier, account.external_account_number, false);
    },
  };
}

/** §4.1: stage answers {import_supplier, external_account_number}, naming the account it staged. */
function expectStageResponseNames(ctx: RuleContext, res: HttpResponse, account: AccountPayload) {
  const body = ctx.expect.body(res, model.StageAccountResponse, 'stage response');
  ctx.expect.equal(
    accountKey(body.import_supplier, body.external_account_number),
    accountKey(account.import_supplier, account.external_account_number),
    'the stage response names the account',
    res,
  );
}

export default defineRules(
  'migration',
  [
    // §4.1 validate ------------------------------------------------------------------------------
    {
      id: 'migration.validate.accepts-valid',
      spec: '§4.1',
      level: 'MUST',
      title: 'Validating a valid account payload answers 200 with the validated data as body',
      needs: ['ongoingSupplier'],
      endpoints: ['validateAccount'],
      // An instance of the echo relation (suites/relations-echo.ts).
      tags: ['relation:echo'],
      async check(ctx) {
        const account = ctx.given.account();
        const res = await ctx.api.call('validateAccount', { body: account, step: 'validate a complete account' });
        ctx.expect.status(res, 200);
        ctx.expect.body(res, model.ValidatedAccount, 'validated data');
      },
    },
    {
      id: 'migration.validate.echoes-data',
      spec: '§4.1 (200 with the validated data as body)',
      // MUST with the weakest certain reading: "the validated data" may be normalised (numbers,
      // paths), so values are not compared, but it is the data sent: every top-level field sent is in
      // it, and it names the same account.
      level: 'MUST',
      title:
        'The validated data carries every top-level field sent and names the same supplier and external account number',
      needs: ['ongoingSupplier'],
      endpoints: ['validateAccount'],
      async check(ctx) {
        const account = ctx.given.account();
        const res = await ctx.api.call('validateAccount', { body: account });
        ctx.expect.status(res, 200);
        const body = ctx.expect.body(res, model.ValidatedAccount, 'validated data') as Record<string, unknown>;
        const missing = Object.keys(account).filter((key) => !(key in body));
        ctx.expect.that(
          missing.length === 0,
          `the validated data must carry every top-level field sent, but lacks ${missing.join(', ')}`,
          { res, expected: Object.keys(account), actual: Object.keys(body) },
        );
        ctx.expect.equal(
          { import_supplier: body.import_supplier, external_account_number: body.external_account_number },
          accountKey(account.import_supplier, account.external_account_number),
          'the validated data',
          res,
        );
      },
    },
    {
      id: 'migration.validate.echo-fidelity',
      spec: '§4.1 (200 with the validated data as body), §9.2',
      level: 'MUST',
      title:
        'The validated data carries every field sent with an equal value, at every depth (extra fields allowed, §9.2)',
      needs: ['ongoingSupplier'],
      endpoints: ['validateAccount'],
      // An instance of the echo relation (suites/relations-echo.ts).
      tags: ['relation:echo'],
      async check(ctx) {
        const account = ctx.given.account();
        const res = await ctx.api.call('validateAccount', { body: account, step: 'validate a complete account' });
        ctx.expect.status(res, 200);
        const echoed = ctx.expect.body(res, model.ValidatedAccount, 'validated data');
        const d = echoDifference(account, echoed, { kinds: ACCOUNT_KINDS });
        ctx.expect.that(d === undefined, d ? describeDifference(d, 'the validated data must be the data sent') : '', {
          res,
          expected: d?.sent,
          actual: d?.echoed,
        });
      },
    },
    {
      id: 'migration.validate.stages-nothing',
      spec: '§4.1, §3, §4.3',
      level: 'MUST',
      title: 'Validation stages nothing: no import process exists and no listing shows the account afterwards',
      needs: ['ongoingSupplier'],
      endpoints: ['validateAccount'],
      async check(ctx) {
        const account = ctx.given.account();
        ctx.expect.status(await ctx.api.call('validateAccount', { body: account, step: 'validate' }), 200);
        const ext = account.external_account_number;
        ctx.expect.status(
          await status(ctx, account.import_supplier, ext, 'status after validating'),
          404,
          'no import process may exist after validation (§4.3)',
        );
        for (const which of ['all', 'pending', 'imported'] as const) {
          const read = await readListing(ctx, which, account.import_supplier, `${which} listing after validating`);
          ctx.expect.status(read.first, 200);
          ctx.expect.that(
            !mentions(read.items, ext),
            `the ${which} listing must not show ${ext}, which was only validated`,
            { res: read.pages.at(-1) },
          );
        }
      },
    },
    {
      id: 'migration.validate.refuses-invalid',
      spec: '§4.1, §7.1, §7.2',
      level: 'MUST',
      title: 'Validating an invalid payload answers 400 with the §7.1 validation error body',
      needs: ['ongoingSupplier'],
      endpoints: ['validateAccount'],
      async check(ctx) {
        const res = await ctx.api.call('validateAccount', {
          body: invalidAccount(ctx),
          step: 'validate an account with an impossible date',
        });
        ctx.expect.status(res, 400);
        ctx.expect.body(res, model.ValidationErrorBody, '§7.1 validation error body');
      },
    },

    // §3 stage --------------------------------------------------------------------------------
    {
      id: 'migration.stage.first-201',
      spec: '§3 none → staged, §4.1',
      level: 'MUST',
      title: 'Staging an account for the first time answers 201 with {import_supplier, external_account_number}',
      needs: ['ongoingSupplier'],
      endpoints: ['stageAccount'],
      async check(ctx) {
        const account = ctx.given.account();
        const res = await ctx.api.call('stageAccount', { body: account, step: 'first staging' });
        ctx.expect.status(res, 201);
        expectStageResponseNames(ctx, res, account);
      },
    },
    {
      id: 'migration.stage.update-200',
      spec: '§3 staged → staged, §4.1',
      level: 'MUST',
      title: 'Staging the same account again answers 200 with {import_supplier, external_account_number}',
      needs: ['ongoingSupplier'],
      endpoints: ['stageAccount'],
      async check(ctx) {
        const { payload } = await ctx.given.staged();
        const res = await ctx.api.call('stageAccount', {
          body: { ...payload, billing_name: 'Nombre actualizado' },
          step: 'stage again with changed data',
        });
        ctx.expect.status(res, 200);
        expectStageResponseNames(ctx, res, payload);
      },
    },
    {
      id: 'migration.stage.update-replaces-data',
      spec: '§3 staged → staged (data replaced), §1',
      // MUST: §3 states the data is replaced and §1 that the staged data is processed into the live
      // account, whose notes §4.2 notes rule 2 compares against.
      level: 'MUST',
      title: 'Staging again replaces the staged data: the created account carries the second payload',
      endpoints: ['stageAccount', 'processAccount', 'createNotes'],
      async check(ctx) {
        const first = ctx.given.account();
        const firstNote = ctx.ids.noteBody('first staging');
        const secondNote = ctx.ids.noteBody('second staging');
        first.notes = [{ body: firstNote }];
        await ctx.given.staged(first);
        const second = { ...first, notes: [{ body: secondNote }] };
        const res = await ctx.api.call('stageAccount', { body: second, step: 'stage again with another note' });
        ctx.expect.status(res, 200);
        const processed = await ctx.given.process(first.import_supplier, first.external_account_number);
        ctx.expect.status(processed, 201);
        const sent = [{ body: secondNote }, { body: firstNote }];
        const notes = await ctx.api.call('createNotes', {
          body: { ...accountKey(first.import_supplier, first.external_account_number), notes: sent },
          step: 'post both notes: the second exists, the first must be new',
        });
        ctx.expect.status(notes, 201);
        // Results are matched to the notes by body: their order is not stated.
        const result = alignNotes(sent, ctx.expect.body(notes, model.NotesResponse, 'notes response'));
        ctx.expect.equal(
          result.map((n) => n.status),
          ['NOTE_ALREADY_EXISTS', 'NOTE_CREATION_SUCCESS'],
          'the account has the note of the second payload and not the first',
          notes,
        );
      },
    },
    {
      id: 'migration.stage.refuses-invalid',
      spec: '§4.1, §7.1',
      level: 'MUST',
      title: 'Staging an invalid payload answers 400 and stages nothing',
      needs: ['ongoingSupplier'],
      endpoints: ['stageAccount'],
      async check(ctx) {
        const account = invalidAccount(ctx);
        const res = await ctx.api.call('stageAccount', {
          body: account,
          step: 'stage an account with an impossible date',
        });
        ctx.expect.status(res, 400);
        ctx.expect.body(res, model.ValidationErrorBody, '§7.1 validation error body');
        await expectNoAccount(ctx, account.import_supplier, account.external_account_number, false);
      },
    },
    {
      id: 'migration.stage.refuses-after-import',
      spec: '§3 imported → imported, §4.1',
      level: 'MUST',
      title: 'Staging an account that was already imported answers 400',
      endpoints: ['stageAccount'],
      async check(ctx) {
        const account = await ctx.given.imported();
        const res = await ctx.api.call('stageAccount', {
          body: account.payload,
          step: 'stage the imported account again',
        });
        ctx.expect.status(res, 400);
      },
    },
    {
      id: 'migration.stage.refuses-skipped',
      spec: '§3, §4.1',
      level: 'MUST',
      title: 'Staging an account marked to be skipped answers 400 and stages nothing',
      needs: ['ongoingSupplier', 'skippedAccount'],
      endpoints: ['stageAccount'],
      async check(ctx) {
        const account = { ...ctx.given.account(), external_account_number: ctx.preconditions.skippedAccount };
        const res = await ctx.api.call('stageAccount', { body: account, step: 'stage the skipped account' });
        ctx.expect.status(res, 400);
        const pending = await readListing(ctx, 'pending', account.import_supplier, 'pending listing');
        ctx.expect.status(pending.first, 200);
        ctx.expect.that(
          recordsFor(pending.items, account.external_account_number).length === 0,
          'the skipped account must not be pending import',
          { res: pending.first },
        );
      },
    },
    refusesSupplierState('paused'),
    refusesSupplierState('complete'),

    {
      id: 'migration.stage.refuses-update-paused-supplier',
      spec: '§2.2 (Paused: accounts that try to migrate get an error), §4.1',
      level: 'MUST',
      title: 'Staging again an account whose supplier was paused after it was staged answers 400',
      needs: ['pausedSupplier', 'pausedSupplierStagedAccount'],
      endpoints: ['stageAccount'],
      async check(ctx) {
        const account = {
          ...ctx.given.account(ctx.preconditions.pausedSupplier),
          external_account_number: ctx.preconditions.pausedSupplierStagedAccount,
        };
        ctx.expect.status(
          await ctx.api.call('stageAccount', { body: account, step: 'stage again for the paused supplier' }),
          400,
        );
      },
    },

    // §3 process -----------------------------------------------------------------------------
    {
      id: 'migration.process.refuses-paused-supplier',
      spec: '§2.2 (Paused: accounts that try to migrate get an error), §4.1',
      level: 'MUST',
      title: 'Processing an account whose supplier was paused after it was staged is refused and creates nothing',
      needs: ['pausedSupplier', 'pausedSupplierStagedAccount', 'operationsTeam'],
      endpoints: ['processAccount'],
      async check(ctx) {
        const supplier = ctx.preconditions.pausedSupplier;
        const ext = ctx.preconditions.pausedSupplierStagedAccount;
        const res = await ctx.given.process(supplier, ext, {}, 'process for the paused supplier');
        ctx.expect.refused(res, 'processing for a paused supplier');
        await expectNoAccount(ctx, supplier, ext, true);
      },
    },
    {
      id: 'migration.process.creates-account',
      spec: '§3 staged → imported, §4.1',
      level: 'MUST',
      title: 'Processing staged data answers 201 with {service_account_number}',
      endpoints: ['processAccount'],
      async check(ctx) {
        const account = await ctx.given.staged();
        const res = await ctx.given.process(account.supplier, account.ext, {}, 'process the staged account');
        ctx.expect.status(res, 201);
        ctx.expect.body(res, model.ProcessAccountResponse, 'process response');
      },
    },
    {
      id: 'migration.process.status-completed',
      spec: '§3, §4.3',
      level: 'MUST',
      title: 'After processing, the status is COMPLETED with the number the process returned',
      endpoints: ['processAccount', 'accountTransferStatus'],
      async check(ctx) {
        const account = await ctx.given.imported();
        const res = await status(ctx, account.supplier, account.ext, 'status of the created account');
        ctx.expect.status(res, 200);
        const body = ctx.expect.body(res, model.AccountTransferStatus, 'status');
        ctx.expect.equal(
          body,
          { ...body, status: 'COMPLETED', service_account_number: account.number },
          'the status of the created account',
          res,
        );
      },
    },
    {
      id: 'migration.process.listed-as-created',
      spec: '§3, §4.3, §2.9',
      level: 'MUST',
      title: 'A created account is in the all-accounts listing with its number and creation time, and not pending',
      endpoints: ['processAccount', 'allAccountImportProcesses', 'pendingAccountImportProcesses'],
      async check(ctx) {
        const account = await ctx.given.imported();
        const read = await readListing(ctx, 'all', account.supplier, 'all listing');
        const all = read.first;
        ctx.expect.status(all, 200);
        ctx.expect.body(all, model.AllAccountImportProcesses, 'all listing');
        const records = recordsFor(read.items, account.ext);
        ctx.expect.equal(records.length, 1, `the all listing shows ${account.ext} once`, all);
        ctx.expect.equal(records[0].service_account_number, account.number, 'its service_account_number', all);
        ctx.expect.that(records[0].account_created_at !== null, 'a created account has an account_created_at (§2.9)', {
          res: all,
          actual: records[0],
        });
        const pending = await readListing(ctx, 'pending', account.supplier, 'pending listing');
        ctx.expect.status(pending.first, 200);
        ctx.expect.equal(
          recordsFor(pending.items, account.ext).length,
          0,
          `the pending listing must not show the created account ${account.ext}`,
          pending.first,
        );
      },
    },
    {
      id: 'migration.process.listed-as-imported',
      spec: '§4.3',
      level: 'SHOULD',
      why: 'The imported listing answers 200 but its body is "not shown"; the account is looked for anywhere in it.',
      title: 'A created account appears in the imported listing',
      endpoints: ['importedAccountImportProcesses'],
      async check(ctx) {
        const account = await ctx.given.imported();
        const read = await readListing(ctx, 'imported', account.supplier, 'imported listing');
        ctx.expect.status(read.first, 200);
        ctx.expect.that(
          mentions(read.items, account.ext),
          `the imported listing should mention ${account.ext} (on any of its ${read.pages.length} page(s))`,
          { res: read.pages.at(-1) },
        );
      },
    },
    {
      id: 'migration.process.refuses-not-staged',
      spec: '§4.1 process rule 1',
      level: 'MUST',
      title: 'Processing an account whose data was never staged is refused and creates nothing',
      endpoints: ['processAccount'],
      async check(ctx) {
        const supplier = ctx.preconditions.ongoingSupplier;
        const ext = ctx.ids.externalAccountNumber();
        const res = await ctx.given.process(supplier, ext, {}, 'process an account that was never staged');
        ctx.expect.refused(res, 'processing unstaged data');
        await expectNoAccount(ctx, supplier, ext, false);
      },
    },
    {
      id: 'migration.process.refuses-unknown-team',
      spec: '§4.1 process rule 1',
      level: 'MUST',
      title: 'Processing with an operations team that does not exist is refused and leaves the account pending',
      endpoints: ['processAccount'],
      async check(ctx) {
        const account = await ctx.given.staged();
        const res = await ctx.given.process(
          account.supplier,
          account.ext,
          { operations_team_name: `No such team ${ctx.ids.namespace}` },
          'process with an unknown team',
        );
        ctx.expect.refused(res, 'processing with an unknown team');
        await expectNoAccount(ctx, account.supplier, account.ext, true);
        const pending = await readListing(ctx, 'pending', account.supplier);
        ctx.expect.equal(
          recordsFor(pending.items, account.ext).length,
          1,
          'the account is still pending import',
          pending.first,
        );
      },
    },
    {
      id: 'migration.process.dry-run',
      spec: '§4.1 process rule 2, §3 staged → staged',
      level: 'MUST',
      title: 'A dry run that would succeed answers 400, creates nothing, and a real process still succeeds',
      endpoints: ['processAccount'],
      async check(ctx) {
        const account = await ctx.given.staged();
        const dry = await ctx.given.process(account.supplier, account.ext, { dry_run: true }, 'dry run');
        ctx.expect.status(dry, 400, 'a dry run that would succeed');
        await expectNoAccount(ctx, account.supplier, account.ext, true);
        const pending = await readListing(ctx, 'pending', account.supplier, 'pending listing after the dry run');
        ctx.expect.equal(
          recordsFor(pending.items, account.ext).length,
          1,
          'the account is still pending import after the dry run',
          pending.first,
        );
        const all = await readListing(ctx, 'all', account.supplier, 'all listing after the dry run');
        const record = recordsFor(all.items, account.ext)[0];
        ctx.expect.that(
          record !== undefined && record.service_account_number === null,
          'the all listing shows the account without a number after the dry run',
          { res: all.first, actual: record },
        );
        const real = await ctx.given.process(account.supplier, account.ext, {}, 'real process after the dry run');
        ctx.expect.status(real, 201, 'the real process after a dry run');
      },
    },
    {
      id: 'migration.process.dry-run-false',
      spec: '§4.1 process rule 2',
      level: 'MUST',
      title: 'dry_run: false processes for real (201)',
      endpoints: ['processAccount'],
      async check(ctx) {
        const account = await ctx.given.staged();
        const res = await ctx.given.process(
          account.supplier,
          account.ext,
          { dry_run: false },
          'process with dry_run false',
        );
        ctx.expect.status(res, 201);
        ctx.expect.body(res, model.ProcessAccountResponse, 'process response');
      },
    },
    {
      id: 'migration.process.refuses-second',
      spec: '§4.1 process rule 3, §3 imported → imported',
      level: 'MUST',
      title: 'Processing an imported account again answers 400 with its external and service account numbers',
      endpoints: ['processAccount'],
      async check(ctx) {
        const account = await ctx.given.imported();
        const res = await ctx.given.process(account.supplier, account.ext, {}, 'process the imported account again');
        ctx.expect.status(res, 400);
        const body = ctx.expect.body(res, model.AlreadyImportedBody, 'already-imported body');
        ctx.expect.equal(
          {
            external_account_number: body.external_account_number,
            service_account_number: body.service_account_number,
          },
          { external_account_number: account.ext, service_account_number: account.number },
          'the 400 names the account and the number it was created with',
          res,
        );
      },
    },
    {
      id: 'migration.process.refuses-second-dry-run',
      spec: '§3 imported → imported, §4.1 process rule 3',
      level: 'MUST',
      title: 'A dry run for an imported account answers 400 and changes nothing',
      endpoints: ['processAccount'],
      async check(ctx) {
        const account = await ctx.given.imported();
        const res = await ctx.given.process(
          account.supplier,
          account.ext,
          { dry_run: true },
          'dry run for the imported account',
        );
        ctx.expect.status(res, 400);
        const after = await status(ctx, account.supplier, account.ext, 'status afterwards');
        const body = ctx.expect.body(after, model.AccountTransferStatus, 'status');
        ctx.expect.equal(
          [body.status, body.service_account_number],
          ['COMPLETED', account.number],
          'the account is still the one created',
          after,
        );
      },
    },
  ],
  { needs: TO_IMPORT },
);
