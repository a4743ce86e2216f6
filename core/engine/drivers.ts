/**
 * How the engine drives each endpoint of the spec model, one record per endpoint, stating the whole
 * endpoint: what must exist first (its scope), a valid request, its documented success, how its
 * effect is seen, its items, and what its answers tell the run's history. The generic families (§5
 * 401 and refused-has-no-effect, bad input, field types, refused-means-nothing for validation and
 * unknown accounts, the 404s of §7.2) and the history read only this table, so an endpoint added to
 * the model (§9.2: "new endpoints … can be added") is driven by all of them at once. The table is
 * keyed by `EndpointId`: an endpoint without a record does not compile, and one whose effect cannot
 * be seen says why (`observable: false`) — nothing is dropped silently.
 */
import type { HttpResponse } from '../http/client.js';
import { z } from 'zod';
import { type AccountPayload, type EndpointId, type EndpointSpec, model } from '../spec/index.js';
import type { CallOptions } from './api.js';
import type { HistoryTell } from './history.js';
import { freshCopy } from './ids.js';
import type { Need } from './needs.js';
import type { Probe } from './observe.js';
import type { RuleContext } from './rule.js';
import { fillTemplate } from './templates.js';

/**
 * What must exist before a valid request is sent: validate and stage take a new account, process a
 * staged one, the §4.2 additions an imported one, the business payment instruction — for an
 * accepted request — a business with an imported account linked to one of its contracts (§4.4);
 * reads and business creation stand on nothing the rule sets up.
 */
export type Scope = 'fresh' | 'staged' | 'imported' | 'business' | 'none';

/**
 * The account (and business) a valid request is about, set up as the driver's scope asks, with the
 * payload it was staged with (for its ledgers).
 */
export interface SubjectAccount {
  supplier: string;
  ext: string;
  payload: Record<string, unknown>;
  /** The business a request of scope `business` is about (§4.4). */
  business?: { supplier: string; externalIdentifier: string };
  /** Which part of the subject a request is about, where the driver makes room for many (`room`). */
  slot?: number;
}

/**
 * How a request's effect is seen: the probe a valid request offers (undefined when this subject lacks
 * what the probe stands on, such as a ledger), or why the interface shows none. `afterRefusal` is
 * what shows, for an endpoint that keeps nothing, that a refused request kept nothing either
 * (validate: staging the same account afterwards is a first staging).
 */
export type Effect =
  | { probe(request: CallOptions, subject?: SubjectAccount): Probe | undefined }
  | { observable: false; why: string; afterRefusal?(request: CallOptions): Probe };

/** The documented success of a valid request (§4): what "accepted" means for this endpoint. */
export interface Accepted {
  /** The documented success statuses (§4.2 historical statements: 200 or 201). */
  status: number | readonly number[];
  /** Preconditions an accepted request stands on beyond its scope's (§2.7: a reference the vendor knows). */
  needs?: readonly Need[];
  /**
   * What an accepted request stands on, where it is more than the driver's scope: a refused request
   * (401, bad input) is judged about nothing that exists, an accepted one needs its subject.
   */
  scope?: Scope;
}

/** A batch (§4.2 notes, transactions): its list, the fields that deduplicate it, and a fresh valid item. */
export interface Batch {
  list: string;
  dedup: readonly string[];
  item(ctx: RuleContext): Record<string, unknown>;
  /**
   * Where the spec leaves open whether the valid items of a refused batch may be kept (§4.2
   * transactions report "the first failing transaction only"): the rule only records what happened.
   */
  refusedKeepsOpen?: string;
}

/**
 * The words of the endpoint's field-type rule (`conventions.types.<endpoint>`, its one name), or why
 * it has none: the account payload is typed by the defect relation's rule (`defects` words it), a
 * GET has no body, a payload shape not shown has no documented field.
 */
export type TypeRuleWords =
  | { spec: string; what: string }
  | {
      notTyped: string;
      /**
       * The words of its defect rule (`relations.defect.<endpoint>`, suites/relations-defect.ts), which
       * then sends every MUST defect, the field types too, at every documented field (§2.1, §7.2).
       */
      defects?: { spec: string; what: string };
    };

