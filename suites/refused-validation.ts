/**
 * "Refused means nothing happened" for the 400 of §7.2 ("validation error on any endpoint"): one
 * MUST rule per POST endpoint of the catalogue whose effect its driver can see (core/engine/drivers.ts
 * probes: staging, process, notes, transactions, historical billing documents, the business; and
 * validate, probed by staging). The request is valid in every respect but one documented field, made
 * invalid by a MUST defect of generators/defects.ts (§2.1: "A provided optional field must satisfy
 * its validation rules"); it is answered 400, and afterwards the account shows exactly what it
 * showed before and the valid request is answered as a first request.
 *
 * A batch of independent items (notes, transactions) is sent with one item, the one the defect is in:
 * storing invalid data while answering 400 breaks what §2.1 and §7.2 state. Whether the *valid* items
 * of a refused batch may be kept is not stated (the whole request is answered 400, and per-item
 * results exist only for the 201, §4.2), so `refused.validation.valid-items-not-kept.*` judges that
 * reading at SHOULD: the defect in the second of two items, and neither taken. For transactions it
 * only records what happened (INFO): §4.2 reports "the first failing transaction only", which leaves
 * open whether the ones before it were added.
 * The defect never sits on the account's keys or on what deduplicates (a note's body and created_at,
 * a transaction_id): the probe must be the same request, valid.
 *
 * Not here: agreements and supply points (payload shape not shown, §4.2: no documented field to break),
 * payment instructions (§2.7: every field a string whose allowed values are not shown, and nothing
 * the interface shows tells an instruction stored from one not stored), historical statements (no
 * read or probe shows them).
 */
import fc from 'fast-check';
import { defectKinds, invalidFrom, type Invalid } from '../generators/index.js';
import type { CallOptions } from '../core/engine/api.js';
import type { RuleContext } from '../core/engine/context.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import {
  CATALOGUE,
  type Catalogue,
  type EndpointDriver,
  observes,
  probeFrom,
  probeOf,
} from '../core/engine/drivers.js';
import { oracle } from '../core/engine/observe.js';
import { defineRules, type Rule } from '../core/engine/rule.js';
import { NotJudged } from '../core/engine/failures.js';
import type { EndpointSpec } from '../core/spec/index.js';
import { ledgerless, subjectFor } from './support.js';

/** The keys that name the account or business a request is about: never the defect's place. */
const KEYS = new Set([
  'import_supplier',
  'import_supplier_code',
  'external_account_number',
  'external_business_identifier',
]);

/** Where the defect may go in a request of `endpoint` whose item `item` of a batch carries it. */
function allowedAt(e: EndpointSpec, attr: string, item: number): boolean {
  const [head] = attr.split('.');
  if (KEYS.has(head)) return false;
  const { items } = e;
  if (!items) return true;
  if (!attr.startsWith(`${items.list}.${item}.`) && attr !== `${items.list}.${item}`) return false;
  // What deduplicates stays valid: the probe is the same request, valid (§4.2 notes rule 2, transactions).
  return !items.dedup.some((field) => attr === `${items.list}.${item}.${field}`);
}

/** The valid request the rule breaks: a batch holds `items` items (the last is the one broken). */
function validRequest(
  ctx: RuleContext,
  e: EndpointSpec,
  driver: EndpointDriver,
  request: CallOptions,
  items: number,
): CallOptions {
  const body = { ...(request.body as Record<string, unknown>) };
  const { item } = driver;
  if (e.items && item) body[e.items.list] = Array.from({ length: items }, () => item(ctx));
  // §4.1: dry_run is a documented boolean; sent false, it is a field the defect can break.
  if (e.id === 'processAccount') body.dry_run = false;
  return { ...request, body };
}

