/** §2.7 payment instructions (§4.2 accounts, §4.4 businesses) and §2.8 / §4.4 businesses. */
import type { RuleContext } from '../src/engine/context.js';
import type { CreatedBusiness, ImportedAccount } from '../src/engine/given.js';
import { defineRules } from '../src/engine/rule.js';
import type { HttpResponse } from '../src/http/client.js';
import { model } from '../src/spec/index.js';
import { expectedAttr, reportsDefectAt } from './attrs.js';
import { accountKey } from './support.js';

/** The payment instruction template for account `a`, with the configured vendor and type (§2.7). */
function accountInstruction(ctx: RuleContext, a: ImportedAccount, reference: string) {
  const { vendor, type } = ctx.fixtures.paymentInstruction;
  return ctx.fixtures.payloads.request('payment_instruction', ctx.ids, {
    ...accountKey(a.supplier, a.ext),
    vendor,
    reference,
    type,
  });
}

/** A business, and an imported account linked to its first contract (§4.4 rule 2: business first). */
async function businessWithAccount(ctx: RuleContext): Promise<{ business: CreatedBusiness; account: ImportedAccount }> {
  const business = await ctx.given.business();
  const account = await ctx.given.imported(
    ctx.given.linkToContract(ctx.given.account(), business.contractIdentifiers[0]),
  );
  return { business, account };
}

/** The business payment instruction template for `business`, covering `account` (§2.7). */
function businessInstruction(ctx: RuleContext, business: CreatedBusiness, account: ImportedAccount, reference: string) {
  const { vendor, type } = ctx.fixtures.paymentInstruction;
  return ctx.fixtures.payloads.request('business_payment_instruction', ctx.ids, {
    import_supplier_code: business.supplier,
    external_business_identifier: business.externalIdentifier,
    vendor,
    reference,
    type,
    accounts: [{ external_account_number: account.ext }],
  });
}

/**
 * §7.2 (and §4.4 rule 3 for a business): trouble reaching the payment vendor answers 400 when it
 * persists, 500 when it is intermittent, so that the caller retries the same request.
 */
function vendorTrouble(owner: 'account' | 'business', trouble: 'persistent' | 'intermittent') {
  const endpoint = owner === 'account' ? 'createPaymentInstruction' : 'createBusinessPaymentInstruction';
  const what = `trouble reaching the payment vendor answers ${trouble === 'persistent' ? '400' : '500 (so the request is retried as it is)'}`;
  return {
    id: `payments.${owner}.${trouble}-trouble`,
    spec: owner === 'account' ? '§4.2 payment instruction, §7.2' : '§4.4 rule 3, §7.2',
    level: 'MUST' as const,
    title:
      owner === 'account'
        ? `${trouble === 'persistent' ? 'Persistent' : 'Intermittent'} ${what}`
        : `For a business, ${trouble} ${what}`,
    needs: [
      'ongoingSupplier',
      'operationsTeam',
      'paymentInstruction',
      trouble === 'persistent' ? 'vendorPersistentFailure' : 'vendorIntermittentFailure',
    ] as const,
    endpoints: [endpoint] as const,
    async check(ctx: RuleContext) {
      const reference =
        ctx.fixtures.paymentInstruction.references[
          trouble === 'persistent' ? 'persistent_failure' : 'intermittent_failure'
        ]!;
      const step = `an instruction the vendor has ${trouble} trouble with`;
      let res: HttpResponse;
      if (owner === 'account') {
        res = await ctx.api.call(endpoint, {
          body: accountInstruction(ctx, await ctx.given.imported(), reference),
          step,
        });
      } else {
        const { business, account } = await businessWithAccount(ctx);
        res = await ctx.api.call(endpoint, { body: businessInstruction(ctx, business, account, reference), step });
      }
      ctx.expect.status(res, trouble === 'persistent' ? 400 : 500);
    },
  };
}

