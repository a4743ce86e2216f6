/**
 * §2.3 types and enumerations, one defect each, refused by validate and stage at its path (the
 * property rules draw the same kinds at random; these examples make each one certain to be sent):
 * a documented enum value in another case, a fraction where an integer is due, a value that no
 * reading makes a boolean — and, at SHOULD, a boolean sent as the string "true".
 *
 * Then the same kinds, and a wrong JSON type, at every documented field of every other request body
 * (a type unchecked outside the account payload slipped past every rule): the places come from
 * walking each endpoint's request schema in core/spec over a valid body, so a field added to the
 * model gets its defects for free. Each request must be refused (§7.2: "400 | validation error on
 * any endpoint", told from the other 400s by its §7.1 body) and leave nothing behind: the account's status and listings as before, and the
 * valid body, sent last, taken as new.
 */
import { z } from 'zod';
import type { RuleContext } from '../core/engine/context.js';
import { type Need, TO_IMPORT } from '../core/engine/needs.js';
import { defineRules, type RuleInput } from '../core/engine/rule.js';
import type { HttpResponse } from '../core/http/client.js';
import { CATALOGUE, type Catalogue, type EndpointDriver, observes, probeFrom } from '../core/engine/drivers.js';
import { type EndpointId, type EndpointSpec, model } from '../core/spec/index.js';
import { DEFECTS, type DefectKind, everyDefect, type Invalid, TYPE_DEFECTS } from '../generators/index.js';
import { billingDocuments } from './billing.js';
import { defect } from './conventions.js';
import { oracle } from '../core/engine/observe.js';
import { accountKey, subjectFor, transaction } from './support.js';
import { PROBE_WIDTH, eachProbe } from '../core/engine/probes.js';

// Types of every request field, not only the account payload's ------------------------------------

/** Another body an endpoint's validation error may carry (docs/freedoms.md §4.2, §7.1). */
const VALIDATION_BODY_OR: Partial<Record<EndpointId, { schema: z.ZodType; name: string }>> = {
  // transaction_data echoes the failing transaction as sent, which here may be the wrong-typed value itself.
  createTransactions: {
    schema: z.looseObject({ status: z.literal('TRANSACTION_IMPORT_ERROR'), error_detail: z.string() }),
    name: 'the TRANSACTION_IMPORT_ERROR body of §4.2',
  },
};

/** What a type rule stands on: a valid body, the account it touches, and a probe run afterwards. */
interface Prepared {
  body: Record<string, unknown>;
  /** The account whose observable state the refusals must leave as it was (§4.3). */
  account?: { supplier: string; ext: string };
  /** Sends the valid body once the refusals are done: it must be taken as new, so none left a trace. */
  probe(): Promise<void>;
}

interface TypedEndpoint {
  endpoint: EndpointId;
  slug: string;
  spec: string;
  what: string;
  schema: z.ZodType;
  needs: readonly Need[];
  prepare(ctx: RuleContext): Promise<Prepared>;
}

/**
 * Fields that name the account or the business a request is about. A wrong type there may be read
 * as a wrong supplier code or external number, which §4.2 notes rule 5 and §7.2 answer with 404.
 */
const KEY_FIELDS = new Set([
  'import_supplier',
  'import_supplier_code',
  'external_account_number',
  'external_business_identifier',
]);

/** §4.2 names `ledger_number` among the billing documents fields without a shape: no value there is a wrong type. */
const UNTYPED: ReadonlySet<string> = new Set(['ledger_number']);

/** The payment instruction template for an account or business, with the configured vendor, reference and type (§2.7). */
function instruction(ctx: RuleContext, kind: 'payment_instruction' | 'business_payment_instruction', key: object) {
  const { vendor, type } = ctx.preconditions.paymentInstruction;
  return ctx.preconditions.payloads.request(kind, ctx.ids, {
    ...key,
    vendor,
    reference: ctx.preconditions.nextValidPaymentReference(),
    type,
  }) as Record<string, unknown>;
}

async function expectCreated(ctx: RuleContext, res: HttpResponse, status: number | number[], what: string) {
  ctx.expect.status(res, status, `${what}, sent after every wrong-typed one was refused`);
}