/** One invalid request, seeded by the run: a MUST defect of generators/defects.ts at an allowed place. */
function invalidRequest(ctx: RuleContext, e: EndpointSpec, valid: CallOptions, item: number): Invalid {
  const endpoint = e.id;
  const schema = e.body;
  if (!schema) throw new NotJudged(`${endpoint} has no request body in the spec model`);
  const arbitrary = invalidFrom(fc.constant(valid.body as object), schema, defectKinds('MUST')).filter((i) =>
    allowedAt(e, i.attr, item),
  );
  try {
    return fc.sample(arbitrary, { seed: ctx.property.seed, numRuns: 1 })[0];
  } catch {
    throw new NotJudged(
      `the ${endpoint} request (from its payload template) has no documented field a MUST defect can break outside the account's keys; not judged`,
    );
  }
}

/**
 * Sends the valid request of `endpoint` with one MUST defect in batch item `items - 1` (any field
 * elsewhere), expects it refused, and the account to show what it showed before, the valid request
 * then answered as a first request.
 */
async function refusedChangesNothing(
  ctx: RuleContext,
  e: EndpointSpec,
  driver: EndpointDriver,
  items: number,
): Promise<void> {
  const endpoint = e.id;
  const subject = await subjectFor(ctx, endpoint, driver);
  const valid = validRequest(ctx, e, driver, subject.request, items);
  const invalid = invalidRequest(ctx, e, valid, items - 1);
  const o = oracle(ctx);
  const before = subject.account && (await o.observe(subject.account, 'before the invalid request'));
  const res = await ctx.api.call(endpoint, {
    ...valid,
    body: invalid.payload,
    defective: true,
    step: `send it with ${invalid.defect.description}`,
  });
  // Refused is what this rule stands on; the status and the §7.1 body are judged by conventions.* and errors.*.
  ctx.expect.refused(res, `a request with ${invalid.defect.description} (§7.2: 400 validation error)`);
  const probe =
    endpoint === 'validateAccount'
      ? probeOf('stageAccount', { body: valid.body })
      : ledgerless(endpoint, subject.account)
        ? undefined
        : probeFrom(driver, valid);
  await o.assertState(
    {
      expected: before,
      why: `a request refused with 400 (${invalid.defect.kind} at ${invalid.attr}) must change nothing (§7.2)`,
      probes: [probe],
    },
    'after the refused request',
  );
}

/**
 * One rule per POST endpoint of the catalogue whose effect its driver can see (validate: seen by
 * staging the same account), and one more per batch: the defect in the second of two items.
 */
export const validationRules = (c: Catalogue = CATALOGUE): Rule[] => {
  const judged = c.endpoints.filter(
    (e) => e.method === 'POST' && (e.id === 'validateAccount' || observes(c.drivers[e.id])),
  );
  const perEndpoint: Rule[] = judged.map((e) => ({
    id: `refused.validation.${e.id}`,
    spec: '§7.2 (400: validation error on any endpoint), §7.1, §2.1',
    level: 'MUST',
    title: `${e.method} ${e.path} refused with 400 for one invalid documented field leaves the observable state as it was, and the valid request is then answered as a first request`,
    needs: TO_IMPORT,
    endpoints: [e.id],
    tags: ['refused', 'validation'],
    check: (ctx) => refusedChangesNothing(ctx, e, c.drivers[e.id], 1),
  }));

  const validItemsNotKept: Rule[] = judged
    .filter((e) => e.items)
    .map((e) => ({
      id: `refused.validation.valid-items-not-kept.${e.id}`,
      spec: '§7.2 (400: validation error on any endpoint), §4.2',
      ...(e.id === 'createTransactions'
        ? {
            level: 'INFO' as const,
            why: 'the 400 of transactions reports "the first failing transaction only" (§4.2), which leaves open whether the ones before it were added (docs/freedoms.md: a refused transaction request may keep them); recorded, never failed',
          }
        : {
            level: 'SHOULD' as const,
            why: 'the whole request is answered 400 and per-item results exist only for the 201 (§4.2), so a client cannot tell which items were kept; but the spec does not state that the valid items of a refused request are not',
          }),
      title: `${e.path} refused with 400 for its second item keeps neither item`,
      needs: TO_IMPORT,
      endpoints: [e.id],
      tags: ['refused', 'validation'],
      check: (ctx) => refusedChangesNothing(ctx, e, c.drivers[e.id], 2),
    }));
  return [...perEndpoint, ...validItemsNotKept];
};

export default defineRules('refused', validationRules());