export default defineRules(
  'payments',
  [
    {
      id: 'payments.account.created',
      spec: '§4.2 payment instruction, §2.7',
      level: 'MUST',
      title:
        'A payment instruction that exists upstream is added to an account: 201 {service_account_number, reference}',
      needs: ['ongoingSupplier', 'operationsTeam', 'paymentInstruction'],
      endpoints: ['createPaymentInstruction'],
      async check(ctx) {
        const a = await ctx.given.imported();
        const reference = ctx.fixtures.nextValidPaymentReference();
        const res = await ctx.api.call('createPaymentInstruction', {
          body: accountInstruction(ctx, a, reference),
          step: 'add a payment instruction',
        });
        ctx.expect.status(res, 201);
        const body = ctx.expect.body(res, model.PaymentInstructionResponse, 'payment instruction response');
        ctx.expect.equal(
          [body.service_account_number, body.reference],
          [a.number, reference],
          "the account's number and the reference",
          res,
        );
      },
    },
    vendorTrouble('account', 'persistent'),
    vendorTrouble('account', 'intermittent'),
    {
      id: 'payments.business.created',
      spec: '§4.4 business payment instruction, §2.7',
      level: 'MUST',
      title: 'A payment instruction is added to a business: 201 {reference, external_business_identifier}',
      needs: ['ongoingSupplier', 'operationsTeam', 'paymentInstruction'],
      endpoints: ['createBusinessPaymentInstruction'],
      async check(ctx) {
        const { business, account } = await businessWithAccount(ctx);
        const reference = ctx.fixtures.nextValidPaymentReference();
        const res = await ctx.api.call('createBusinessPaymentInstruction', {
          body: businessInstruction(ctx, business, account, reference),
          step: 'add a business payment instruction',
        });
        ctx.expect.status(res, 201);
        const body = ctx.expect.body(
          res,
          model.BusinessPaymentInstructionResponse,
          'business payment instruction response',
        );
        ctx.expect.equal(
          [body.reference, body.external_business_identifier],
          [reference, business.externalIdentifier],
          'the reference and the business',
          res,
        );
      },
    },
    vendorTrouble('business', 'persistent'),
    vendorTrouble('business', 'intermittent'),
  ],
  { tags: ['payments'] },
);

