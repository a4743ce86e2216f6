/**
 * The echo relation (issue #42, blind spot 2): where an answer hands back what was sent, every field
 * sent comes back equal, at every depth — nested items, numbers that a float, a decimal string or
 * cents would change, values a documented rule changes only in some cases. The places are derived
 * from the spec model (`echoes` on a documented response, core/engine/echo.ts `echoSites`); each
 * rule of the relation carries the tag `relation:echo` and states, in `ECHO_COVERS`, the request
 * fields the payload it sends carries (computed from the canonical fixtures it is built from), so
 * `echoRelation.covered` reads what the registered rules instantiate.
 *
 * The older instances `migration.validate.echo-fidelity` and `statements.create.echo-fidelity`
 * compare through the same function and count here; the rules below add the places they did not
 * reach: the notes' `{created_at, body}`, `transaction_data`, and edges of the two validated-data
 * echoes (a gas supply point's readings and billable items, digit-only statement numbers, amounts
 * a float or cents would change).
 */
import type { RelationKind } from '../core/engine/relations.js';
import type { RuleContext } from '../core/engine/context.js';
import type { Catalogue } from '../core/engine/drivers.js';
import {
  type EchoDifference,
  type RelationPlace,
  describeDifference,
  echoDifference,
  echoSites,
  fieldsCarried,
  requestKinds,
} from '../core/engine/echo.js';
import { sendInsideLimits } from '../core/engine/inside-limits.js';
import { TO_IMPORT } from '../core/engine/needs.js';
import { type Rule, defineRules } from '../core/engine/rule.js';
import type { HttpResponse } from '../core/http/client.js';
import { type EndpointId, model } from '../core/spec/index.js';
import { loadFixture } from '../core/spec/fixtures.js';
import { EDGE_GIVEN_NAMES, MANY_DECIMAL_AMOUNTS } from '../generators/edges.js';
import { accountKey, today, transaction } from './support.js';

export type { RelationPlace };

type Json = Record<string, unknown>;

/** The tag every rule of the relation carries. */
export const ECHO_TAG = 'relation:echo';

// ---- payloads: each a pure function of the template it is built from, so its fields are known ----

/** Note bodies the service must hand back as sent: the text edges (astral, combining, right-to-left; generators/edges.ts). */
const CREATED_AT = ['2024-02-29T23:59:59Z', '2023-12-31T00:00:00Z', undefined] as const;
const noteEdges = (unique: (label: string) => string) =>
  EDGE_GIVEN_NAMES.map((name, i) => ({
    body: `${unique(`edge-${i}`)} ${name} 🔥`,
    created_at: CREATED_AT[i % CREATED_AT.length],
  }));

const notesSent = (template: Json, unique: (label: string) => string) =>
  noteEdges(unique).map((n) => ({ ...template, ...n }));

/** Line items and tax items whose numbers a float, cents or a decimal column would change. */
const supplyChargeEdges = (date: string) => ({
  type: 'SUPPLY_CHARGE',
  reason: 'IMPORTED_CHARGE',
  product_code: 'ELEC-2.0TD',
  amount: '24.20',
  line_items: [
    {
      rate_band: 'CONSUMPTION_STANDARD',
      start_date: date,
      end_date: date,
      number_of_units: 100.125,
      net_amount: 0.30000000000000004,
      price_per_unit: 0.123456,
      units: [0.1, 33.333333333333336, 66.69166666666666],
    },
    {
      rate_band: 'CONSUMPTION_STANDARD',
      start_date: date,
      end_date: date,
      number_of_units: 2,
      net_amount: 20,
      price_per_unit: 10,
      units: [1, 1],
    },
  ],
  tax_items: [{ amount: 4.2, tax_type: 'VAT', value_taxed: 20.000000000000004, rate: 0.21, unit_type: 'PROPORTION' }],
});

/** A CHARGE per amount of many decimals (generators/edges.ts) and a SUPPLY_CHARGE with nested items, each with its own id. */
const transactionsSent = (charge: Json, date: string, fresh: () => string): Json[] => [
  ...MANY_DECIMAL_AMOUNTS.map((amount) => ({ ...charge, transaction_id: fresh(), amount })),
  { ...charge, transaction_id: fresh(), ...supplyChargeEdges(date) },
];

