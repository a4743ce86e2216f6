/** §4.2 / §8 historical billing documents (once per ledger). */
import type { RuleContext } from '../core/engine/context.js';
import { defineRules, type RuleInput } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import type { HttpResponse } from '../core/http/client.js';
import type { ImportedAccount } from '../core/engine/given.js';
import { expectedAttr, reportsDefectAt } from './attrs.js';
import { accountKey, errorsOf } from './support.js';

type DocumentType = 'PERIOD_BASED' | 'ITEM_BASED';

/** The billing documents template (every documented field), for one ledger of `a`, all of `type`. */
export function billingDocuments(ctx: RuleContext, a: ImportedAccount, ledgerCode: string, type: DocumentType) {
  return ctx.preconditions.payloads.billingDocuments(ctx.ids, accountKey(a.supplier, a.ext), ledgerCode, type);
}

/** An imported account with two ledgers, so rules can tell "per ledger" from "per account". */
async function accountWithTwoLedgers(ctx: RuleContext) {
  const account = ctx.given.account();
  const second = {
    ...structuredClone(account.ledgers![0]),
    ledger_code: ctx.ids.other('L'),
    current_statement_transactions: [],
    historical_statement_transactions: [],
  };
  account.ledgers = [account.ledgers![0], second];
  const a = await ctx.given.imported(account);
  return { a, ledgers: [account.ledgers[0].ledger_code!, second.ledger_code] };
}

function post(ctx: RuleContext, body: unknown, step: string): Promise<HttpResponse> {
  return ctx.api.call('createHistoricalBillingDocuments', { body, step });
}

export default defineRules(
  'billing',
  [
    ...(['PERIOD_BASED', 'ITEM_BASED'] as const).map(
      (type): RuleInput => ({
        id: `billing.create.${type === 'PERIOD_BASED' ? 'period-based' : 'item-based'}`,
        spec: '§4.2 historical billing documents',
        level: 'MUST',
        title: `${type === 'PERIOD_BASED' ? 'Period-based' : 'Item-based'} historical billing documents are imported: 201`,
        async check(ctx: RuleContext) {
          const a = await ctx.given.imported();
          const res = await post(
            ctx,
            billingDocuments(ctx, a, a.payload.ledgers![0].ledger_code!, type),
            `import ${type} documents`,
          );
          ctx.expect.status(res, 201);
        },
      }),
    ),
    {
      id: 'billing.create.empty-body',
      spec: '§4.2 historical billing documents (201, empty body)',
      // MUST, asserted as weakly as is certain: an empty body, or a JSON value that carries nothing
      // ({}, [], null, "") — a framework may serialise "nothing" so; content is what the spec rules out.
      level: 'MUST',
      title: 'A historical billing documents import answers with an empty body (no content)',
      async check(ctx) {
        const a = await ctx.given.imported();
        const res = await post(
          ctx,
          billingDocuments(ctx, a, a.payload.ledgers![0].ledger_code!, 'ITEM_BASED'),
          'import documents',
        );
        ctx.expect.status(res, 201);
        const text = res.text.trim();
        const empty = text === '' || ['{}', '[]', 'null', '""'].includes(text.replace(/\s+/g, ''));
        ctx.expect.that(
          empty,
          `the body must be empty (§4.2 "201, empty body"), got ${JSON.stringify(res.text.slice(0, 100))}`,
          { res },
        );
      },
    },
    ...(
      [
        ['PERIOD_BASED', 'PERIOD_BASED'],
        ['ITEM_BASED', 'ITEM_BASED'],
        ['ITEM_BASED', 'PERIOD_BASED'],
        ['PERIOD_BASED', 'ITEM_BASED'],
      ] as const
    ).map(
      ([first, second]): RuleInput => ({
        id: `billing.once-per-ledger.${first.split('_')[0].toLowerCase()}-then-${second.split('_')[0].toLowerCase()}`,
        spec: '§4.2 historical billing documents, §8',
        level: 'MUST',
        title: `After a ${first.toLowerCase().replace('_', '-')} import, a second import (${second.toLowerCase().replace('_', '-')}) for the same ledger is refused`,
        async check(ctx: RuleContext) {
          const a = await ctx.given.imported();
          const ledger = a.payload.ledgers![0].ledger_code!;
          ctx.expect.status(
            await post(ctx, billingDocuments(ctx, a, ledger, first), `first import (${first})`),
            201,
            'the first import',
          );
          ctx.expect.refused(
            await post(ctx, billingDocuments(ctx, a, ledger, second), `second import (${second}) for the same ledger`),
            'a second import for the same ledger',
          );
        },
      }),
    ),
    {
      id: 'billing.once-per-ledger.other-ledger',
      spec: '§4.2 historical billing documents, §8',
      level: 'MUST',
      title: 'The limit is per ledger: another ledger of the same account can still be imported',
      async check(ctx) {
        const { a, ledgers } = await accountWithTwoLedgers(ctx);
        ctx.expect.status(
          await post(ctx, billingDocuments(ctx, a, ledgers[0], 'PERIOD_BASED'), 'import for the first ledger'),
          201,
        );
        ctx.expect.status(
          await post(ctx, billingDocuments(ctx, a, ledgers[1], 'PERIOD_BASED'), 'import for the second ledger'),
          201,
          'the other ledger has no finalized document yet',
        );
      },
    },
    {
      id: 'billing.invalid-type.refused',
      spec: '§4.2 historical billing documents, §2.5, §7.2',
      level: 'MUST',
      title:
        'A billing_document_type other than ITEM_BASED or PERIOD_BASED is refused with 400, at the top level and per document',
      async check(ctx) {
        const a = await ctx.given.imported();
        const ledger = a.payload.ledgers![0].ledger_code!;
        const top = { ...billingDocuments(ctx, a, ledger, 'ITEM_BASED'), billing_document_type: 'MONTHLY' };
        ctx.expect.validationError(await post(ctx, top, 'top-level type MONTHLY'), 'a top-level type MONTHLY');
        const perDocument = billingDocuments(ctx, a, ledger, 'ITEM_BASED');
        (perDocument.historical_billing_documents[1] as Record<string, unknown>).billing_document_type = 'MONTHLY';
        const res = await post(ctx, perDocument, 'document type MONTHLY');
        ctx.expect.validationError(res, 'a document of type MONTHLY');
        const { attrs } = errorsOf(res);
        const path = 'historical_billing_documents.1.billing_document_type';
        if (attrs.length)
          ctx.expect.that(
            reportsDefectAt('createHistoricalBillingDocuments', attrs, path),
            `the error should point at ${expectedAttr('createHistoricalBillingDocuments', path)}, got ${JSON.stringify(attrs)}`,
            { res },
          );
        ctx.expect.status(
          await post(ctx, billingDocuments(ctx, a, ledger, 'ITEM_BASED'), 'a valid import afterwards'),
          201,
          'refused imports do not use up the ledger',
        );
      },
    },
  ],
  {
    endpoints: ['createHistoricalBillingDocuments'],
    tags: ['billing-documents'],
    needs: TO_IMPORT,
  },
);
