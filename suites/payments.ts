/**
 * §2.7 payment instructions (§4.2 accounts, §4.4 businesses): created, vendor trouble, and what
 * does not exist — an instruction the upstream vendor does not know (a reference generated for this
 * run, so no vendor can have it), an account that is staged but not imported (§1, §4.2: data is
 * added to an account that exists) and a business that was never created (§1, §4.4). Every request
 * is built from the user's template, so that nothing but the one named thing is amiss.
 */
import type { RuleContext } from '../core/engine/context.js';
import type { CreatedBusiness, ImportedAccount } from '../core/engine/given.js';
import { defineRules } from '../core/engine/rule.js';
import type { Statement } from '../core/engine/traceability.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import type { HttpResponse } from '../core/http/client.js';
import { model } from '../core/spec/index.js';
import { accountKey } from './support.js';

/** The payment instruction template for account `a`, with the configured vendor and type (§2.7). */
function accountInstruction(ctx: RuleContext, a: Pick<ImportedAccount, 'supplier' | 'ext'>, reference: string) {
  const { vendor, type } = ctx.preconditions.paymentInstruction;
  return ctx.preconditions.payloads.request('payment_instruction', ctx.ids, {
    ...accountKey(a.supplier, a.ext),
    vendor,
    reference,
    type,
  });
}

/** A business (with `contracts` contracts), and an imported account linked to its first (§4.4 rule 2: business first). */
async function businessWithAccount(
  ctx: RuleContext,
  contracts?: number,
): Promise<{ business: CreatedBusiness; account: ImportedAccount }> {
  const business = await ctx.given.business(contracts);
  const account = await ctx.given.imported(
    ctx.given.linkToContract(ctx.given.account(), business.contractIdentifiers[0]),
  );
  return { business, account };
}

/** The business payment instruction template for `business`, covering `account` (§2.7). */
function businessInstruction(
  ctx: RuleContext,
  business: Pick<CreatedBusiness, 'supplier' | 'externalIdentifier'>,
  account: Pick<ImportedAccount, 'ext'>,
  reference: string,
) {
  const { vendor, type } = ctx.preconditions.paymentInstruction;
  return ctx.preconditions.payloads.request('business_payment_instruction', ctx.ids, {
    import_supplier_code: business.supplier,
    external_business_identifier: business.externalIdentifier,
    vendor,
    reference,
    type,
    accounts: [{ external_account_number: account.ext }],
  });
}

/** A reference no vendor can know: namespaced by this run. */
const unknownReference = (ctx: RuleContext) => `NOT-AT-VENDOR-${ctx.ids.other('R')}`;

function notAccepted(ctx: RuleContext, res: HttpResponse, what: string) {
  ctx.expect.that(
    res.status < 200 || res.status >= 300,
    `${what} must not be accepted, got ${res.status}: ${res.text.slice(0, 200)}`,
    { res, expected: 'not 2xx', actual: res.status },
  );
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
        ctx.preconditions.paymentInstruction.references[
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
      endpoints: ['createPaymentInstruction'],
      async check(ctx) {
        const a = await ctx.given.imported();
        const reference = ctx.preconditions.nextValidPaymentReference();
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
      endpoints: ['createBusinessPaymentInstruction'],
      async check(ctx) {
        const { business, account } = await businessWithAccount(ctx);
        const reference = ctx.preconditions.nextValidPaymentReference();
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
    {
      id: 'payments.account.unknown-reference-refused',
      spec: '§2.7 (the service calls the vendor to check that the instruction exists), §4.2',
      // MUST, asserted as "not accepted": the status for an instruction the vendor does not have is not shown.
      level: 'MUST',
      title:
        'A payment instruction whose reference the vendor does not know (generated per run) is not accepted for an account',
      endpoints: ['createPaymentInstruction'],
      async check(ctx) {
        const a = await ctx.given.imported();
        const reference = unknownReference(ctx);
        const res = await ctx.api.call('createPaymentInstruction', {
          body: accountInstruction(ctx, a, reference),
          step: `an instruction the vendor does not have (${reference})`,
        });
        notAccepted(ctx, res, 'an instruction that does not exist at the vendor');
        ctx.observe(`an unknown reference answered ${res.status}`);
      },
    },
    {
      id: 'payments.business.unknown-reference-refused',
      spec: '§2.7 (the service calls the vendor to check that the instruction exists), §4.4',
      level: 'MUST',
      title:
        'A payment instruction whose reference the vendor does not know (generated per run) is not accepted for a business',
      endpoints: ['createBusinessPaymentInstruction'],
      async check(ctx) {
        // A business with an account linked to it (§4.4 rule 2), so nothing but the reference is amiss.
        const { business, account } = await businessWithAccount(ctx, 1);
        const reference = unknownReference(ctx);
        const res = await ctx.api.call('createBusinessPaymentInstruction', {
          body: businessInstruction(ctx, business, account, reference),
          step: `a business instruction the vendor does not have (${reference})`,
        });
        notAccepted(ctx, res, 'a business instruction that does not exist at the vendor');
        ctx.observe(`an unknown reference answered ${res.status}`);
      },
    },
    {
      id: 'payments.account.staged-only-refused',
      spec: '§1, §4.2 (data is added to an imported account), §7.2 (404: account not found)',
      level: 'MUST',
      title: 'A payment instruction for an account that is staged but not imported is refused with a 4xx',
      needs: ['ongoingSupplier', 'paymentInstruction'],
      endpoints: ['createPaymentInstruction'],
      async check(ctx) {
        const a = await ctx.given.staged();
        const res = await ctx.api.call('createPaymentInstruction', {
          body: accountInstruction(ctx, a, ctx.preconditions.nextValidPaymentReference()),
          step: 'an instruction for a staged-only account',
        });
        ctx.expect.refused(res, 'a payment instruction for an account that does not exist yet');
      },
    },
    {
      id: 'payments.business.unknown-business-refused',
      spec: '§1 (after a business exists, a payment instruction can be added for it), §4.4',
      level: 'MUST',
      title: 'A business payment instruction for a business that was never created is refused with a 4xx',
      endpoints: ['createBusinessPaymentInstruction'],
      async check(ctx) {
        const a = await ctx.given.imported();
        const neverCreated = { supplier: a.supplier, externalIdentifier: ctx.ids.businessIdentifier() };
        const res = await ctx.api.call('createBusinessPaymentInstruction', {
          body: businessInstruction(ctx, neverCreated, a, ctx.preconditions.nextValidPaymentReference()),
          step: 'an instruction for a business that does not exist',
        });
        ctx.expect.refused(res, 'a payment instruction for a business that does not exist');
      },
    },
  ],
  { tags: ['payments'], needs: [...TO_IMPORT, 'paymentInstruction'] },
);

/** §4.2 payment instruction's rules, mapped beside the rules that check them (suites/traceability.ts). */
export const statements: Statement[] = [
  { section: '4.2', quote: ['Payment instruction for an account:'], descriptive: 'Introduces the rules below.' },
  {
    section: '4.2',
    quote: ['- 400 can mean persistent trouble reaching the upstream vendor.'],
    rules: ['payments.account.persistent-trouble'],
  },
  {
    section: '4.2',
    quote: ['- 500 can mean intermittent trouble reaching the vendor.'],
    rules: ['payments.account.intermittent-trouble'],
  },
];