const statementsSent = (template: Json, unique: (label: string) => string) => [
  { ...template, number: '000042', gross_amount: 0.30000000000000004 },
  { ...template, statement_id: unique('S'), number: '0012345678901234567', gross_amount: 1234567.891 },
];

/** Each transaction list of each ledger with a SUPPLY_CHARGE added after its first transaction (line and tax items). */
const withSupplyCharges = (ledger: Json): Json => {
  const out = { ...ledger };
  for (const list of ['current_statement_transactions', 'historical_statement_transactions']) {
    const txs = (ledger[list] as Json[] | undefined) ?? [];
    if (!txs.length) continue;
    const [head] = txs;
    const charge = {
      ...head,
      transaction_id: `${String(head.transaction_id)}-SC`,
      ...supplyChargeEdges(String(head.transaction_date)),
    };
    out[list] = [...txs, charge];
  }
  return out;
};

/**
 * The account with the gas supply address group of the canonical gas account appended (readings,
 * billable items) and a SUPPLY_CHARGE in each transaction list of its ledgers.
 */
const accountWithGas = (account: Json, gas: Json, freshPoint: () => string = () => 'SP') => ({
  ...account,
  ledgers: ((account.ledgers as Json[]) ?? []).map(withSupplyCharges),
  supply_addresses: [
    ...((account.supply_addresses as unknown[]) ?? []),
    ...((gas.supply_addresses as Json[]) ?? []).map((group) => ({
      ...group,
      supply_points: ((group.supply_points as Json[]) ?? []).map((sp) => ({
        ...sp,
        identifier: freshPoint(),
        readings: ((sp.readings as Json[]) ?? []).map((r) => ({ ...r, consumption_delta: '1245.370' })),
        // Numbers a float survives and cents do not.
        billable_items: ((sp.billable_items as Json[]) ?? []).map((bi) => ({ ...bi, price_per_unit: 0.123456 })),
      })),
    })),
  ],
});

// ---- what each rule covers, from the canonical fixtures its payload is built from ----

const fixture = (name: string) => loadFixture<Json>(name);
const first = (name: string, list: string) => ((fixture(name)[list] as Json[]) ?? [])[0] ?? {};
const canonicalCharge = () =>
  ((fixture('transactions/all-types').transactions as Json[]) ?? []).find((t) => t.type === 'CHARGE') ?? {};
const id = (label: string) => label;

/**
 * The request fields each rule of the relation sends, by rule id: the places it instantiates. The
 * endpoint is the rule's own (its `endpoints`).
 */
export const ECHO_COVERS: Readonly<Record<string, () => unknown>> = {
  'migration.validate.echo-fidelity': () => fixture('accounts/electricity'),
  'statements.create.echo-fidelity': () => ({ statements: [first('historical-statements/statements', 'statements')] }),
  'relations.echo.validate-nested': () => accountWithGas(fixture('accounts/electricity'), fixture('accounts/gas')),
  'relations.echo.statements-edges': () => ({
    statements: statementsSent(first('historical-statements/statements', 'statements'), id),
  }),
  'relations.echo.notes': () => ({ notes: notesSent(first('notes/notes', 'notes'), id) }),
  'relations.echo.transactions': () => ({ transactions: transactionsSent(canonicalCharge(), '2024-06-10', () => 'T') }),
};

// ---- the relation ----

const placeKey = (p: RelationPlace) => `${p.endpoint} ${p.field ?? ''}`;
const unique = (places: RelationPlace[]) => [...new Map(places.map((p) => [placeKey(p), p])).values()];