/**
 * The endpoints whose type rule is written here (their valid request or its probe is their own), or
 * the reason they have none; every other endpoint's rule is derived from its driver (fromDriver).
 * Typed entries come first, in the order of their rules.
 */
const TYPED: Partial<Record<EndpointId, Omit<TypedEndpoint, 'endpoint'> | { notTyped: string }>> = {
  processAccount: {
    slug: 'process',
    spec: '§4.1 process (dry_run: boolean), §7.2, §3',
    what: 'process request',
    schema: model.ProcessAccountRequest,
    needs: TO_IMPORT,
    async prepare(ctx) {
      const a = await ctx.given.staged();
      const body = {
        external_account_number: a.ext,
        import_supplier_code: a.supplier,
        operations_team_name: ctx.preconditions.operationsTeam,
        dry_run: false,
      };
      return {
        body,
        account: a,
        async probe() {
          const res = await ctx.given.process(a.supplier, a.ext, { dry_run: false }, 'the valid process request');
          await expectCreated(ctx, res, 201, 'the valid process request (§3: the account is still staged)');
        },
      };
    },
  },
  createNotes: {
    slug: 'notes',
    spec: '§4.2 notes, §2.3 note, §7.2',
    what: 'notes request',
    schema: model.NotesRequest,
    needs: TO_IMPORT,
    async prepare(ctx) {
      const a = await ctx.given.imported();
      const note = { ...ctx.preconditions.payloads.item('notes', 'notes', ctx.ids), body: ctx.ids.noteBody('types') };
      const body = { ...accountKey(a.supplier, a.ext), notes: [note] };
      return {
        body,
        account: a,
        async probe() {
          const res = await ctx.api.call('createNotes', { body, step: 'the valid notes request' });
          await expectCreated(ctx, res, 201, 'the valid notes request');
          ctx.expect.equal(
            ctx.expect.body(res, model.NotesResponse, 'notes response').map((n) => n.status),
            ['NOTE_CREATION_SUCCESS'],
            'the note is new: no refused request created it (§4.2 notes rule 2)',
            res,
          );
        },
      };
    },
  },
  createTransactions: {
    slug: 'transactions',
    spec: '§4.2 transactions, §2.4, §7.2',
    what: 'transactions request',
    schema: model.TransactionsRequest,
    needs: TO_IMPORT,
    async prepare(ctx) {
      const a = await ctx.given.imported();
      const body = { ...accountKey(a.supplier, a.ext), transactions: [transaction(ctx)] };
      return {
        body,
        account: a,
        async probe() {
          const res = await ctx.api.call('createTransactions', { body, step: 'the valid transactions request' });
          await expectCreated(ctx, res, 201, 'the valid transactions request');
          ctx.expect.equal(
            ctx.expect.body(res, model.TransactionsResponse, 'transactions response').results.map((r) => r.status),
            ['TRANSACTION_ADDED_TO_ACCOUNT'],
            'the transaction is new: no refused request added it (§4.2 transactions)',
            res,
          );
        },
      };
    },
  },
  createHistoricalBillingDocuments: {
    slug: 'billing-documents',
    spec: '§4.2 historical billing documents, §2.5, §7.2, §8',
    what: 'historical billing documents request',
    schema: model.HistoricalBillingDocumentsRequest,
    needs: TO_IMPORT,
    async prepare(ctx) {
      const a = await ctx.given.imported();
      const body = billingDocuments(ctx, a, a.payload.ledgers![0].ledger_code!, 'PERIOD_BASED') as Record<
        string,
        unknown
      >;
      return {
        body,
        account: a,
        async probe() {
          const res = await ctx.api.call('createHistoricalBillingDocuments', {
            body,
            step: 'the valid historical billing documents request',
          });
          await expectCreated(
            ctx,
            res,
            201,
            'the valid import (§8: once per ledger, so no refused request used the ledger)',
          );
        },
      };
    },
  },
  createHistoricalStatements: {
    slug: 'statements',
    spec: '§4.2 historical statements, §2.6, §7.2',
    what: 'historical statements request',
    schema: model.HistoricalStatementsRequest,
    needs: TO_IMPORT,
    async prepare(ctx) {
      const a = await ctx.given.imported();
      const body = ctx.preconditions.payloads.request(
        'historical_statements',
        ctx.ids,
        accountKey(a.supplier, a.ext),
      ) as Record<string, unknown>;
      return {
        body,
        account: a,
        async probe() {
          const res = await ctx.api.call('createHistoricalStatements', { body, step: 'the valid statements request' });
          await expectCreated(ctx, res, [200, 201], 'the valid statements request');
        },
      };
    },
  },
  createPaymentInstruction: {
    slug: 'payment-instruction',
    spec: '§4.2 payment instruction, §2.7, §7.2',
    what: 'payment instruction',
    schema: model.PaymentInstructionRequest,
    needs: [...TO_IMPORT, 'paymentInstruction'],
    async prepare(ctx) {
      const a = await ctx.given.imported();
      const body = instruction(ctx, 'payment_instruction', accountKey(a.supplier, a.ext));
      return {
        body,
        account: a,
        async probe() {
          const res = await ctx.api.call('createPaymentInstruction', { body, step: 'the valid payment instruction' });
          await expectCreated(ctx, res, 201, 'the valid payment instruction');
        },
      };
    },
  },
  createBusiness: {
    slug: 'business',
    spec: '§4.4 business, §2.8, §7.2',
    what: 'business request',
    schema: model.BusinessRequest,
    needs: ['ongoingSupplier'],
    async prepare(ctx) {
      const body = ctx.given.businessPayload(2) as unknown as Record<string, unknown>;
      return {
        body,
        async probe() {
          const res = await ctx.api.call('createBusiness', { body, step: 'the valid business request' });
          await expectCreated(ctx, res, 201, 'the valid business request');
        },
      };
    },
  },
  createBusinessPaymentInstruction: {
    slug: 'business-payment-instruction',
    spec: '§4.4 business payment instruction, §2.7, §7.2',
    what: 'business payment instruction',
    schema: model.BusinessPaymentInstructionRequest,
    needs: [...TO_IMPORT, 'paymentInstruction'],
    async prepare(ctx) {
      const business = await ctx.given.business(1);
      const a = await ctx.given.imported(
        ctx.given.linkToContract(ctx.given.account(), business.contractIdentifiers[0]),
      );
      const body = instruction(ctx, 'business_payment_instruction', {
        import_supplier_code: business.supplier,
        external_business_identifier: business.externalIdentifier,
        accounts: [{ external_account_number: a.ext }],
      });
      return {
        body,
        account: a,
        async probe() {
          const res = await ctx.api.call('createBusinessPaymentInstruction', {
            body,
            step: 'the valid business payment instruction',
          });
          await expectCreated(ctx, res, 201, 'the valid business payment instruction');
        },
      };
    },
  },
  validateAccount: { notTyped: 'the account payload: the defect rules above and the property rules (§2.3)' },
  stageAccount: { notTyped: 'the account payload: the defect rules above and the property rules (§2.3)' },
  createAgreements: { notTyped: '§4.2: payload shape not shown' },
  createSupplyPoints: { notTyped: '§4.2: payload shape not shown' },
  accountTransferStatus: { notTyped: 'a GET without a body' },
  allAccountImportProcesses: { notTyped: 'a GET without a body' },
  pendingAccountImportProcesses: { notTyped: 'a GET without a body' },
  importedAccountImportProcesses: { notTyped: 'a GET without a body' },
};

