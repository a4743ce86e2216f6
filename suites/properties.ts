/**
 * Property rules (docs/design.md §7): generated payloads explore the input space the example rules only
 * sample. Every generated account validates and stages; every single-defect account is refused with
 * the defect's attr, by validate and by stage alike; the dedup rules of notes and transactions hold
 * for generated sequences.
 */
import fc from 'fast-check';
import {
  accountPayload,
  defectKinds,
  freshIdentifiers,
  invalidAccountPayload,
  invalidFrom,
  matchesDefect,
  type Supply,
} from '../generators/index.js';
import { fieldsOf, isOmittable } from '../generators/model-shape.js';
import type { RuleContext } from '../core/engine/context.js';
import { defineRules } from '../core/engine/rule.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import { type AccountPayload, model } from '../core/spec/index.js';
import { noteOnAccount } from '../core/spec/notes.js';
import { NON_FIELD_ERRORS, expectedAttr, mayUseNonFieldErrors, sameDefectsAsValidate } from './attrs.js';
import { alignNotes, completeNote } from './notes.js';
import { checkProperty } from '../core/engine/property.js';
import { alignTransactions } from './transactions.js';
import { accountKey, errorsOf, today } from './support.js';
import type { JudgingLevel } from '../core/engine/verdict.js';
import { EXAMPLE_FLOORS, withinDeclared } from '../core/engine/limits.js';
import { sendInsideLimits } from '../core/engine/inside-limits.js';
import type { HttpResponse } from '../core/http/client.js';
import { getAtPath } from '../core/spec/paths.js';

const ADDED = 'TRANSACTION_ADDED_TO_ACCOUNT';
const EXISTS = 'TRANSACTION_ALREADY_EXISTS';

const SUPPLY = fc.constantFrom<Supply>('electricity', 'gas', 'dual');

/**
 * Generated accounts. With a configured account template (payloads.account) they keep its fields and
 * values — only identifiers change, and sparse ones leave out some of its omittable top-level fields;
 * without one they are generated from the spec model. Either way, a rule standing on accounts is not
 * judged when the setup chain found the implementation refusing the account template.
 */
function accounts(ctx: RuleContext, complete: boolean): fc.Arbitrary<AccountPayload> {
  const template = ctx.given.account();
  if (!ctx.preconditions.payloads.configured('account'))
    return SUPPLY.chain((supply) =>
      accountPayload({ import_supplier: ctx.preconditions.ongoingSupplier, supply, complete }),
    ).map((generated) => withinDeclared(generated, ctx.declaredLimits));
  if (complete) return fc.constant(template);
  const omittable = fieldsOf(model.AccountPayload)
    .filter(([key, field]) => key in template && isOmittable(field.presence))
    .map(([key]) => key);
  return fc
    .subarray(omittable)
    .map(
      (left) => Object.fromEntries(Object.entries(template).filter(([key]) => !left.includes(key))) as AccountPayload,
    );
}

async function validAccountIsAccepted(ctx: RuleContext, complete: boolean) {
  const arbitrary = accounts(ctx, complete);
  await checkProperty(ctx, arbitrary, async (generated) => {
    // Inside the declared limits after the run's identifiers are in: they lengthen note bodies.
    const account = withinDeclared(
      freshIdentifiers('AccountPayload', generated, ctx.ids) as AccountPayload,
      ctx.declaredLimits,
    );
    // Edge values may meet a limit the spec does not show (§2.3, §8): such a refusal is recorded and the
    // case replayed inside it (core/engine/inside-limits.ts); any other refusal fails.
    const validated = await sendInsideLimits(
      ctx,
      'validateAccount',
      account,
      (body, replay) =>
        ctx.api.call('validateAccount', {
          body,
          step: replay
            ? `validate it again inside the limits found (replay ${replay})`
            : 'validate a generated account',
        }),
      'validating a generated account',
    );
    ctx.expect.status(validated.res, 200, 'validating a generated account');
    notStoredCut(ctx, validated.sent, validated.res);
    const staged = await sendInsideLimits(
      ctx,
      'stageAccount',
      validated.sent,
      (body, replay) =>
        ctx.api.call('stageAccount', {
          body,
          step: replay ? `stage it inside the limits found (replay ${replay})` : 'stage it',
        }),
      'staging it',
    );
    ctx.expect.status(staged.res, 201, 'staging it');
    ctx.expect.status(
      await ctx.api.call('stageAccount', { body: staged.sent, step: 'stage it again' }),
      200,
      'staging it again',
    );
  });
}

