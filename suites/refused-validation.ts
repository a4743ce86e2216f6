/**
 * "Refused means nothing happened" for the 400 of §7.2 ("validation error on any endpoint"): one
 * MUST rule per POST endpoint of the spec model whose effect the oracle can see (core/engine/observe.ts
 * `probeOf`: staging, process, notes, transactions, historical billing documents, the business; and
 * validate, probed by staging). The request is valid in every respect but one documented field, made
 * invalid by a MUST defect of generators/defects.ts (§2.1: "A provided optional field must satisfy
 * its validation rules"); it is answered 400, and afterwards the account shows exactly what it
 * showed before and the valid request is answered as a first request.
 *
 * A request with several items carries the defect in a later item (notes: the second of two), so a
 * server that stores the valid items of a refused request is seen: the whole request is answered
 * 400 (§7.2), with no per-item result (§4.2 shows those for the 201 only), so none of it is taken.
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
import { oracle, probeOf } from '../core/engine/observe.js';
import { defineRules, type Rule } from '../core/engine/rule.js';
import { NotJudged } from '../core/engine/failures.js';
import { type EndpointId, model } from '../core/spec/index.js';
import { ledgerless, subjectFor } from './support.js';

/** The keys that name the account or business a request is about: never the defect's place. */
const KEYS = new Set([
  'import_supplier',
  'import_supplier_code',
  'external_account_number',
  'external_business_identifier',
]);

/** Where the defect may go in a request of `endpoint`. */
function allowedAt(endpoint: EndpointId, attr: string): boolean {
  const [head] = attr.split('.');
  if (KEYS.has(head)) return false;
  // The second note carries it; the first stays valid and must not be stored (§4.2 notes rule 2 probes it).
  if (endpoint === 'createNotes') return /^notes\.1(\.|$)/.test(attr) && !/^notes\.1\.(body|created_at)$/.test(attr);
  if (endpoint === 'createTransactions') return !/^transactions\.\d+\.transaction_id$/.test(attr);
  return true;
}

/** The valid request the rule breaks: for notes, two notes, so one valid note rides along with the invalid one. */
function validRequest(ctx: RuleContext, endpoint: EndpointId, request: CallOptions): CallOptions {
  const body = { ...(request.body as Record<string, unknown>) };
  if (endpoint === 'createNotes')
    body.notes = [
      ctx.preconditions.payloads.item('notes', 'notes', ctx.ids),
      ctx.preconditions.payloads.item('notes', 'notes', ctx.ids),
    ];
  // §4.1: dry_run is a documented boolean; sent false, it is a field the defect can break.
  if (endpoint === 'processAccount') body.dry_run = false;
  return { ...request, body };
}

/** One invalid request, seeded by the run: a MUST defect of generators/defects.ts at an allowed place. */
function invalidRequest(ctx: RuleContext, endpoint: EndpointId, valid: CallOptions): Invalid {
  const schema = model.endpoints[endpoint].body;
  if (!schema) throw new NotJudged(`${endpoint} has no request body in the spec model`);
  const arbitrary = invalidFrom(fc.constant(valid.body as object), schema, defectKinds('MUST')).filter((i) =>
    allowedAt(endpoint, i.attr),
  );
  try {
    return fc.sample(arbitrary, { seed: ctx.property.seed, numRuns: 1 })[0];
  } catch {
    throw new NotJudged(
      `the ${endpoint} request (from its payload template) has no documented field a MUST defect can break outside the account's keys; not judged`,
    );
  }
}

const judged = Object.values(model.endpoints).filter(
  (e) => e.method === 'POST' && (e.id === 'validateAccount' || probeOf(e.id, { body: {} }) !== undefined),
);

const perEndpoint: Rule[] = judged.map((e) => ({
  id: `refused.validation.${e.id}`,
  spec: '§7.2 (400: validation error on any endpoint), §7.1, §2.1',
  level: 'MUST',
  title: `${e.method} ${e.path} refused with 400 for one invalid documented field leaves the observable state as it was, and the valid request is then answered as a first request`,
  needs: TO_IMPORT,
  endpoints: [e.id],
  tags: ['refused', 'validation'],
  async check(ctx) {
    const subject = await subjectFor(ctx, e.id);
    const valid = validRequest(ctx, e.id, subject.request);
    const invalid = invalidRequest(ctx, e.id, valid);
    const o = oracle(ctx);
    const before = subject.account && (await o.observe(subject.account, 'before the invalid request'));
    const res = await ctx.api.call(e.id, {
      ...valid,
      body: invalid.payload,
      step: `send it with ${invalid.defect.description}`,
    });
    // Refused is what this rule stands on; the status and the §7.1 body are judged by conventions.* and errors.*.
    ctx.expect.refused(res, `a request with ${invalid.defect.description} (§7.2: 400 validation error)`);
    const probe =
      e.id === 'validateAccount'
        ? probeOf('stageAccount', { body: valid.body })
        : ledgerless(e.id, subject.account)
          ? undefined
          : probeOf(e.id, valid);
    await o.assertState(
      {
        expected: before,
        why: `a request refused with 400 (${invalid.defect.kind} at ${invalid.attr}) must change nothing (§7.2)`,
        probes: [probe],
      },
      'after the refused request',
    );
  },
}));

export default defineRules('refused', perEndpoint);
