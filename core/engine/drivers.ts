/**
 * How the engine drives each endpoint of the spec model, one record per endpoint: what a valid
 * request is about and how one is made, and how its effect is seen. The generic families (§5 401
 * and refused-has-no-effect, refused-means-nothing for validation and unknown accounts, the 404s
 * of §7.2, …) iterate the model's endpoints and read this table, so an endpoint added to the model
 * (§9.2: "new endpoints … can be added") is driven by all of them at once. The table is keyed by
 * `EndpointId`: an endpoint without a record does not compile, and one whose effect cannot be seen
 * says why (`observable: false`) — nothing is dropped silently.
 */
import type { HttpResponse } from '../http/client.js';
import { type EndpointId, type EndpointSpec, model } from '../spec/index.js';
import type { CallOptions } from './api.js';
import type { Need } from './needs.js';
import type { Probe } from './observe.js';
import type { RuleContext } from './rule.js';
import { fillTemplate } from './templates.js';

/**
 * Which account a valid request is about, so what it stands on: validate and stage take a new
 * account, process a staged one, the §4.2 additions an imported one; reads and the business
 * endpoints are about no account the rule must set up.
 */
export type Scope = 'fresh' | 'staged' | 'imported' | 'none';

/** How a request's effect is seen: the probe a valid request offers, or why the interface shows none. */
export type Effect = { probe(request: CallOptions): Probe } | { observable: false; why: string };

export interface EndpointDriver {
  scope: Scope;
  /**
   * A request valid in every respect, about an account or business that does not exist (one with a
   * fresh namespaced identifier): where a rule varies one other thing — the token (§5), the account.
   */
  sample(ctx: RuleContext): CallOptions;
  /** Preconditions the sample stands on beyond an Ongoing supplier (a payload template the spec does not show). */
  sampleNeeds?: readonly Need[];
  effect: Effect;
  /** A fresh valid item of the batch, for an endpoint whose model names its items (`items`, §4.2). */
  item?(ctx: RuleContext): Record<string, unknown>;
}

/** A date inside any open statement period of a freshly imported account: today. */
export const today = () => new Date().toISOString().slice(0, 10);

/**
 * A transaction to add to a freshly imported account: the CHARGE of the transactions template (or
 * its first), with a fresh id, dated today (inside any open statement period), `extra` applied.
 */
export function transaction(ctx: RuleContext, extra: Record<string, unknown> = {}) {
  const template = ctx.preconditions.payloads.item<Record<string, unknown>>(
    'transactions',
    'transactions',
    ctx.ids,
    { transaction_date: today(), ...extra },
    (t) => t.type === 'CHARGE',
  );
  return template as { transaction_id: string; transaction_date: string; type: string } & Record<string, unknown>;
}

export const accountKey = (supplier: string, ext: string) => ({
  import_supplier: supplier,
  external_account_number: ext,
});

/** The configured upstream instruction (§2.7), or the template's own fields when none is configured. */
function vendorInstruction(ctx: RuleContext): Record<string, string> {
  const pi = ctx.preconditions.config.payment_instruction;
  return pi ? { vendor: pi.vendor, reference: pi.references.valid[0], type: pi.type } : {};
}

/** The run's Ongoing supplier and a fresh external account number: the sample's account. */
function freshAccount(ctx: RuleContext) {
  const supplier = ctx.preconditions.config.import_suppliers?.ongoing ?? 'SUPPLIER';
  const ext = ctx.ids.externalAccountNumber();
  return { supplier, ext, key: accountKey(supplier, ext) };
}

/**
 * The sample of an endpoint whose payload shape the spec does not show (§4.2 agreements, supply
 * points): the configured template filled with the account's keys and a fresh supply point
 * identifier under `idField`, or the keys alone when none is configured.
 */
function templated(
  ctx: RuleContext,
  kind: 'agreements' | 'supply_points',
  /** Read only when configured: reading an unconfigured template is an internal error. */
  template: () => unknown,
  idField: string,
): CallOptions {
  const { key } = freshAccount(ctx);
  return {
    body: ctx.preconditions.payloads.configured(kind)
      ? fillTemplate(template(), { ...key, [idField]: ctx.ids.supplyPointIdentifier() })
      : key,
  };
}

const STEP = 'probe: the request again, valid, as the last step';
type Body = Record<string, unknown>;
const bodyOf = (request: CallOptions): Body => (request.body ?? {}) as Body;

/** Every item of a §4.2 result list has `first` as its status, one item per item sent. */
function everyItem(ctx: RuleContext, res: HttpResponse, statuses: string[], sent: number, first: string, why: string) {
  ctx.expect.equal(
    statuses,
    Array.from({ length: sent }, () => first),
    why,
    res,
  );
}

/** A probe that sends the request again and expects the status of a first request. */
const answeredFirst = (endpoint: EndpointId, what: string, status: number, why: string): Effect => ({
  probe: (request) => ({
    what,
    run: async (ctx) => ctx.expect.status(await ctx.api.call(endpoint, { ...request, step: STEP }), status, why),
  }),
});