/**
 * §4.1 validate answers "200 with the validated data as body": a long text it echoes as a shorter
 * start of itself was cut, not validated — a 2xx that keeps a changed value where a limit should
 * have been a §7.1 400. Only long texts (past the spec's examples) are compared, and only a cut is
 * judged: other spellings of a value are the implementation's own (suites/support.ts echo rules).
 */
function notStoredCut(ctx: RuleContext, sent: unknown, res: HttpResponse) {
  const echoed = res.isJson ? res.json() : undefined;
  const walk = (value: unknown, at: string): string | undefined => {
    if (typeof value === 'string') {
      if ([...value].length <= EXAMPLE_FLOORS.length) return undefined;
      const back = getAtPath(echoed, at);
      return typeof back === 'string' && back.length < value.length && value.startsWith(back) ? at : undefined;
    }
    if (value !== null && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) {
        const cut = walk(v, at ? `${at}.${k}` : k);
        if (cut) return cut;
      }
    return undefined;
  };
  const cut = walk(sent, '');
  ctx.expect.that(
    cut === undefined,
    `validate accepted the account but echoed ${cut} cut short (${[...String(getAtPath(sent, cut ?? ''))].length} characters sent, ${[...String(getAtPath(echoed, cut ?? ''))].length} echoed): a value it cannot keep must be refused with a §7.1 400, not cut`,
    { res, expected: cut && getAtPath(sent, cut), actual: cut && getAtPath(echoed, cut) },
  );
}

async function singleDefectIsRefused(ctx: RuleContext, level: JudgingLevel) {
  const kinds = defectKinds(level);
  // accounts() stops the rule (not judged) when the setup chain found the account template refused.
  const template = accounts(ctx, true);
  const arbitrary = ctx.preconditions.payloads.configured('account')
    ? invalidFrom(template, model.AccountPayload, kinds)
    : invalidAccountPayload({ import_supplier: ctx.preconditions.ongoingSupplier, kinds });
  await checkProperty(ctx, arbitrary, async (invalid) => {
    const payload = freshIdentifiers('AccountPayload', invalid.payload, ctx.ids, { except: invalid.attr });
    const attrs: Record<string, string[]> = {};
    for (const endpoint of ['validateAccount', 'stageAccount'] as const) {
      const res = await ctx.api.call(endpoint, {
        body: payload,
        step: `${endpoint} with ${invalid.defect.kind} at ${invalid.attr}`,
      });
      ctx.expect.status(res, 400, `${invalid.defect.description} at ${invalid.attr}`);
      const reported = ctx.expect.body(res, model.ValidationErrorBody, '§7.1 body').errors.map((e) => e.attr);
      // §7.1: stage, a create endpoint, may report under non_field_errors instead of the field.
      const pointed = reported.some(
        (a) => matchesDefect(a, invalid) || (a === NON_FIELD_ERRORS && mayUseNonFieldErrors(endpoint)),
      );
      ctx.expect.that(
        pointed,
        `${endpoint}: an errors item must point at ${expectedAttr(endpoint, invalid.attr)} (${invalid.defect.kind}), got ${JSON.stringify(reported)}`,
        { res, expected: invalid.attr, actual: reported },
      );
      attrs[endpoint] = [...new Set(reported)].sort();
    }
    ctx.expect.that(
      sameDefectsAsValidate(attrs.stageAccount, attrs.validateAccount),
      `stage and validate report the same attrs for ${invalid.defect.kind} at ${invalid.attr} (§4.1), got stage ${JSON.stringify(attrs.stageAccount)} and validate ${JSON.stringify(attrs.validateAccount)}`,
      { expected: attrs.validateAccount, actual: attrs.stageAccount },
    );
  });
}

/** A generated account and what was done to it; `except` is a defect's path, whose value is kept as generated. */
interface Variation {
  what: string;
  payload: Record<string, unknown>;
  except?: string;
}

