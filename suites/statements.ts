/** §2.6 / §4.2 historical statements. */
import type { RuleContext } from '../core/engine/context.js';
import { defineRules } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import { model } from '../core/spec/index.js';
import { expectedAttr, reportsDefectAt } from './attrs.js';
import { accountKey, describeDifference, echoDifference, requestKinds } from './support.js';

const STATEMENT_KINDS = requestKinds('createHistoricalStatements');

/** A historical statement from the template (every documented field), fresh, with `overrides`. */
const statement = (ctx: RuleContext, overrides: Record<string, unknown> = {}) =>
  ctx.preconditions.payloads.item('historical_statements', 'statements', ctx.ids, overrides);

export default defineRules(
  'statements',
  [
    {
      id: 'statements.create.accepted',
      spec: '§4.2 historical statements, §2.6',
      level: 'MUST',
      title: 'Historical statements are imported: 201 (or 200, which the spec also states) with the validated data',
      async check(ctx) {
        const a = await ctx.given.imported();
        const statements = [
          statement(ctx),
          statement(ctx, {
            bill_period_from_date: '2023-12-01',
            bill_period_to_date: '2023-12-31',
            issued_date: '2024-01-04',
            number: 'F2024-0001',
            statement_path: undefined,
          }),
        ];
        const res = await ctx.api.call('createHistoricalStatements', {
          body: { ...accountKey(a.supplier, a.ext), statements },
          step: 'import two statements',
        });
        ctx.expect.status(res, [201, 200]);
        ctx.expect.body(res, model.ValidatedStatements, 'validated data');
        ctx.observe(`answered ${res.status}`);
      },
    },
    {
      id: 'statements.create.echoes-statements',
      spec: '§4.2 historical statements (body is the validated data)',
      // MUST, asserted weakly: "the validated data" may be normalised, but it names the statements sent.
      level: 'MUST',
      title: 'The validated data names the statements sent',
      async check(ctx) {
        const a = await ctx.given.imported();
        const id = ctx.ids.other('S');
        const res = await ctx.api.call('createHistoricalStatements', {
          body: { ...accountKey(a.supplier, a.ext), statements: [statement(ctx, { statement_id: id })] },
          step: 'import a statement',
        });
        ctx.expect.status(res, [201, 200]);
        ctx.expect.that(res.text.includes(id), `the validated data should name statement ${id}`, { res });
      },
    },
    {
      id: 'statements.create.echo-fidelity',
      spec: '§4.2 historical statements (body is the validated data), §2.6, §9.2',
      level: 'MUST',
      title:
        'The validated data carries every field of every statement sent with an equal value (extra fields allowed, §9.2)',
      // An instance of the echo relation (suites/relations-echo.ts).
      tags: ['statements', 'relation:echo'],
      async check(ctx) {
        const a = await ctx.given.imported();
        const request = {
          ...accountKey(a.supplier, a.ext),
          statements: [statement(ctx), statement(ctx, { number: ctx.ids.other('X'), gross_amount: 12.5 })],
        };
        const res = await ctx.api.call('createHistoricalStatements', { body: request, step: 'import two statements' });
        ctx.expect.status(res, [201, 200]);
        const body = res.json();
        // "The validated data": the statements, alone or in the request validated ({…, statements}).
        const echoed = Array.isArray(body) ? body : (body as { statements?: unknown } | null)?.statements;
        const d = echoDifference(request.statements, echoed, { kinds: STATEMENT_KINDS, base: 'statements' });
        ctx.expect.that(
          d === undefined,
          d
            ? describeDifference(
                { ...d, path: `statements.${d.path}` },
                'the validated data must be the statements sent',
              )
            : '',
          { res, expected: d?.sent, actual: d?.echoed },
        );
      },
    },
    {
      id: 'statements.statement-path.optional',
      spec: '§2.6 (statement_path optional)',
      level: 'MUST',
      title: 'A historical statement without statement_path is accepted',
      async check(ctx) {
        const a = await ctx.given.imported();
        const res = await ctx.api.call('createHistoricalStatements', {
          body: { ...accountKey(a.supplier, a.ext), statements: [statement(ctx, { statement_path: undefined })] },
          step: 'a statement without statement_path',
        });
        ctx.expect.status(res, [201, 200]);
      },
    },
    {
      id: 'statements.invalid.refused',
      spec: '§2.6, §7.1',
      level: 'MUST',
      title:
        'A historical statement with a malformed date is refused with 400, with attr at the field (or under non_field_errors, §7.1)',
      async check(ctx) {
        const a = await ctx.given.imported();
        const good = statement(ctx);
        const res = await ctx.api.call('createHistoricalStatements', {
          body: {
            ...accountKey(a.supplier, a.ext),
            statements: [good, { ...good, statement_id: ctx.ids.other('S'), issued_date: '2023-09-31' }],
          },
          step: 'a statement with an impossible date',
        });
        ctx.expect.status(res, 400);
        const body = ctx.expect.body(res, model.ValidationErrorBody, '§7.1 validation error body');
        const attrs = body.errors.map((e) => e.attr);
        ctx.expect.that(
          reportsDefectAt('createHistoricalStatements', attrs, 'statements.1.issued_date'),
          `an error must point at ${expectedAttr('createHistoricalStatements', 'statements.1.issued_date')}, got ${JSON.stringify(attrs)}`,
          { res },
        );
      },
    },
  ],
  { endpoints: ['createHistoricalStatements'], tags: ['statements'], needs: TO_IMPORT },
);
