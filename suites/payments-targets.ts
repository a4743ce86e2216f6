/**
 * §2.7 payment instructions on what does not exist: an instruction the upstream vendor does not
 * know (a reference generated for this run, so no vendor can have it), an account that is staged
 * but not imported (§1, §4.2: data is added to an account that exists) and a business that was never
 * created (§1, §4.4: after a business exists, a payment instruction can be added for it).
 */
import type { RuleContext } from '../src/engine/context.js';
import { defineRules } from '../src/engine/rule.js';
import { TO_IMPORT } from '../src/engine/needs.js';
import type { HttpResponse } from '../src/http/client.js';
import { accountKey } from './support.js';

/** A reference no vendor can know: namespaced by this run. */
const unknownReference = (ctx: RuleContext) => `NOT-AT-VENDOR-${ctx.ids.other('R')}`;

function notAccepted(ctx: RuleContext, res: HttpResponse, what: string) {
  ctx.expect.that(
    res.status < 200 || res.status >= 300,
    `${what} must not be accepted, got ${res.status}: ${res.text.slice(0, 200)}`,
    { res, expected: 'not 2xx', actual: res.status },
  );
}

export default defineRules(
  'payments',
  [
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
        const { vendor, type } = ctx.preconditions.paymentInstruction;
        const reference = unknownReference(ctx);
        const res = await ctx.api.call('createPaymentInstruction', {
          body: { ...accountKey(a.supplier, a.ext), vendor, reference, type },
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
        const business = await ctx.given.business(1);
        const account = await ctx.given.imported(
          ctx.given.linkToContract(ctx.given.account(), business.contractIdentifiers[0]),
        );
        const { vendor, type } = ctx.preconditions.paymentInstruction;
        const reference = unknownReference(ctx);
        const res = await ctx.api.call('createBusinessPaymentInstruction', {
          body: {
            import_supplier_code: business.supplier,
            external_business_identifier: business.externalIdentifier,
            vendor,
            reference,
            type,
            accounts: [{ external_account_number: account.ext }],
          },
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
        const { vendor, type } = ctx.preconditions.paymentInstruction;
        const res = await ctx.api.call('createPaymentInstruction', {
          body: {
            ...accountKey(a.supplier, a.ext),
            vendor,
            reference: ctx.preconditions.nextValidPaymentReference(),
            type,
          },
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
        const { vendor, type } = ctx.preconditions.paymentInstruction;
        const res = await ctx.api.call('createBusinessPaymentInstruction', {
          body: {
            import_supplier_code: a.supplier,
            external_business_identifier: ctx.ids.businessIdentifier(),
            vendor,
            reference: ctx.preconditions.nextValidPaymentReference(),
            type,
            accounts: [{ external_account_number: a.ext }],
          },
          step: 'an instruction for a business that does not exist',
        });
        ctx.expect.refused(res, 'a payment instruction for a business that does not exist');
      },
    },
  ],
  { tags: ['payments'], needs: [...TO_IMPORT, 'paymentInstruction'] },
);