export interface EndpointDriver {
  scope: Scope;
  /**
   * A request valid in every respect, about an account or business that does not exist (one with a
   * fresh namespaced identifier): where a rule varies one other thing — the token (§5), the account.
   */
  sample(ctx: RuleContext): CallOptions;
  /** Preconditions the sample stands on beyond an Ongoing supplier (a payload template the spec does not show). */
  sampleNeeds?: readonly Need[];
  /**
   * The valid request about `subject`, set up as the scope asks, when it is more than the sample with
   * the subject's keys: the account payload itself, a ledger the account has, a business's accounts.
   * `toAccept`: the request is to be accepted, not refused (§2.7: then it takes a reference in turn).
   */
  about?(ctx: RuleContext, subject: SubjectAccount, sample: CallOptions, toAccept: boolean): CallOptions;
  /** Documented optional fields a valid request may carry, sent where one field is broken (§2.1). */
  optional?: Record<string, unknown>;
  /** Its documented success: where the effect is not observable, a family's last word is this. */
  accepted: Accepted;
  effect: Effect;
  /**
   * A batch's list, dedup fields and item, or explicitly none (so a forgotten batch is a decision):
   * `'none'` for a request without a list of objects, `{ none: why }` for one whose lists are not a
   * batch of independent items (the parts of one account, one ledger's documents). A request with a
   * list of objects and a bare `'none'` is a problem `driverProblems` names.
   */
  items: Batch | 'none' | { none: string };
  /** What its answers tell the run's history (core/engine/history.ts). */
  history: HistoryTell;
  types: TypeRuleWords;
  /**
   * Why refused requests about one subject go one at a time, when they must (§3 does not say whether
   * an account is marked in progress before its request is validated).
   */
  oneAtATime?: string;
  /**
   * Why requests about one subject may be sent again and again, each taken as the first, where the
   * driver has no batch: the edge rule then sends them about one subject, and a request refused there
   * about a subject of its own (a server may still refuse what the spec does not forbid, such as
   * periods that overlap), so that only the request itself is judged.
   */
  repeatable?: string;
  /**
   * Where each request about a subject uses up a part of it (a ledger: §4.2, §8 once per ledger),
   * an account with room for `n` of them, each about its own part (`SubjectAccount.slot`): the edge
   * rule then sets up one subject for all its requests rather than one each. A server may refuse
   * such an account (a limit on its parts): each request is then about a subject of its own.
   */
  room?: { why: string; widen(account: AccountPayload, n: number, namespace: string): AccountPayload };
  /** Another body the endpoint's validation error may carry (docs/freedoms.md §4.2, §7.1). */
  validationBodyOr?: { schema: z.ZodType; name: string };
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

/** The ledgers the subject account was staged with (a template may have none). */
const ledgersOf = (subject: SubjectAccount) => (subject.payload.ledgers ?? []) as { ledger_code?: string }[];

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
  return fromTemplate(ctx, kind, template, freshAccount(ctx).key, () => ({
    [idField]: ctx.ids.supplyPointIdentifier(),
  }));
}

/**
 * The configured template of `kind` filled with `key` and what `fill` gives, or `key` alone when
 * none is configured: the template (and `fill`) are read only when configured, so a request that
 * is to be refused (401, bad input) is made without a need its rule does not declare.
 */
