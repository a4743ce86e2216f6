/** §7.1 validation error body, §7.2 status codes of the §4.2 endpoints. */
import type { RuleContext } from '../core/engine/context.js';
import { setAtPath } from '../core/spec/paths.js';
import { defineRules, type RuleInput } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import { endpointSlug, model } from '../core/spec/index.js';
import { sameDefectsAsValidate } from './attrs.js';
import { CATALOGUE, type Catalogue } from '../core/engine/drivers.js';
import { accountKey, sampleRequest } from './support.js';

/** An account with three defects at nested, non-zero indexes (and the same account without them). */
function accountWithThreeDefects(ctx: RuleContext) {
  const account = ctx.given.account();
  account.customers = [...account.customers!, { ...structuredClone(account.customers![0]) }];
  const points = account.supply_addresses![0].supply_points!;
  points.push({ ...structuredClone(points[0]), identifier: ctx.ids.supplyPointIdentifier() });
  const txs = account.ledgers![0].current_statement_transactions!;
  while (txs.length < 3) txs.push({ ...structuredClone(txs[0]), transaction_id: ctx.ids.other('T') });
  const valid = structuredClone(account);
  const paths = [
    `customers.${account.customers.length - 1}.email`,
    `supply_addresses.0.supply_points.${points.length - 1}.supply_type`,
    'ledgers.0.current_statement_transactions.2.transaction_date',
  ];
  const values = ['second.customer.example.com', 'STEAM', '2024-02-31'];
  paths.forEach((path, i) => setAtPath(account, path, values[i]));
  return { account, paths, defects: { valid, values } };
}

/**
 * One SHOULD rule per endpoint of the catalogue about an imported account whose own 404 the spec
 * does not document (notes states it, and notes.* judge it at MUST): "account not found" gives 404
 * by the §7.2 table alone. Those whose payload the spec shows come first, then those that stand on
 * a configured template.
 */
export const notFoundRules = (c: Catalogue = CATALOGUE): RuleInput[] =>
  c.endpoints
    .filter((e) => c.drivers[e.id].scope === 'imported' && !e.responses.some((r) => r.status === 404))
    .sort((a, b) => Number(!!c.drivers[a.id].sampleNeeds) - Number(!!c.drivers[b.id].sampleNeeds))
    .map(
      (e): RuleInput => ({
        id: `errors.404.${endpointSlug(e.id)}`,
        spec: '§7.2 (404: account not found), §1',
        level: 'SHOULD',
        why: 'The spec states the 404 for the notes endpoint; for the other endpoints "account not found" gives 404 by the status code table.',
        title: `${e.path} answers 404 for an account that does not exist`,
        // A payload the spec does not show (agreements, supply points) comes from its template: without
        // it the request could be refused for its shape before the account is looked up, which is legal.
        needs: ['ongoingSupplier', ...(c.drivers[e.id].sampleNeeds ?? [])],
        endpoints: [e.id],
        async check(ctx) {
          const res = await ctx.api.call(e.id, {
            ...c.drivers[e.id].sample(ctx),
            step: 'a request for an account that does not exist',
          });
          ctx.expect.status(res, 404);
        },
      }),
    );