/** The endpoints with a type rule, in rule order. */
/**
 * The type rule of an endpoint that has no entry above, derived from its driver
 * (core/engine/drivers.ts): the driver's valid request about the account its scope asks for, walked
 * for wrong types, and the driver's effect probe (the valid request taken as new) sent last. An
 * endpoint added to the model is typed this way with nothing more written; one whose driver sees no
 * effect cannot be, and needs an entry or a reason above.
 */
function fromDriver(e: EndpointSpec, driver: EndpointDriver): Omit<TypedEndpoint, 'endpoint'> | undefined {
  if (e.method !== 'POST' || !e.body || !observes(driver)) return undefined;
  return {
    slug: e.path.split('/')[3],
    spec: `${e.spec}, §7.2`,
    what: `${e.words} request`,
    schema: e.body,
    needs: [...TO_IMPORT, ...(driver.sampleNeeds ?? [])],
    async prepare(ctx) {
      const { request, account } = await subjectFor(ctx, e.id, driver);
      return {
        body: request.body as Record<string, unknown>,
        account,
        probe: () => probeFrom(driver, request)!.run(ctx),
      };
    },
  };
}

/**
 * The entries above in their order, then every other endpoint of the catalogue with its derived
 * rule; an endpoint with neither stops the suite from loading, named (every test then fails on it).
 */