/**
 * Accounts whose fate validate decides with a freedom (docs/freedoms.md) or a reading: fields left
 * out (required or optional: not shown), a field the spec does not document (refused or ignored), a
 * defect of any level. Whatever validate answers, stage must answer alike (§4.1).
 */
function variations(ctx: RuleContext): fc.Arbitrary<Variation> {
  const template = ctx.preconditions.payloads.configured('account') ? accounts(ctx, true) : undefined;
  const defects = template
    ? invalidFrom(template, model.AccountPayload, defectKinds())
    : invalidAccountPayload({ import_supplier: ctx.preconditions.ongoingSupplier, kinds: defectKinds() });
  const undocumented = fc
    .tuple(accounts(ctx, true), fc.constantFrom('top', 'customer'))
    .map(([account, where]): Variation => {
      const payload = structuredClone(account) as Record<string, unknown>;
      const customers = payload.customers as Record<string, unknown>[] | undefined;
      if (where === 'customer' && customers?.length) {
        customers[0] = { ...customers[0], loyalty_tier: 'GOLD' };
        return { what: 'an undocumented field at customers.0.loyalty_tier', payload };
      }
      return { what: 'an undocumented top-level field loyalty_tier', payload: { ...payload, loyalty_tier: 'GOLD' } };
    });
  return fc.oneof(
    { arbitrary: accounts(ctx, false).map((payload) => ({ what: 'a sparse account', payload })), weight: 1 },
    {
      arbitrary: defects.map((d) => ({
        what: `${d.defect.kind} at ${d.attr}`,
        payload: d.payload,
        except: d.attr,
      })),
      weight: 1,
    },
    { arbitrary: undocumented, weight: 2 },
  );
}

/** §4.1: staging validates "by the same rules as the validate endpoint first": the two answers agree. */
async function stageAgreesWithValidate(ctx: RuleContext) {
  await checkProperty(ctx, variations(ctx), async (v) => {
    const payload = withinDeclared(
      freshIdentifiers('AccountPayload', v.payload, ctx.ids, v.except ? { except: v.except } : {}),
      ctx.declaredLimits,
    );
    const validated = await ctx.api.call('validateAccount', { body: payload, step: `validate ${v.what}` });
    ctx.expect.status(validated, [200, 400], `validating ${v.what}`);
    const staged = await ctx.api.call('stageAccount', { body: payload, step: `stage ${v.what}` });
    if (validated.status === 200) {
      ctx.expect.status(staged, [200, 201], `validate accepted ${v.what} (200), so staging must accept it`);
      return;
    }
    ctx.expect.status(staged, 400, `validate refused ${v.what} (400), so staging must refuse it`);
    const attrs = (res: typeof staged) =>
      ctx.expect.body(res, model.ValidationErrorBody, '§7.1 body').errors.map((e) => e.attr);
    const validateAttrs = attrs(validated);
    const stageAttrs = attrs(staged);
    ctx.expect.that(
      sameDefectsAsValidate(stageAttrs, validateAttrs),
      `stage and validate must report the same attrs for ${v.what} (§4.1), got stage ${JSON.stringify(stageAttrs)} and validate ${JSON.stringify(validateAttrs)}`,
      { res: staged, expected: validateAttrs, actual: stageAttrs },
    );
  });
}

/** `work` on every item, `width` at a time, the results in the items' order. */
async function inTurn<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
  return results;
}

/** Past datetimes a note may be sent with; never "now", so the default created_at never collides. */
const CREATED_AT = ['2023-03-04T05:06:07Z', '2023-03-04T05:06:08Z'];

