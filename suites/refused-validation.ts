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
 * Where the driver sees no effect (payment instructions, historical statements: nothing the
 * interface shows tells a stored one from one not stored), what is left to show the refusal kept
 * nothing is the valid request, sent last, accepted with its documented status (§4): a refusal that
 * half-stored the request, or marked the account, shows there. The subject is then set up as an
 * accepted request needs (§2.7: a reference the vendor knows; §4.4: a business with a linked account).
 *
 * Not here: endpoints whose request has no documented field beyond the keys that name the account
 * or business (agreements and supply points, §4.2: payload shape not shown — nothing to break).
 */
import fc from 'fast-check';
import { defectKinds, invalidFrom, type Invalid } from '../generators/index.js';
import type { CallOptions } from '../core/engine/api.js';
import type { RuleContext } from '../core/engine/context.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import {
  type Batch,
  batchOf,
  CATALOGUE,
  type Catalogue,
  type EndpointDriver,
  observes,
  probeFrom,
} from '../core/engine/drivers.js';
import { oracle } from '../core/engine/observe.js';
import { defineRules, type Rule } from '../core/engine/rule.js';
import { NotJudged } from '../core/engine/failures.js';
import { endpointSlug, type EndpointSpec } from '../core/spec/index.js';
import { acceptedProbe, refusalNeeds, subjectFor } from '../core/engine/subject.js';
import { LOOKUP_KEYS, shapeOf } from '../core/engine/relations.js';

/** The keys that name the account or business a request is about: never the defect's place. */
const KEYS: ReadonlySet<string> = new Set(LOOKUP_KEYS);

/** Where the defect may go in a request whose batch item `item` carries it (anywhere but the keys, without a batch). */
function allowedAt(items: Batch | undefined, attr: string, item: number): boolean {
  const [head] = attr.split('.');
  if (KEYS.has(head)) return false;
  if (!items) return true;
  if (!attr.startsWith(`${items.list}.${item}.`) && attr !== `${items.list}.${item}`) return false;
  // What deduplicates stays valid: the probe is the same request, valid (§4.2 notes rule 2, transactions).
  return !items.dedup.some((field) => attr === `${items.list}.${item}.${field}`);
}

/** The valid request the rule breaks: a batch holds `items` items (the last is the one broken). */
function validRequest(ctx: RuleContext, driver: EndpointDriver, request: CallOptions, items: number): CallOptions {
  // The driver's documented optional fields go too: each is a field the defect can break (§2.1).
  const body = { ...(request.body as Record<string, unknown>), ...driver.optional };
  const batch = batchOf(driver);
  if (batch) body[batch.list] = Array.from({ length: items }, () => batch.item(ctx));
  return { ...request, body };
}

/** One invalid request, seeded by the run: a MUST defect of generators/defects.ts at an allowed place. */
function invalidRequest(
  ctx: RuleContext,
  e: EndpointSpec,
  driver: EndpointDriver,
  valid: CallOptions,
  item: number,
): Invalid {
  const endpoint = e.id;
  const schema = e.body;
  if (!schema) throw new NotJudged(`${endpoint} has no request body in the spec model`);
  const arbitrary = invalidFrom(fc.constant(valid.body as object), schema, defectKinds('MUST')).filter((i) =>
    allowedAt(batchOf(driver), i.attr, item),
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
  // Without a probe, the last word is the valid request accepted: the subject is set up for that.
  const subject = await subjectFor(ctx, driver, !judgeable(driver));
  const valid = validRequest(ctx, driver, subject.request, items);
  const invalid = invalidRequest(ctx, e, driver, valid, items - 1);
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
  // An endpoint that keeps nothing shows a refusal kept nothing through what its driver names; one
  // whose effect nothing shows, by the valid request accepted afterwards.
  const probe =
    'afterRefusal' in driver.effect && driver.effect.afterRefusal
      ? driver.effect.afterRefusal({ body: valid.body })
      : observes(driver)
        ? probeFrom(driver, valid, subject.account)
        : acceptedProbe(endpoint, driver, valid, e.words, 'sent after the invalid one was refused');
  await o.assertState(
    {
      expected: before,
      why: `a request refused with 400 (${invalid.defect.kind} at ${invalid.attr}) must change nothing (§7.2)`,
      probes: [probe],
    },
    'after the refused request',
  );
}

/** Whether a refused request of `driver` can be shown to have kept nothing: its probe, or what it names instead. */
const judgeable = (driver: EndpointDriver) =>
  observes(driver) || ('afterRefusal' in driver.effect && driver.effect.afterRefusal !== undefined);

/** Whether the request has a documented field a defect can break: one beyond the keys that name its subject. */
const breakable = (e: EndpointSpec) => Object.keys(shapeOf(e.body) ?? {}).some((f) => !KEYS.has(f));

/**
 * One rule per POST endpoint of the catalogue with a documented field to break (its effect seen by
 * its probe, by what its driver names instead, or by the valid request accepted afterwards), and one
 * more per batch whose effect can be seen: the defect in the second of two items.
 */
export const validationRules = (c: Catalogue = CATALOGUE): Rule[] => {
  const judged = c.endpoints.filter((e) => e.method === 'POST' && breakable(e));
  const perEndpoint: Rule[] = judged.map((e) => ({
    id: `refused.validation.${endpointSlug(e.id)}`,
    spec: '§7.2 (400: validation error on any endpoint), §7.1, §2.1',
    level: 'MUST',
    title: judgeable(c.drivers[e.id])
      ? `${e.method} ${e.path} refused with 400 for one invalid documented field leaves the observable state as it was, and the valid request is then answered as a first request`
      : `${e.method} ${e.path} refused with 400 for one invalid documented field leaves the observable state as it was, and the valid request is then accepted with its documented status`,
    needs: refusalNeeds(c.drivers[e.id], judgeable(c.drivers[e.id])),
    endpoints: [e.id],
    tags: ['refused', 'validation'],
    check: (ctx) => refusedChangesNothing(ctx, e, c.drivers[e.id], 1),
  }));

  const validItemsNotKept: Rule[] = judged
    .filter((e) => judgeable(c.drivers[e.id]))
    .flatMap((e) => {
      const batch = batchOf(c.drivers[e.id]);
      return batch ? [{ e, batch }] : [];
    })
    .map(({ e, batch }) => ({
      id: `refused.validation.valid-items-not-kept.${endpointSlug(e.id)}`,
      spec: '§7.2 (400: validation error on any endpoint), §4.2',
      ...(batch.refusedKeepsOpen
        ? { level: 'INFO' as const, why: batch.refusedKeepsOpen }
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