function fromTemplate(
  ctx: RuleContext,
  kind: 'agreements' | 'supply_points',
  template: () => unknown,
  key: Record<string, string>,
  fill: () => Record<string, string>,
): CallOptions {
  return { body: ctx.preconditions.payloads.configured(kind) ? fillTemplate(template(), { ...key, ...fill() }) : key };
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
const answeredFirst = (endpoint: EndpointId, what: string, status: number, why: string) => ({
  probe: (request: CallOptions): Probe => ({
    what,
    run: async (ctx) => ctx.expect.status(await ctx.api.call(endpoint, { ...request, step: STEP }), status, why),
  }),
});

const stagedFirst = answeredFirst(
  'stageAccount',
  'staging answers 201, a first staging (§3)',
  201,
  'the account is staged for the first time now (§3 none → staged)',
);

const unobservable = (why: string): Effect => ({ observable: false, why });
const READ: Effect = unobservable('a read changes nothing');
/** The account payload (§2.3): every MUST defect at every field by the defect relation, the types among them. */
const accountDefects = (spec: string, what: string): TypeRuleWords => ({
  notTyped: 'the account payload: its field types are among the defects of relations.defect.* (§2.3)',
  defects: { spec: `${spec}, §2.3, §2.1, §7.2`, what },
});
/** The lists of an account payload are parts of the one account (§2.3), not a batch of independent items. */
const ACCOUNT_PARTS =
  '§2.3: the lists of the account payload (customers, supply addresses, ledgers, …) are parts of the one account, not items added one by one';
const NOT_TYPED_GET: TypeRuleWords = { notTyped: 'a GET without a body' };

/** The request of a listing or the status of the sample's account. */
const readOf = (ctx: RuleContext): CallOptions => {
  const { supplier, ext } = freshAccount(ctx);
  return { params: { import_supplier_code: supplier, external_account_number: ext } };
};

/** A read of the status or a listing: about nothing set up, accepted with 200, telling the history `history`. */
const read = (history: HistoryTell): EndpointDriver => ({
  scope: 'none',
  sample: readOf,
  accepted: { status: 200 },
  effect: READ,
  items: 'none',
  history,
  types: NOT_TYPED_GET,
});

/**
 * The upstream instruction fields (§2.7) of a request: for one to be accepted, the configured vendor,
 * type and the next valid reference in turn (so rules spread over every instruction the operator
 * provided); for one to be refused, the first reference, taking none from the rules that need them
 * in turn; the template's own fields when none is configured.
 */
function instructionFields(ctx: RuleContext, toAccept: boolean): Record<string, string> {
  const pi = ctx.preconditions.config.payment_instruction;
  if (!pi || !toAccept) return vendorInstruction(ctx);
  return { vendor: pi.vendor, reference: ctx.preconditions.nextValidPaymentReference(), type: pi.type };
}

export const DRIVERS: Record<EndpointId, EndpointDriver> = {
  validateAccount: {
    scope: 'fresh',
    sample: (ctx) => ({ body: ctx.given.account(freshAccount(ctx).supplier) }),
    about: (_ctx, subject) => ({ body: subject.payload }),
    accepted: { status: 200 },
    effect: {
      observable: false,
      why: 'validate keeps nothing (§4.1): its effect is seen by staging the same account afterwards',
      afterRefusal: stagedFirst.probe,
    },
    items: { none: ACCOUNT_PARTS },
    history: 'nothing',
    types: accountDefects('§4.1 validate', 'validate request'),
  },
  stageAccount: {
    scope: 'fresh',
    sample: (ctx) => ({ body: ctx.given.account(freshAccount(ctx).supplier) }),
    about: (_ctx, subject) => ({ body: subject.payload }),
    accepted: { status: [201, 200] },
    effect: stagedFirst,
    items: { none: ACCOUNT_PARTS },
    history: 'staging',
    types: accountDefects('§4.1 stage', 'staging request'),
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
    // §4.1: dry_run is a documented boolean; sent false, it is a field a defect can break.
    optional: { dry_run: false },
    accepted: { status: 201 },
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
    items: 'none',
    history: 'processing',
    types: { spec: '§4.1 process (dry_run: boolean), §7.2, §3', what: 'process request' },
    // An implementation may mark the account in progress before it validates (§3 does not say), and
    // answer a request beside another one "in progress" rather than 400 — a reading, not a fault,
    // that only concurrency would surface.
    oneAtATime: '§3 does not say whether an account is marked in progress before its request is validated',
  },
  createNotes: {
    scope: 'imported',
    sample: (ctx) => ({
      body: { ...freshAccount(ctx).key, notes: [ctx.preconditions.payloads.item('notes', 'notes', ctx.ids)] },
    }),
    accepted: { status: 201 },
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
    // §4.2 notes rule 2: body and, when given, created_at.
    items: {
      list: 'notes',
      dedup: ['body', 'created_at'],
      item: (ctx) => ctx.preconditions.payloads.item('notes', 'notes', ctx.ids),
    },
    history: 'nothing',
    types: { spec: '§4.2 notes, §2.3 note, §7.2', what: 'notes request' },
  },
  createAgreements: {
    scope: 'imported',
    sample: (ctx) => templated(ctx, 'agreements', () => ctx.preconditions.agreementsPayload, 'supply_point_identifier'),
    // Accepted only for a supply point the account has (§4.2: "adds agreements to existing supply points").
    about: (ctx, subject) => {
      const groups = (subject.payload.supply_addresses ?? []) as { supply_points?: { identifier?: string }[] }[];
      const point = groups.flatMap((g) => g.supply_points ?? [])[0]?.identifier ?? ctx.ids.supplyPointIdentifier();
      return fromTemplate(
        ctx,
        'agreements',
        () => ctx.preconditions.agreementsPayload,
        accountKey(subject.supplier, subject.ext),
        () => ({ supply_point_identifier: point }),
      );
    },
    // §4.2: the payload shape is "not shown"; without the configured one the request could be
    // refused for its shape before the account is looked up, which is legal.
    sampleNeeds: ['agreementsPayload'],
    accepted: { status: 201 },
    effect: unobservable('§4.2: 201 with an empty body, and no read of the interface shows agreements'),
    items: 'none',
    history: 'nothing',
    types: { notTyped: '§4.2: payload shape not shown' },
  },
  createSupplyPoints: {
    scope: 'imported',
    sample: (ctx) =>
      templated(ctx, 'supply_points', () => ctx.preconditions.supplyPointsPayload, 'new_supply_point_identifier'),
    sampleNeeds: ['supplyPointsPayload'],
    accepted: { status: 201 },
    effect: unobservable('§4.2: 201 with an empty body, and no read of the interface shows supply points'),
    items: 'none',
    history: 'nothing',
    types: { notTyped: '§4.2: payload shape not shown' },
  },
  createTransactions: {
    scope: 'imported',
    sample: (ctx) => ({ body: { ...freshAccount(ctx).key, transactions: [transaction(ctx)] } }),
    accepted: { status: 201 },
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
    items: {
      list: 'transactions',
      dedup: ['transaction_id'],
      item: (ctx) => transaction(ctx),
      refusedKeepsOpen:
        'the 400 of transactions reports "the first failing transaction only" (§4.2), which leaves open whether the ones before it were added (docs/freedoms.md: a refused transaction request may keep them); recorded, never failed',
    },
    history: 'nothing',
    types: { spec: '§4.2 transactions, §2.4, §7.2', what: 'transactions request' },
    // transaction_data echoes the failing transaction as sent, which may be the wrong-typed value itself.
    validationBodyOr: {
      schema: z.looseObject({ status: z.literal('TRANSACTION_IMPORT_ERROR'), error_detail: z.string() }),
      name: 'the TRANSACTION_IMPORT_ERROR body of §4.2',
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
    // Once per ledger (§4.2, §8): about a ledger the account was imported with (its slot's, where it has room).
    about: (ctx, subject) => ({
      body: ctx.preconditions.payloads.billingDocuments(
        ctx.ids,
        accountKey(subject.supplier, subject.ext),
        ledgersOf(subject)[subject.slot ?? 0]?.ledger_code ?? ctx.ids.other('L'),
        'PERIOD_BASED',
      ),
    }),
    room: {
      why: '§4.2, §8: once per ledger, so each request takes a ledger of its own; an account has any number of ledgers (§2.3)',
      widen: (account, n, namespace) => {
        const [first] = (account.ledgers ?? []) as unknown[];
        if (first === undefined) return account;
        // Copies of the first ledger, its code and transactions made fresh (the run's namespace marks them).
        return {
          ...account,
          ledgers: Array.from({ length: n }, (_, i) => (i === 0 ? first : freshCopy(first, namespace, 500 + i))),
        } as AccountPayload;
      },
    },
    accepted: { status: 201 },
    effect: {
      // The once-per-ledger probe needs a ledger the account was imported with (a template may have none).
      probe: (request, subject) =>
        subject && !ledgersOf(subject).length
          ? undefined
          : answeredFirst(
              'createHistoricalBillingDocuments',
              'the ledger takes its historical billing documents now (§4.2 once per ledger, §8)',
              201,
              'the ledger still takes its historical billing documents once (§4.2, §8), so nothing before billed it',
            ).probe(request),
    },
    items: { none: "§4.2, §8: the documents are one ledger's, usable once per ledger, not items added one by one" },
    history: 'nothing',
    types: {
      spec: '§4.2 historical billing documents, §2.5, §7.2, §8',
      what: 'historical billing documents request',
    },
  },
  createHistoricalStatements: {
    scope: 'imported',
    sample: (ctx) => ({
      body: ctx.preconditions.payloads.request('historical_statements', ctx.ids, freshAccount(ctx).key),
    }),
    accepted: { status: [200, 201] },
    effect: unobservable(
      '§4.2: the answer is the validated data, the same for a first request and a repeated one it takes, and no read shows statements',
    ),
    items: {
      none: "§4.2: the statements are the request's validated data, answered alike to a first request and a repeated one it takes; no de-duplication of statements is stated",
    },
    repeatable:
      '§4.2: no de-duplication of statements and no rule about their periods is stated; a server may still refuse a statement overlapping an earlier one (docs/freedoms.md)',
    history: 'nothing',
    types: {
      spec: '§4.2 historical statements, §2.6, §7.2',
      what: 'historical statements request',
    },
  },
  createPaymentInstruction: {
    scope: 'imported',
    sample: (ctx) => ({
      body: ctx.preconditions.payloads.request('payment_instruction', ctx.ids, {
        ...freshAccount(ctx).key,
        ...vendorInstruction(ctx),
      }),
    }),
    about: (ctx, subject, _sample, toAccept) => ({
      body: ctx.preconditions.payloads.request('payment_instruction', ctx.ids, {
        ...accountKey(subject.supplier, subject.ext),
        ...instructionFields(ctx, toAccept),
      }),
    }),
    // §2.7: the instruction is checked upstream: only a reference the vendor knows is accepted.
    accepted: { status: 201, needs: ['paymentInstruction'] },
    effect: unobservable(
      '§2.7: the instruction is checked upstream and stored, but nothing the interface shows tells a stored instruction from one not stored',
    ),
    items: 'none',
    history: 'nothing',
    types: { spec: '§4.2 payment instruction, §2.7, §7.2', what: 'payment instruction' },
  },
  accountTransferStatus: read('status'),
  allAccountImportProcesses: read({ listing: 'all' }),
  pendingAccountImportProcesses: read({ listing: 'pending' }),
  importedAccountImportProcesses: read({ listing: 'imported' }),
  createBusiness: {
    scope: 'none',
    // Two contracts: the field-type rule puts each defect in the last item of a list, where a server
    // that checks the first alone lets it through (§4.4: every contract).
    sample: (ctx) => ({ body: ctx.given.businessPayload(2, freshAccount(ctx).supplier) }),
    accepted: { status: 201 },
    effect: answeredFirst(
      'createBusiness',
      'the business is created now (§4.4, §2.8 unique)',
      201,
      'the business is created now (§4.4), so nothing before created it (§2.8: a business is unique)',
    ),
    items: 'none',
    history: 'business',
    types: { spec: '§4.4 business, §2.8, §7.2', what: 'business request' },
  },
  createBusinessPaymentInstruction: {
    // The refusal families send it about a business that does not exist, as before any setup; an
    // accepted request needs the business and an account linked to it (§4.4).
    scope: 'none',
    sample: (ctx) => ({
      body: ctx.preconditions.payloads.request('business_payment_instruction', ctx.ids, {
        import_supplier_code: freshAccount(ctx).supplier,
        external_business_identifier: ctx.ids.businessIdentifier(),
        ...vendorInstruction(ctx),
      }),
    }),
    about: (ctx, subject, _sample, toAccept) => ({
      body: ctx.preconditions.payloads.request('business_payment_instruction', ctx.ids, {
        import_supplier_code: subject.business?.supplier ?? subject.supplier,
        external_business_identifier: subject.business?.externalIdentifier,
        accounts: [{ external_account_number: subject.ext }],
        ...instructionFields(ctx, toAccept),
      }),
    }),
    accepted: { status: 201, needs: ['paymentInstruction'], scope: 'business' },
    effect: unobservable(
      '§2.7: the instruction is checked upstream and stored, but nothing the interface shows tells a stored instruction from one not stored',
    ),
    items: { none: '§4.4: the accounts are those the one instruction applies to, not items added one by one' },
    history: 'nothing',
    types: {
      spec: '§4.4 business payment instruction, §2.7, §7.2',
      what: 'business payment instruction',
    },
  },
};

/**
 * The probe a valid request about `subject` offers, or undefined when its effect cannot be seen (the
 * driver says why) or the subject lacks what the probe stands on.
 */
export const probeFrom = (driver: EndpointDriver, request: CallOptions, subject?: SubjectAccount): Probe | undefined =>
  'probe' in driver.effect ? driver.effect.probe(request, subject) : undefined;

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

/** What each endpoint's answer tells the run's history (core/engine/history.ts), by endpoint. */
export const historyTells = (drivers: Readonly<Record<string, EndpointDriver>> = DRIVERS) =>
  Object.fromEntries(Object.entries(drivers).map(([id, driver]) => [id, driver.history]));

/** The batch a driver states, or undefined for an endpoint of single requests. */
export const batchOf = (driver: EndpointDriver): Batch | undefined =>
  driver.items === 'none' || 'none' in driver.items ? undefined : driver.items;

/** The documented success statuses of a driver, as a list. */
export const acceptedStatuses = (driver: EndpointDriver): number[] =>
  typeof driver.accepted.status === 'number' ? [driver.accepted.status] : [...driver.accepted.status];

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

/** The top-level fields of a request schema that are lists of objects (a batch's possible list). */
export function listsOfObjects(body: unknown): string[] {
  const bare = (s: unknown): unknown => {
    let x = s as { unwrap?: () => unknown } | undefined;
    for (
      let i = 0;
      i < 8 && x && !(x instanceof z.ZodArray) && !(x instanceof z.ZodObject) && typeof x.unwrap === 'function';
      i++
    )
      x = x.unwrap() as typeof x;
    return x;
  };
  const top = bare(body);
  if (!(top instanceof z.ZodObject)) return [];
  return Object.entries(top.shape as Record<string, unknown>).flatMap(([name, field]) => {
    const list = bare(field);
    return list instanceof z.ZodArray && bare(list.element) instanceof z.ZodObject ? [name] : [];
  });
}

/**
 * What is wrong with a catalogue of endpoints and drivers: an endpoint with no driver, an effect
 * unobservable without a reason, a batch without its list or dedup fields, a success without a
 * documented status, a driver for no endpoint. Empty when the table is whole
 * (test/suites/drivers.test.ts holds the real one to it).
 */
export function driverProblems(
  endpoints: Readonly<Record<string, { id: string; body?: unknown; responses?: readonly { status: number }[] }>>,
  drivers: Readonly<Record<string, EndpointDriver | undefined>>,
): string[] {
  const problems: string[] = [];
  for (const e of Object.values(endpoints)) {
    const driver = drivers[e.id];
    if (!driver) {
      problems.push(`${e.id}: no driver (core/engine/drivers.ts DRIVERS)`);
      continue;
    }
    if (!('probe' in driver.effect) && !driver.effect.why.trim())
      problems.push(`${e.id}: its effect is unobservable and the driver does not say why`);
    const batch = batchOf(driver);
    const lists = listsOfObjects(e.body);
    if (driver.items === 'none' && lists.length)
      problems.push(
        `${e.id}: its request carries a list of objects (${lists.join(', ')}) but its driver states no batch: state the batch (items: list, dedup, item), or why it is none (items: { none: why })`,
      );
    if (typeof driver.items === 'object' && 'none' in driver.items && !driver.items.none.trim())
      problems.push(`${e.id}: its items are none and the driver does not say why`);
    if (batch && (!batch.list || !batch.dedup.length))
      problems.push(`${e.id}: a batch whose driver names no list or no fields that deduplicate it`);
    const documented = new Set((e.responses ?? []).map((r) => r.status));
    const undocumented = acceptedStatuses(driver).filter((s) => !documented.has(s));
    if (undocumented.length)
      problems.push(`${e.id}: accepted with ${undocumented.join(', ')}, which the model does not document`);
  }
  for (const id of Object.keys(drivers))
    if (!(id in endpoints)) problems.push(`${id}: a driver for no endpoint of the model`);
  return problems;
}

/**
 * The batches of a catalogue that no race rule (tagged `races`, in suites/races.ts or in the
 * endpoint's own area) names: §4.2 deduplication is a statement about requests that meet, so each
 * batch with dedup fields needs its race rule.
 */
export function batchesWithoutRule(
  c: Catalogue,
  rules: readonly { tags?: readonly string[]; endpoints?: readonly string[] }[],
): string[] {
  const named = new Set(rules.filter((r) => r.tags?.includes('races')).flatMap((r) => r.endpoints ?? []));
  return c.endpoints.filter((e) => batchOf(c.drivers[e.id])?.dedup.length && !named.has(e.id)).map((e) => e.id);
}