export const echoRelation: RelationKind = {
  id: 'echo',
  spec: '§4.1 validate, §4.2 notes, transactions, historical statements, §2.1, §2.4, §9.2',
  sentence:
    'What an answer hands back of what was sent comes back equal, every field, nested items and numbers in another representation included: "200 with the validated data as body" (§4.1), "body is the validated data" (§4.2 historical statements), "array of `{created_at, body, status}`" (§4.2 notes), `transaction_data` (§4.2 transactions).',
  applies: (catalogue) =>
    echoSites(catalogue).flatMap((site) =>
      [...site.fields.keys()].map((field) => ({ endpoint: site.endpoint, field })),
    ),
  covered: (rules) =>
    unique(
      rules
        .filter((r) => r.tags?.includes(ECHO_TAG))
        .flatMap((r) => {
          const sent = ECHO_COVERS[r.id];
          const endpoint = r.endpoints[0] as EndpointId | undefined;
          if (!sent || !endpoint) return [];
          const site = echoSites({ endpoints: [model.endpoints[endpoint]], drivers: {} as Catalogue['drivers'] })[0];
          if (!site) return [];
          return fieldsCarried(sent(), site.fields).map((field) => ({ endpoint, field }));
        }),
    ),
};

/** The places of `applies` no registered rule covers. */
export function missingPlaces(kind: RelationKind, catalogue: Catalogue, rules: readonly Rule[]): RelationPlace[] {
  const covered = new Set(kind.covered(rules).map(placeKey));
  return kind.applies(catalogue).filter((p) => !covered.has(placeKey(p)));
}

// ---- the rules ----

function expectSame(ctx: RuleContext, d: EchoDifference | undefined, what: string, res: HttpResponse) {
  ctx.expect.that(d === undefined, d ? describeDifference(d, what) : '', { res, expected: d?.sent, actual: d?.echoed });
}

const KINDS = {
  validateAccount: requestKinds('validateAccount'),
  createNotes: requestKinds('createNotes'),
  createTransactions: requestKinds('createTransactions'),
  createHistoricalStatements: requestKinds('createHistoricalStatements'),
};