export function typedEndpoints(c: Catalogue = CATALOGUE): TypedEndpoint[] {
  return [
    ...Object.entries(TYPED).map(([endpoint, t]) => [endpoint as EndpointId, t] as const),
    ...c.endpoints
      .filter((e) => !TYPED[e.id])
      .map((e) => {
        const derived = fromDriver(e, c.drivers[e.id]);
        if (!derived)
          throw new Error(
            `suites/conventions-types.ts: ${e.id} has no type rule and its driver sees no effect to derive one from; give it an entry in TYPED, or { notTyped: why }`,
          );
        return [e.id, derived] as const;
      }),
  ].flatMap(([endpoint, t]) => (t && !('notTyped' in t) ? [{ ...t, endpoint }] : []));
}

/**
 * One case per documented field and kind: the items of a list share their fields, so only the last
 * item's (where a server that checks the first item alone lets a mistake through) is sent.
 */
function onePerField(cases: Invalid[]): Invalid[] {
  const last = new Map<string, Invalid>();
  for (const c of cases) last.set(`${c.attr.replace(/\.\d+(?=\.|$)/g, '.*')} ${c.defect.kind}`, c);
  return [...last.values()];
}

/**
 * Sends the valid body of `t` once per place and type defect the schema walk finds in it: each must
 * be refused with 400 (404 allowed where the field names the account or business), the account's
 * observable state must be as before, and the valid body, sent last, must be taken as new.
 */
async function typesRefused(ctx: RuleContext, t: TypedEndpoint, kinds: readonly DefectKind[]): Promise<void> {
  const prepared = await t.prepare(ctx);
  const cases = onePerField(everyDefect(t.schema, prepared.body, kinds, UNTYPED));
  const watch = prepared.account;
  const judge = oracle(ctx);
  const before = watch ? await judge.observe(watch, 'before the wrong-typed requests') : undefined;
  await eachProbe(
    ctx,
    cases,
    async (invalid) => {
      const key = KEY_FIELDS.has(invalid.attr);
      const res = await ctx.api.call(t.endpoint, {
        body: invalid.payload,
        defective: true,
        step: `${t.what} with ${invalid.defect.description}`,
      });
      // §7.2: "400 | validation error on any endpoint"; §2.1: a provided field must satisfy its rules.
      // A validation error, told by its §7.1 body from the other 400s (a dry run, an account already imported).
      const what = `${t.what} with ${invalid.defect.description}`;
      if (key) ctx.expect.status(res, [400, 404], what);
      else ctx.expect.validationError(res, what, VALIDATION_BODY_OR[t.endpoint]);
    },
    (invalid) => `${t.what} with ${invalid.defect.description}`,
    // Process requests for one account go one at a time: an implementation may mark the account
    // in progress before it validates (§3 does not say), and answer a request beside another one
    // "in progress" rather than 400 — a reading, not a fault, that only concurrency would surface.
    t.endpoint === 'processAccount' ? 1 : PROBE_WIDTH,
  );
  if (before)
    await judge.expectUnchanged(
      before,
      'after the wrong-typed requests',
      'a refused request leaves what the interface shows of the account as it was',
    );
  await prepared.probe();
  const kindsSent = [...new Set(cases.map((c) => c.defect.kind))];
  ctx.observe(
    `${cases.length} wrong-typed ${t.what}s refused (${kindsSent.join(', ') || 'no field of these kinds in the body'}).`,
  );
}