const unobservable = (why: string): Effect => ({ observable: false, why });
const READ: Effect = unobservable('a read changes nothing');

/** The request of a listing or the status of the sample's account. */
const readOf = (ctx: RuleContext): CallOptions => {
  const { supplier, ext } = freshAccount(ctx);
  return { params: { import_supplier_code: supplier, external_account_number: ext } };
};

export const DRIVERS: Record<EndpointId, EndpointDriver> = {
  validateAccount: {
    scope: 'fresh',
    sample: (ctx) => ({ body: ctx.given.account(freshAccount(ctx).supplier) }),
    // Refused-means-nothing rules probe validate through staging the same account.
    effect: unobservable('validate keeps nothing (§4.1): its effect is seen by staging the same account afterwards'),
  },
  stageAccount: {
    scope: 'fresh',
    sample: (ctx) => ({ body: ctx.given.account(freshAccount(ctx).supplier) }),
    effect: answeredFirst(
      'stageAccount',
      'staging answers 201, a first staging (§3)',
      201,
      'the account is staged for the first time now (§3 none → staged)',
    ),
  },
  processAccount: {
    scope: 'staged',
    sample: (ctx) => {
      const { supplier, ext } = freshAccount(ctx);
      return {
        body: {
          external_account_number: ext,
          import_supplier_code: supplier,
          operations_team_name: ctx.preconditions.config.operations_team ?? 'team',
        },
      };
    },
    effect: {
      probe: (request) => ({
        what: 'process answers 201, the account created now (§3)',
        run: async (ctx) => {
          const { dry_run: _dry, external_account_number, import_supplier_code, ...extra } = bodyOf(request);
          const res = await ctx.given.process(
            String(import_supplier_code),
            String(external_account_number),
            extra,
            STEP,
          );
          ctx.expect.status(
            res,
            201,
            'the account is created now (§3 staged → imported), so nothing before created it',
          );
        },
      }),
    },
  },
  createNotes: {
    scope: 'imported',
    item: (ctx) => ctx.preconditions.payloads.item('notes', 'notes', ctx.ids),
    sample: (ctx) => ({
      body: { ...freshAccount(ctx).key, notes: [ctx.preconditions.payloads.item('notes', 'notes', ctx.ids)] },
    }),
    effect: {
      probe: (request) => ({
        what: 'every note is created now (§4.2 notes rule 2)',
        run: async (ctx) => {
          const res = await ctx.api.call('createNotes', { ...request, step: STEP });
          ctx.expect.status(res, 201);
          const results = ctx.expect.body(res, model.NotesResponse, 'notes response');
          everyItem(
            ctx,
            res,
            results.map((r) => r.status),
            (bodyOf(request).notes as unknown[]).length,
            'NOTE_CREATION_SUCCESS',
            'every note is created now, so none was stored before (§4.2 notes rule 2)',
          );
        },
      }),
    },
  },
  createAgreements: {
    scope: 'imported',
    sample: (ctx) => templated(ctx, 'agreements', () => ctx.preconditions.agreementsPayload, 'supply_point_identifier'),
    // §4.2: the payload shape is "not shown"; without the configured one the request could be
    // refused for its shape before the account is looked up, which is legal.
    sampleNeeds: ['agreementsPayload'],
    effect: unobservable('§4.2: 201 with an empty body, and no read of the interface shows agreements'),
  },
  createSupplyPoints: {
    scope: 'imported',
    sample: (ctx) =>
      templated(ctx, 'supply_points', () => ctx.preconditions.supplyPointsPayload, 'new_supply_point_identifier'),
    sampleNeeds: ['supplyPointsPayload'],
    effect: unobservable('§4.2: 201 with an empty body, and no read of the interface shows supply points'),
  },
  createTransactions: {
    scope: 'imported',
    item: (ctx) => transaction(ctx),
    sample: (ctx) => ({ body: { ...freshAccount(ctx).key, transactions: [transaction(ctx)] } }),
    effect: {
      probe: (request) => ({
        what: 'every transaction is added now (§4.2 transactions)',
        run: async (ctx) => {
          const res = await ctx.api.call('createTransactions', { ...request, step: STEP });
          ctx.expect.status(res, 201);
          const results = ctx.expect.body(res, model.TransactionsResponse, 'transactions response').results;
          everyItem(
            ctx,
            res,
            results.map((r) => r.status),
            (bodyOf(request).transactions as unknown[]).length,
            'TRANSACTION_ADDED_TO_ACCOUNT',
            'every transaction is added now, so none was added before (§4.2 transactions: TRANSACTION_ALREADY_EXISTS means added earlier)',
          );
        },
      }),
    },
  },
  createHistoricalBillingDocuments: {
    scope: 'imported',
    sample: (ctx) => ({
      body: ctx.preconditions.payloads.request('historical_billing_documents', ctx.ids, {
        ...freshAccount(ctx).key,
        ledger_code: ctx.ids.other('L'),
      }),
    }),
    effect: answeredFirst(
      'createHistoricalBillingDocuments',
      'the ledger takes its historical billing documents now (§4.2 once per ledger, §8)',
      201,
      'the ledger still takes its historical billing documents once (§4.2, §8), so nothing before billed it',
    ),
  },
  createHistoricalStatements: {
    scope: 'imported',
    sample: (ctx) => ({
      body: ctx.preconditions.payloads.request('historical_statements', ctx.ids, freshAccount(ctx).key),
    }),
    effect: unobservable(
      '§4.2: the answer is the validated data, the same for a first and a repeated request, and no read shows statements',
    ),
  },
  createPaymentInstruction: {
    scope: 'imported',
    sample: (ctx) => ({
      body: ctx.preconditions.payloads.request('payment_instruction', ctx.ids, {
        ...freshAccount(ctx).key,
        ...vendorInstruction(ctx),
      }),
    }),
    effect: unobservable(
      '§2.7: the instruction is checked upstream and stored, but nothing the interface shows tells a stored instruction from one not stored',
    ),
  },
  accountTransferStatus: { scope: 'none', sample: readOf, effect: READ },
  allAccountImportProcesses: { scope: 'none', sample: readOf, effect: READ },
  pendingAccountImportProcesses: { scope: 'none', sample: readOf, effect: READ },
  importedAccountImportProcesses: { scope: 'none', sample: readOf, effect: READ },
  createBusiness: {
    scope: 'none',
    sample: (ctx) => ({ body: ctx.given.businessPayload(1, freshAccount(ctx).supplier) }),
    effect: answeredFirst(
      'createBusiness',
      'the business is created now (§4.4, §2.8 unique)',
      201,
      'the business is created now (§4.4), so nothing before created it (§2.8: a business is unique)',
    ),
  },
  createBusinessPaymentInstruction: {
    scope: 'none',
    sample: (ctx) => ({
      body: ctx.preconditions.payloads.request('business_payment_instruction', ctx.ids, {
        import_supplier_code: freshAccount(ctx).supplier,
        external_business_identifier: ctx.ids.businessIdentifier(),
        ...vendorInstruction(ctx),
      }),
    }),
    effect: unobservable(
      '§2.7: the instruction is checked upstream and stored, but nothing the interface shows tells a stored instruction from one not stored',
    ),
  },
};