export default defineRules(
  'errors',
  [
    {
      id: 'errors.body.shape',
      spec: '§7.1',
      level: 'MUST',
      title: 'A validation error is 400 {detail, code, errors: [{detail, code, attr}]}, all strings',
      needs: TO_IMPORT,
      endpoints: ['validateAccount', 'stageAccount', 'createNotes', 'createBusiness'],
      async check(ctx) {
        const { account } = accountWithThreeDefects(ctx);
        const a = await ctx.given.imported();
        for (const [endpoint, body] of [
          ['validateAccount', account],
          ['stageAccount', account],
          ['createNotes', { ...accountKey(a.supplier, a.ext), notes: [{ body: 'x', created_at: 'soon' }] }],
          [
            'createBusiness',
            {
              ...ctx.given.businessPayload(1),
              business: {
                ...ctx.given.businessPayload(1).business!,
                business_contracts: [{ identifier: ctx.ids.contractIdentifier(), valid_from_date: '01/01/2024' }],
              },
            },
          ],
        ] as const) {
          const res = await ctx.api.call(endpoint, { body, step: `an invalid ${endpoint} request` });
          ctx.expect.status(res, 400, endpoint);
          const parsed = ctx.expect.body(res, model.ValidationErrorBody, `§7.1 body of ${endpoint}`);
          ctx.expect.that(
            parsed.errors.length > 0,
            `the errors list of ${endpoint} must describe the offending input`,
            { res },
          );
        }
      },
    },
    {
      id: 'errors.attr.zero-based-nested',
      spec: '§7.1 (attr)',
      level: 'MUST',
      title:
        'attr is a dot-delimited path with zero-based indexes: one defect at a time at customers.1.email, supply_addresses.0.supply_points.1.supply_type, ….2.transaction_date',
      endpoints: ['validateAccount'],
      async check(ctx) {
        // §7.1 never says every error of a payload is reported, so each defect is sent alone: its
        // payload has one offending input, and the attr of an errors item must be the path to it.
        const { paths, defects } = accountWithThreeDefects(ctx);
        for (const [i, path] of paths.entries()) {
          const account = structuredClone(defects.valid);
          setAtPath(account, path, defects.values[i]);
          const res = await ctx.api.call('validateAccount', {
            body: account,
            step: `validate an account with one defect at ${path}`,
          });
          ctx.expect.status(res, 400, `a defect at ${path}`);
          const attrs = ctx.expect.body(res, model.ValidationErrorBody, '§7.1 body').errors.map((e) => e.attr);
          ctx.expect.that(
            attrs.includes(path),
            `an errors item must have attr ${path} (dot-delimited, zero-based), got ${JSON.stringify(attrs)}`,
            { res, expected: path, actual: attrs },
          );
        }
      },
    },
    {
      id: 'errors.stage-same-as-validate',
      spec: '§4.1 (stage is validated by the same rules as validate), §7.1',
      level: 'MUST',
      title: 'Stage refuses what validate refuses, with the same attrs (or under non_field_errors, §7.1)',
      endpoints: ['validateAccount', 'stageAccount'],
      async check(ctx) {
        const { account } = accountWithThreeDefects(ctx);
        const attrs = async (endpoint: 'validateAccount' | 'stageAccount') => {
          const res = await ctx.api.call(endpoint, { body: account, step: endpoint });
          ctx.expect.status(res, 400, endpoint);
          return ctx.expect
            .body(res, model.ValidationErrorBody, '§7.1 body')
            .errors.map((e) => e.attr)
            .sort();
        };
        const stage = await attrs('stageAccount');
        const validate = await attrs('validateAccount');
        ctx.expect.that(
          sameDefectsAsValidate(stage, validate),
          `stage must report what validate reports (the same attrs, or non_field_errors), got stage ${JSON.stringify(stage)} and validate ${JSON.stringify(validate)}`,
          { expected: validate, actual: stage },
        );
      },
    },
    {
      id: 'errors.codes.stable',
      spec: '§7.1 (code is stable)',
      level: 'MUST',
      title: 'The same invalid input gives the same errors codes every time',
      endpoints: ['validateAccount'],
      async check(ctx) {
        const { account } = accountWithThreeDefects(ctx);
        const codes = async (n: number) => {
          const res = await ctx.api.call('validateAccount', { body: account, step: `validate, attempt ${n}` });
          ctx.expect.status(res, 400);
          return ctx.expect
            .body(res, model.ValidationErrorBody, '§7.1 body')
            .errors.map((e) => `${e.attr} ${e.code}`)
            .sort();
        };
        ctx.expect.equal(await codes(2), await codes(1), 'the (attr, code) pairs of two identical requests');
      },
    },
    {
      id: 'errors.code.account-failed-validation',
      spec: '§7.1',
      level: 'INFO',
      why: 'account_failed_validation is shown as "one example" of the top-level code; another code is a legal choice.',
      title: 'The top-level code of an account validation failure (account_failed_validation is the example)',
      endpoints: ['validateAccount'],
      async check(ctx) {
        const res = await ctx.api.call('validateAccount', {
          body: accountWithThreeDefects(ctx).account,
          step: 'validate an invalid account',
        });
        ctx.expect.status(res, 400);
        const { code } = ctx.expect.body(res, model.ValidationErrorBody, '§7.1 body');
        ctx.observe(
          code === 'account_failed_validation' ? 'the example code account_failed_validation' : `another code: ${code}`,
        );
      },
    },
    {
      id: 'errors.code.invalid-phone-number',
      spec: '§7.1',
      level: 'INFO',
      why: 'invalid_phone_number is shown as "an example" of an item code; another code is a legal choice.',
      title: 'The code of a malformed landline (invalid_phone_number is the example)',
      endpoints: ['validateAccount'],
      async check(ctx) {
        const account = ctx.given.account();
        account.customers![0].landline = 'not a phone';
        const res = await ctx.api.call('validateAccount', { body: account, step: 'validate a malformed landline' });
        const item =
          res.status === 400
            ? ctx.expect
                .body(res, model.ValidationErrorBody, '§7.1 body')
                .errors.find((e) => e.attr === 'customers.0.landline')
            : undefined;
        ctx.observe(
          item
            ? item.code === 'invalid_phone_number'
              ? 'the example code invalid_phone_number'
              : `another code: ${item.code}`
            : `no error at customers.0.landline (answered ${res.status})`,
        );
      },
    },
    ...notFoundRules(),
    {
      id: 'errors.404.staged-only',
      spec: '§7.2, §1 (data is added after an account exists)',
      level: 'SHOULD',
      why: '"The account must be imported" is stated for notes; the other data endpoints are for accounts that exist (§1).',
      title: 'Data endpoints refuse an account that is staged but not imported',
      endpoints: ['createTransactions', 'createHistoricalStatements'],
      async check(ctx) {
        const a = await ctx.given.staged();
        for (const endpoint of ['createTransactions', 'createHistoricalStatements'] as const) {
          const request = sampleRequest(ctx, endpoint);
          const body = { ...(request.body as Record<string, unknown>), ...accountKey(a.supplier, a.ext) };
          ctx.expect.status(
            await ctx.api.call(endpoint, { body, step: `${endpoint} for a staged account` }),
            404,
            `${endpoint} for a staged-only account`,
          );
        }
      },
    },
  ],
  { tags: ['errors'], needs: ['ongoingSupplier'] },
);