export default defineRules(
  'properties',
  [
    {
      id: 'properties.account.valid-accepted',
      // §2.3 and §8 leave limits open: a refusal at an edge value that only a limit explains is recorded
      // and the case replayed inside it (core/engine/inside-limits.ts; docs/freedoms.md).
      spec: '§2.3, §4.1, §3, §8',
      level: 'MUST',
      title:
        'Every complete, valid generated account (electricity, gas or dual) validates (200), stages (201) and stages again (200)',
      endpoints: ['validateAccount', 'stageAccount'],
      property: true,
      check: (ctx) => validAccountIsAccepted(ctx, true),
    },
    {
      id: 'properties.account.sparse-accepted',
      spec: '§2.1 (an optional field that carries no data is omitted), §2.3',
      level: 'INFO',
      why: 'Which account fields are optional is not shown: an implementation may require fields these accounts leave out.',
      title: 'Which of the fields generated accounts leave out the implementation requires',
      endpoints: ['validateAccount'],
      property: true,
      async check(ctx) {
        const arbitrary = accounts(ctx, false);
        const demanded = new Map<string, number>();
        let accepted = 0;
        const cases = fc.sample(arbitrary, { seed: ctx.property.seed, numRuns: ctx.property.numRuns });
        // Several at once (each its own account), counted in the order generated: the note reads the same.
        const answers = await inTurn(cases, ctx.property.concurrency ?? 1, (generated) =>
          ctx.api.call('validateAccount', {
            body: freshIdentifiers('AccountPayload', generated, ctx.ids),
            step: 'validate a sparse generated account',
          }),
        );
        for (const res of answers) {
          if (res.status === 200) accepted++;
          else
            for (const e of errorsOf(res).attrs) demanded.set(e.replace(/\.\d+\./g, '.N.'), (demanded.get(e) ?? 0) + 1);
        }
        ctx.observe(
          `${accepted} of ${cases.length} sparse accounts accepted${demanded.size ? `; refused for: ${[...demanded.keys()].join(', ')}` : ''}`,
        );
      },
    },
    {
      id: 'properties.account.beyond-template-accepted',
      spec: '§2.3, §2.4, §4.1',
      level: 'INFO',
      why: 'A configured account template says which values the implementation takes where the spec leaves them open (account types, reasons, payment types: §2.3, §2.4 "not shown"); documented fields the template leaves out may be refused for values the spec does not fix, so what is refused is recorded, never failed.',
      title:
        "Which documented fields beyond the account template the implementation refuses: complete generated accounts (every documented field, SUPPLY_CHARGE line and tax items included) carrying the template's top-level values",
      endpoints: ['validateAccount', 'stageAccount'],
      property: true,
      async check(ctx) {
        // Without a template there is nothing beyond it: properties.account.valid-accepted sends these
        // accounts at MUST. Recorded as such (an INFO rule scores no section), not a skip on every default run.
        if (!ctx.preconditions.payloads.configured('account')) {
          ctx.observe(
            'no account template (payloads.account): properties.account.valid-accepted sends complete generated accounts',
          );
          return;
        }
        const template = ctx.given.account() as Record<string, unknown>;
        // The template's own values win where they are values; nested lists stay the generated ones, whose
        // parts (ledger periods and the transactions dated in them) only hold together as generated.
        const topValues = Object.fromEntries(
          Object.entries(template).filter(([, v]) => v === null || typeof v !== 'object'),
        );
        const arbitrary = SUPPLY.chain((supply) =>
          accountPayload({ import_supplier: ctx.preconditions.ongoingSupplier, supply, complete: true }),
        ).map((generated) => ({ ...generated, ...topValues }) as AccountPayload);
        const cases = fc.sample(arbitrary, { seed: ctx.property.seed, numRuns: ctx.property.numRuns });
        // Validated, then staged when valid (§4.1: staging validates by the same rules first).
        const answers = await inTurn(cases, ctx.property.concurrency ?? 1, async (generated) => {
          const body = freshIdentifiers('AccountPayload', generated, ctx.ids);
          const validated = await ctx.api.call('validateAccount', {
            body,
            step: "validate a complete generated account with the template's values",
          });
          if (validated.status !== 200) return { refused: validated };
          const staged = await ctx.api.call('stageAccount', { body, step: 'stage it' });
          return staged.status === 201 ? {} : { refused: staged };
        });
        const refusedAt = new Map<string, number>();
        let accepted = 0;
        for (const { refused } of answers) {
          if (!refused) accepted++;
          else
            for (const e of errorsOf(refused).attrs) {
              const at = e.replace(/\.\d+\./g, '.N.');
              refusedAt.set(at, (refusedAt.get(at) ?? 0) + 1);
            }
        }
        ctx.observe(
          `${accepted} of ${cases.length} complete generated accounts with the template's values validated and staged${refusedAt.size ? `; refused for: ${[...refusedAt.keys()].join(', ')}` : ''}`,
        );
      },
    },
    {
      id: 'properties.account.single-defect-refused',
      spec: '§2.1, §7.1, §4.1',
      level: 'MUST',
      title:
        "Every account with one unambiguous defect is refused by validate and by stage with 400 and an errors item at the defect's path",
      endpoints: ['validateAccount', 'stageAccount'],
      property: true,
      check: (ctx) => singleDefectIsRefused(ctx, 'MUST'),
    },
    {
      id: 'properties.account.single-defect-refused-readings',
      spec: '§2.1, §7.1, §4.1',
      level: 'SHOULD',
      why: 'These defects (a datetime without Z, an expected field missing, a malformed phone, a boolean sent as "true") are refused on a strong reading, not a statement.',
      title:
        "Every account with one defect of a reading (no Z, expected field missing, malformed phone, boolean as a string) is refused at the defect's path",
      endpoints: ['validateAccount', 'stageAccount'],
      property: true,
      check: (ctx) => singleDefectIsRefused(ctx, 'SHOULD'),
    },
    {
      id: 'properties.account.stage-agrees-with-validate',
      spec: '§4.1 (stage: validated by the same rules as the validate endpoint first), §7.1',
      level: 'MUST',
      title:
        "For generated accounts whose validity is the implementation's choice (fields left out, an undocumented field, a defect of any level), stage answers as validate does: both 2xx, or both 400 with the same attrs",
      endpoints: ['validateAccount', 'stageAccount'],
      property: true,
      check: stageAgreesWithValidate,
    },
    {
      id: 'properties.notes.dedup',
      spec: '§4.2 notes rules 2 and 3',
      level: 'MUST',
      title:
        'For generated sequences of notes, each is created unless the account has a note with its body and, when given, its created_at',
      needs: TO_IMPORT,
      endpoints: ['createNotes'],
      property: true,
      async check(ctx) {
        const note = fc.record({
          body: fc.nat({ max: 2 }),
          createdAt: fc.option(fc.constantFrom(...CREATED_AT), { nil: undefined }),
        });
        // Bodies are distinct within a request: whether an earlier note of the same request counts is not shown.
        const request = fc.uniqueArray(note, { minLength: 1, maxLength: 3, selector: (n) => n.body });
        await checkProperty(ctx, fc.array(request, { minLength: 1, maxLength: 4 }), async (requests) => {
          const account = ctx.given.account();
          delete account.notes;
          const a = await ctx.given.imported(account);
          const bodies = [0, 1, 2].map((i) => ctx.ids.noteBody(`generated note ${i}`));
          const existing: { body: string; createdAt?: string }[] = [];
          for (const [r, notes] of requests.entries()) {
            const sent = notes.map((n) => ({
              ...completeNote(ctx, { body: bodies[n.body], ...(n.createdAt ? { created_at: n.createdAt } : {}) }),
              body: bodies[n.body],
            }));
            const expected = sent.map((n) => {
              const found = noteOnAccount(existing, { body: n.body, createdAt: n.created_at }) !== undefined;
              if (!found) existing.push({ body: n.body, createdAt: n.created_at });
              return found ? 'NOTE_ALREADY_EXISTS' : 'NOTE_CREATION_SUCCESS';
            });
            const res = await ctx.api.call('createNotes', {
              body: { ...accountKey(a.supplier, a.ext), notes: sent },
              step: `request ${r + 1}`,
            });
            ctx.expect.status(res, 201);
            // The order of results is not stated: matched by body (distinct within a request).
            const statuses = alignNotes(sent, ctx.expect.body(res, model.NotesResponse, 'notes response')).map(
              (n) => n.status,
            );
            ctx.expect.equal(statuses, expected, `statuses of request ${r + 1} of ${JSON.stringify(requests)}`, res);
          }
        });
      },
    },
    {
      id: 'properties.transactions.dedup',
      spec: '§4.2 transactions (check_previously_added)',
      level: 'MUST',
      title:
        'For generated sequences of transactions and check_previously_added values, a new transaction is added, one added earlier is skipped while the check is on, and never skipped as already existing with the check off',
      needs: TO_IMPORT,
      endpoints: ['createTransactions'],
      property: true,
      async check(ctx) {
        const request = fc.record({
          // Ids are distinct within a request: whether an earlier one of the same request counts is not shown.
          ids: fc.uniqueArray(fc.nat({ max: 3 }), { minLength: 1, maxLength: 3 }),
          check: fc.constantFrom<'true' | 'false' | undefined>(undefined, 'true', 'false'),
        });
        await checkProperty(ctx, fc.array(request, { minLength: 1, maxLength: 4 }), async (requests) => {
          const a = await ctx.given.imported();
          const ids = [0, 1, 2, 3].map(() => ctx.ids.other('T'));
          const added = new Set<string>();
          // Ids a refused request may or may not have added (atomicity is not shown).
          const uncertain = new Set<string>();
          for (const [r, { ids: picks, check }] of requests.entries()) {
            const transactions = picks.map((i) => ({
              transaction_id: ids[i],
              transaction_date: today(),
              amount: '10.00',
              type: 'CHARGE',
              reason: 'IMPORTED_CHARGE',
            }));
            // What each transaction may be answered (§4.2): a new one is added; one added earlier is
            // skipped while the check is on; with the check off it is not skipped as "already exists"
            // (added again, or the request refused by other means: the SHOULD rule check-false).
            const allowed = transactions.map((t): readonly string[] => {
              const id = t.transaction_id;
              if (uncertain.has(id)) return check === 'false' ? [ADDED] : [ADDED, EXISTS];
              if (!added.has(id)) return [ADDED];
              return check === 'false' ? [ADDED] : [EXISTS];
            });
            const repeatUnchecked =
              check === 'false' &&
              transactions.some((t) => added.has(t.transaction_id) || uncertain.has(t.transaction_id));
            const what = `request ${r + 1} of ${JSON.stringify(requests)}`;
            const res = await ctx.api.call('createTransactions', {
              body: { ...accountKey(a.supplier, a.ext), transactions },
              ...(check ? { query: { check_previously_added: check } } : {}),
              step: `request ${r + 1}`,
            });
            if (repeatUnchecked && res.status >= 400 && res.status < 500) {
              for (const t of transactions) if (!added.has(t.transaction_id)) uncertain.add(t.transaction_id);
              continue;
            }
            ctx.expect.status(res, 201, what);
            const results = ctx.expect.body(res, model.TransactionsResponse, 'transactions response').results as {
              status: string;
              transaction_data: Record<string, unknown>;
            }[];
            ctx.expect.equal(results.length, transactions.length, `one result per transaction of ${what}`, res);
            // The order of results is not stated: matched by transaction_id when transaction_data names it.
            const got = alignTransactions(transactions, results);
            if (got.aligned) {
              const wrong = got.statuses
                .map((st, i) =>
                  allowed[i].includes(st)
                    ? undefined
                    : `${transactions[i].transaction_id}: ${st}, expected ${allowed[i].join(' or ')}`,
                )
                .filter(Boolean);
              ctx.expect.that(wrong.length === 0, `statuses of ${what}: ${wrong.join('; ')}`, {
                res,
                expected: allowed,
                actual: got.statuses,
              });
            } else {
              const count = (xs: readonly string[], v: string) => xs.filter((x) => x === v).length;
              const needed = (v: string) => allowed.filter((xs) => xs.length === 1 && xs[0] === v).length;
              const fits =
                got.statuses.every((st) => st === ADDED || st === EXISTS) &&
                count(got.statuses, EXISTS) >= needed(EXISTS) &&
                count(got.statuses, ADDED) >= needed(ADDED);
              ctx.expect.that(
                fits,
                `statuses of ${what} (matched as a multiset: transaction_data does not name the transactions): got ${JSON.stringify(got.statuses)}, expected ${JSON.stringify(allowed)}`,
                { res, expected: allowed, actual: got.statuses },
              );
            }
            for (const t of transactions) {
              added.add(t.transaction_id);
              uncertain.delete(t.transaction_id);
            }
          }
        });
      },
    },
  ],
  { tags: ['properties'], needs: ['ongoingSupplier'] },
);