export const businessRules = defineRules(
  'business',
  [
    {
      id: 'business.create.created',
      spec: '§4.4, §2.8',
      level: 'MUST',
      title:
        'A business with its contracts is created: 201 {service_business_id: integer, external_business_identifier}',
      needs: ['ongoingSupplier'],
      async check(ctx) {
        const business = ctx.given.businessPayload(2);
        const res = await ctx.api.call('createBusiness', {
          body: business,
          step: 'create a business with two contracts',
        });
        ctx.expect.status(res, 201);
        const body = ctx.expect.body(res, model.BusinessResponse, 'business response');
        ctx.expect.equal(
          body.external_business_identifier,
          business.external_business_identifier,
          'external_business_identifier',
          res,
        );
      },
    },
    {
      id: 'business.create.all-contracts',
      spec: '§4.4 rule 1, §2.3',
      level: 'MUST',
      title: 'Every contract of the business payload exists afterwards: accounts can link to each of them',
      needs: ['ongoingSupplier', 'operationsTeam'],
      endpoints: ['createBusiness', 'stageAccount', 'processAccount'],
      async check(ctx) {
        const business = await ctx.given.business(2);
        for (const contract of business.contractIdentifiers) {
          const account = ctx.given.linkToContract(ctx.given.account(), contract);
          ctx.expect.status(
            await ctx.api.call('validateAccount', { body: account, step: `validate an account linked to ${contract}` }),
            200,
            `an account linked to contract ${contract}`,
          );
          await ctx.given.imported(account);
        }
      },
    },
    {
      id: 'business.duplicate.not-created-twice',
      spec: '§2.8 (unique by external identifier and key attributes)',
      level: 'MUST',
      title:
        'Sending the same business again does not create a second one: a 4xx, or a 2xx naming the same service_business_id',
      needs: ['ongoingSupplier'],
      async check(ctx) {
        const business = await ctx.given.business(1);
        const res = await ctx.api.call('createBusiness', {
          body: business.payload,
          step: 'the same business payload again',
        });
        if (res.status >= 400 && res.status < 500) return;
        ctx.expect.status(
          res,
          [200, 201],
          'a repeated business is refused (4xx) or answered with the existing business',
        );
        const body = ctx.expect.body(res, model.BusinessResponse, 'business response');
        ctx.expect.equal(
          body.service_business_id,
          business.serviceBusinessId,
          'the existing business, not a new one',
          res,
        );
      },
    },
    {
      id: 'business.invalid.refused',
      spec: '§2.8, §7.1',
      level: 'MUST',
      title:
        'A business with a malformed contract date is refused with 400, with attr at the field (or under non_field_errors, §7.1)',
      needs: ['ongoingSupplier'],
      async check(ctx) {
        const business = ctx.given.businessPayload(2);
        business.business!.business_contracts![1].versions![1] = {
          ...business.business!.business_contracts![1].versions![1],
          applicable_at_date: '2024-13-01',
        };
        const res = await ctx.api.call('createBusiness', {
          body: business,
          step: 'a contract version with an impossible date',
        });
        ctx.expect.status(res, 400);
        const body = ctx.expect.body(res, model.ValidationErrorBody, '§7.1 validation error body');
        const path = 'business.business_contracts.1.versions.1.applicable_at_date';
        const attrs = body.errors.map((e) => e.attr);
        ctx.expect.that(
          reportsDefectAt('createBusiness', attrs, path),
          `an error must point at ${expectedAttr('createBusiness', path)}, got ${JSON.stringify(attrs)}`,
          { res },
        );
      },
    },
    {
      id: 'business.link.unknown-contract',
      spec: '§2.3 (business.business_contract_identifier), §4.4 rule 2',
      level: 'MUST',
      title: 'An account naming a contract identifier that no business has is refused, and no account is created',
      needs: ['ongoingSupplier', 'operationsTeam'],
      endpoints: ['validateAccount', 'stageAccount', 'processAccount'],
      async check(ctx) {
        const account = ctx.given.linkToContract(ctx.given.account(), ctx.ids.contractIdentifier());
        // Where the link is checked (validate, stage or process) is not shown; it must be refused at one of them.
        const validate = await ctx.api.call('validateAccount', {
          body: account,
          step: 'validate with an unknown contract',
        });
        if (validate.status === 400) return;
        const stage = await ctx.api.call('stageAccount', { body: account, step: 'stage with an unknown contract' });
        if (stage.status === 400) return;
        ctx.expect.status(stage, [200, 201], 'staging');
        const processed = await ctx.given.process(
          account.import_supplier,
          account.external_account_number,
          {},
          'process with an unknown contract',
        );
        ctx.expect.that(
          processed.status >= 400 && processed.status < 500,
          `an account linked to an unknown contract must be refused, but validate (${validate.status}), stage (${stage.status}) and process (${processed.status}) all accepted it`,
          { res: processed },
        );
      },
    },
    {
      id: 'business.link.known-contract',
      spec: '§2.3 (business.business_contract_identifier), §4.4 rule 2',
      level: 'MUST',
      title: 'An account naming the contract of a business created earlier is validated, staged and processed',
      needs: ['ongoingSupplier', 'operationsTeam'],
      endpoints: ['validateAccount', 'stageAccount', 'processAccount'],
      async check(ctx) {
        const business = await ctx.given.business(1);
        const account = ctx.given.linkToContract(ctx.given.account(), business.contractIdentifiers[0]);
        ctx.expect.status(
          await ctx.api.call('validateAccount', { body: account, step: 'validate a linked account' }),
          200,
        );
        ctx.expect.status(await ctx.api.call('stageAccount', { body: account, step: 'stage a linked account' }), 201);
        ctx.expect.status(
          await ctx.given.process(
            account.import_supplier,
            account.external_account_number,
            {},
            'process a linked account',
          ),
          201,
        );
      },
    },
    {
      id: 'business.same-identifier-other-attributes',
      spec: '§2.8 (uniqueness)',
      level: 'INFO',
      why: 'Uniqueness is by identifier and key attributes together; what a same identifier with other attributes gives is not shown.',
      title: 'What the service does with a business that reuses an external identifier with another name',
      needs: ['ongoingSupplier'],
      async check(ctx) {
        const business = await ctx.given.business(1);
        const renamed = {
          ...business.payload,
          business: {
            ...business.payload.business!,
            company_name: `${business.payload.business!.company_name} (renamed)`,
            business_contracts: [],
          },
        };
        const res = await ctx.api.call('createBusiness', {
          body: renamed,
          step: 'the same identifier with another name',
        });
        const id = res.isJson ? (res.json() as { service_business_id?: unknown }).service_business_id : undefined;
        ctx.observe(
          res.status === 201
            ? `created${id !== business.serviceBusinessId ? ' a second business' : ' (same id)'}`
            : `answered ${res.status}`,
        );
      },
    },
  ],
  { endpoints: ['createBusiness'], tags: ['business'] },
);