/** One MUST rule per typed endpoint of the catalogue (conventions.types.<slug>). */
export const typeRules = (c: Catalogue = CATALOGUE, typed = typedEndpoints(c)): RuleInput[] =>
  typed.map(
    (t): RuleInput => ({
      id: `conventions.types.${t.slug}`,
      spec: t.spec,
      level: 'MUST',
      title: `A ${t.what} with any one documented field of the wrong JSON type (a list, text, a fraction, a value in another case, no boolean) is refused with 400 and leaves nothing behind`,
      endpoints: [t.endpoint],
      needs: t.needs,
      tags: ['validation'],
      check: (ctx) =>
        typesRefused(
          ctx,
          t,
          TYPE_DEFECTS.filter((k) => DEFECTS[k].level === 'MUST'),
        ),
    }),
  );

const TYPED_ENDPOINTS = typedEndpoints();

const booleanStrings: RuleInput[] = [
  {
    id: 'conventions.types.boolean-strings',
    spec: '§4.1 process (dry_run: boolean), §2.3 note (is_pinned: boolean), §7.2',
    level: 'SHOULD',
    why: 'The fields are booleans, but many frameworks (Django REST framework among them) read the strings "true" and "false" as booleans; refusing them is a reading.',
    title:
      'A boolean request field sent as the string "true" or "false" (dry_run, a note\'s is_pinned) is refused with 400 and leaves nothing behind',
    endpoints: ['processAccount', 'createNotes'],
    needs: TO_IMPORT,
    tags: ['validation'],
    async check(ctx) {
      for (const t of TYPED_ENDPOINTS.filter((x) => x.endpoint === 'processAccount' || x.endpoint === 'createNotes'))
        await typesRefused(ctx, t, ['boolean-as-string']);
    },
  },
];

export default defineRules(
  'conventions',
  [
    defect({
      id: 'conventions.enum.wrong-case',
      spec: '§2.3 supply point (GAS or ELECTRICITY), §7.1',
      kind: 'enum-wrong-case',
      title: 'A supply_type written in another case (gas) is refused, with attr at the field',
      at: 'supply_addresses.0.supply_points.1.supply_type',
      value: 'gas',
      what: 'a supply type in lower case',
    }),
    defect({
      id: 'conventions.enum.transaction-type-case',
      spec: '§2.4 (type), §7.1',
      kind: 'enum-wrong-case',
      title: 'A transaction type written in another case (charge) is refused, with attr at the field',
      at: 'ledgers.0.current_statement_transactions.1.type',
      value: 'charge',
      what: 'a transaction type in lower case',
    }),
    defect({
      id: 'conventions.integer.fraction',
      spec: '§2.3 agreement (estimated_monthly_fee_in_cents: integer), §7.1',
      kind: 'fraction-for-integer',
      title: 'A number with a fraction where an integer is due (1250.5) is refused, with attr at the field',
      at: 'supply_addresses.0.supply_points.1.agreements.0.estimated_monthly_fee_in_cents',
      value: 1250.5,
      what: 'a fraction for an integer',
    }),
    defect({
      id: 'conventions.boolean.not-a-boolean',
      spec: '§2.3 (unknown_occupier: boolean), §7.1',
      kind: 'not-a-boolean',
      title: 'A value no reading makes a boolean ("sí") is refused where a boolean is due, with attr at the field',
      at: 'unknown_occupier',
      value: 'sí',
      what: 'text for a boolean',
    }),
    defect({
      id: 'conventions.boolean.string',
      spec: '§2.3 (unknown_occupier: boolean), §7.1',
      kind: 'boolean-as-string',
      title: 'A boolean sent as the string "true" is refused, with attr at the field',
      why: 'The field is a boolean, but many frameworks (Django REST framework among them) read the strings "true" and "false" as booleans; refusing them is a reading.',
      at: 'unknown_occupier',
      value: 'true',
      what: 'the string "true" for a boolean',
    }),
    ...typeRules(CATALOGUE, TYPED_ENDPOINTS),
    ...booleanStrings,
  ],
  { needs: ['ongoingSupplier'] },
);