/** The probe a valid request offers, or undefined when its effect cannot be seen (the driver says why). */
export const probeFrom = (driver: EndpointDriver, request: CallOptions): Probe | undefined =>
  'probe' in driver.effect ? driver.effect.probe(request) : undefined;

/** Whether the effect of a valid request can be seen (its probe). */
export const observes = (driver: EndpointDriver): boolean => 'probe' in driver.effect;

/** The probe a valid request of `endpoint` offers, or undefined when its effect cannot be seen (its driver says why). */
export const probeOf = (endpoint: EndpointId, request: CallOptions): Probe | undefined =>
  probeFrom(DRIVERS[endpoint], request);

/** Whether the effect of a valid request of `endpoint` can be seen (its probe). */
export const observable = (endpoint: EndpointId): boolean => observes(DRIVERS[endpoint]);

/** A valid request of `endpoint` about an account or business that does not exist. */
export const sampleRequest = (ctx: RuleContext, endpoint: EndpointId): CallOptions => DRIVERS[endpoint].sample(ctx);

/** Which account a request of `endpoint` is about. */
export const scopeOf = (endpoint: EndpointId): Scope => DRIVERS[endpoint].scope;

/**
 * The endpoints a generic family makes its rules for, each with its driver: the spec model's
 * (`CATALOGUE`), or a grown copy in a test, which is how a new endpoint is shown to get every
 * family's rules from its model entry and its driver alone.
 */
export interface Catalogue {
  endpoints: readonly EndpointSpec[];
  drivers: Readonly<Record<EndpointId, EndpointDriver>>;
}

export const CATALOGUE: Catalogue = { endpoints: Object.values(model.endpoints), drivers: DRIVERS };

/**
 * What is wrong with a catalogue of endpoints and drivers: an endpoint with no driver, an effect
 * unobservable without a reason, a batch without its item, a driver for no endpoint. Empty when the
 * table is whole (test/suites/drivers.test.ts holds the real one to it).
 */
export function driverProblems(
  endpoints: Readonly<Record<string, { id: string; items?: unknown }>>,
  drivers: Readonly<Record<string, EndpointDriver | undefined>>,
): string[] {
  const problems: string[] = [];
  for (const e of Object.values(endpoints)) {
    const driver = drivers[e.id];
    if (!driver) problems.push(`${e.id}: no driver (core/engine/drivers.ts DRIVERS)`);
    else {
      if (!('probe' in driver.effect) && !driver.effect.why.trim())
        problems.push(`${e.id}: its effect is unobservable and the driver does not say why`);
      if (e.items && !driver.item) problems.push(`${e.id}: a batch endpoint whose driver makes no item`);
    }
  }
  for (const id of Object.keys(drivers))
    if (!(id in endpoints)) problems.push(`${id}: a driver for no endpoint of the model`);
  return problems;
}