export default defineRules(
  'relations',
  [
    {
      id: 'relations.echo.validate-nested',
      spec: '§4.1 (200 with the validated data as body), §2.3 reading, billable item, §9.2',
      level: 'MUST',
      title:
        'The validated data of an account with a gas supply point and ledger supply charges carries its readings, billable items, line and tax items as sent, every number and decimal string by value, every datetime as the same instant',
      endpoints: ['validateAccount'],
      needs: ['ongoingSupplier'],
      async check(ctx) {
        // Edge values may meet a limit the implementation has where the spec shows none (§2.3
        // validation rules not shown): a §7.1 400 naming the field is replayed inside it.
        const { res, sent: account } = await sendInsideLimits(
          ctx,
          'validateAccount',
          accountWithGas(ctx.given.account(), fixture('accounts/gas'), () => ctx.ids.supplyPointIdentifier()),
          (body, replay) =>
            ctx.api.call('validateAccount', {
              body,
              step: `validate an account with a gas supply point${replay ? ` (replay ${replay}, inside the limits found)` : ''}`,
            }),
          'an account with a gas supply point',
        );
        ctx.expect.status(res, 200);
        const echoed = ctx.expect.body(res, model.ValidatedAccount, 'validated data');
        expectSame(
          ctx,
          echoDifference(account, echoed, { kinds: KINDS.validateAccount }),
          'the validated data must be the data sent',
          res,
        );
      },
    },
    {
      id: 'relations.echo.statements-edges',
      spec: '§4.2 historical statements (body is the validated data), §2.6, §9.2',
      level: 'MUST',
      title:
        'The validated data of historical statements carries a digit-only number as the string sent and gross amounts by value',
      endpoints: ['createHistoricalStatements'],
      async check(ctx) {
        const a = await ctx.given.imported();
        const { res, sent } = await sendInsideLimits(
          ctx,
          'createHistoricalStatements',
          {
            ...accountKey(a.supplier, a.ext),
            statements: statementsSent(
              ctx.preconditions.payloads.item('historical_statements', 'statements', ctx.ids) as Json,
              () => ctx.ids.other('S'),
            ),
          },
          (body, replay) =>
            ctx.api.call('createHistoricalStatements', {
              body,
              step: `import two statements with edge numbers${replay ? ` (replay ${replay})` : ''}`,
            }),
          'historical statements with edge numbers',
        );
        const statements = sent.statements;
        ctx.expect.status(res, [201, 200]);
        const body = res.json();
        // "The validated data": the statements, alone or in the request validated ({…, statements}).
        const echoed = Array.isArray(body) ? body : (body as { statements?: unknown } | null)?.statements;
        const d = echoDifference(statements, echoed, { kinds: KINDS.createHistoricalStatements, base: 'statements' });
        expectSame(
          ctx,
          d && { ...d, path: `statements.${d.path}` },
          'the validated data must be the statements sent',
          res,
        );
      },
    },
    {
      id: 'relations.echo.notes',
      spec: '§4.2 notes (201, array of {created_at, body, status}), §2.1',
      level: 'MUST',
      title:
        "Each note's result carries its body exactly as sent (astral, combining, right-to-left text) and the created_at sent as the same instant",
      endpoints: ['createNotes'],
      async check(ctx) {
        const a = await ctx.given.imported();
        const template = ctx.preconditions.payloads.item('notes', 'notes', ctx.ids) as Json;
        // One note a request: the order of results is not stated, and a body that comes back changed
        // could not be paired with its note.
        for (const edge of notesSent(template, (label) => ctx.ids.noteBody(label))) {
          const { res, sent: request } = await sendInsideLimits(
            ctx,
            'createNotes',
            { ...accountKey(a.supplier, a.ext), notes: [edge] },
            (body, replay) =>
              ctx.api.call('createNotes', { body, step: `add one note${replay ? ` (replay ${replay})` : ''}` }),
            'a note with edge text',
          );
          const [note] = request.notes;
          ctx.expect.status(res, 201);
          const results = ctx.expect.body(res, model.NotesResponse, 'notes response');
          ctx.expect.equal(results.length, 1, 'one result for the note sent', res);
          const sent = { body: note.body, created_at: note.created_at };
          const d = echoDifference([sent], results, { kinds: KINDS.createNotes, base: 'notes' });
          expectSame(ctx, d && { ...d, path: `notes.${d.path}` }, 'the result must carry the note sent', res);
        }
      },
    },
    {
      id: 'relations.echo.transactions',
      spec: '§4.2 transactions (201 {results: [{status, transaction_data}]}), §3, §2.4',
      level: 'SHOULD',
      why: 'transaction_data names the transaction (§3, §4.2) but its content is not shown: a field it leaves out is its own choice; a field it carries is read as the value sent.',
      title:
        'Each transaction_data carries the fields of its transaction it shows with the values sent, nested line and tax items and their numbers included',
      endpoints: ['createTransactions'],
      async check(ctx) {
        const a = await ctx.given.imported();
        // Dated today, inside the open statement period: force_add_to_current_statement (§4.2) does
        // not move the date, so transaction_date comes back as sent too.
        const fresh = () => ctx.ids.other('T');
        for (const edge of transactionsSent(transaction(ctx) as Json, today(), fresh)) {
          const { res, sent: request } = await sendInsideLimits(
            ctx,
            'createTransactions',
            { ...accountKey(a.supplier, a.ext), transactions: [edge] },
            (body, replay) =>
              ctx.api.call('createTransactions', {
                body,
                step: `add a ${String(edge.type)} transaction${replay ? ` (replay ${replay})` : ''}`,
              }),
            'a transaction with edge numbers',
            // A refused request may have kept what came before its failing transaction (§4.2): a fresh id.
            (body) => ({ ...body, transactions: body.transactions.map((t) => ({ ...t, transaction_id: fresh() })) }),
          );
          const [tx] = request.transactions;
          ctx.expect.status(res, 201);
          const results = ctx.expect.body(res, model.TransactionsResponse, 'transactions response').results;
          ctx.expect.equal(results.length, 1, 'one result for the transaction sent', res);
          const d = echoDifference([tx], [results[0].transaction_data], {
            kinds: KINDS.createTransactions,
            base: 'transactions',
            mode: 'carried',
          });
          expectSame(
            ctx,
            d && { ...d, path: `transactions.${d.path}` },
            'transaction_data must carry the transaction sent',
            res,
          );
        }
      },
    },
  ],
  { endpoints: ['createNotes'], tags: [ECHO_TAG], needs: TO_IMPORT },
);
