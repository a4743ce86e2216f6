/**
 * The edge relation (issue #42, blind spot 4; core/engine/edges.ts): its places come from the model
 * and the driver table, its instances are fixed and put each edge where they say, and an answer is
 * judged three ways — accepted intact, refused as a limit, or broken — on small answers made here.
 */
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../app/conformance.js';
import { embeddedFixtures, embeddedPayloads, embeddedSeed } from '../../app/embedded.js';
import { DEFAULT_TOKEN, startReferenceServer } from '../../reference/index.js';
import { CATALOGUE } from '../../core/engine/drivers.js';
import { echoSites } from '../../core/engine/echo.js';
import {
  EDGE,
  EDGE_FIXED,
  type EdgeInstance,
  atPlaces,
  type EdgeJudging,
  echoedDifference,
  edgePlaces,
  judgeEdge,
} from '../../core/engine/edges.js';
import { freshCopy } from '../../core/engine/ids.js';
import { LOOKUP_KEYS } from '../../core/engine/relations.js';
import { model } from '../../core/spec/index.js';
import {
  EDGE_DATES,
  EDGE_INTEGERS,
  EDGE_TEXT_BYTES,
  LARGE_BATCH,
  LARGE_REQUEST,
  textOfBytes,
} from '../../generators/edges.js';
import { faultById } from '../../reference/faults/catalogue.js';
import { allRules } from '../../suites/index.js';
import { planOf } from '../../suites/relations-edge.js';

const places = edgePlaces(CATALOGUE);
const fields = (endpoint: string) => places.filter((p) => p.endpoint === endpoint).map((p) => p.field);
const site = (endpoint: string) => echoSites(CATALOGUE).find((s) => s.endpoint === endpoint)!;
const NS = 'cf-test01';
let n = 0;
const tools = { fresh: () => `${NS}-X${++n}`, namespace: NS, item: () => ({ body: `${NS}-N${++n}` }) };
/** Every instance of a plan on its own: the members of those that share a request. */
const alone = (plan: EdgeInstance[]) => plan.flatMap((i) => i.members ?? [i]);

describe('the places of the edge relation', () => {
  it('are every field of every request body with an edge class, and every list, from the model alone', () => {
    expect(EDGE.applies(CATALOGUE).length).toBe(places.length);
    expect(fields('createTransactions')).toEqual(
      expect.arrayContaining([
        'transactions',
        'transactions[].amount',
        'transactions[].transaction_date',
        'transactions[].line_items[].units',
        'transactions[].line_items[].units[]',
        'transactions[].display_note',
      ]),
    );
    expect(places.find((p) => p.field.endsWith('estimated_monthly_fee_in_cents'))?.class).toBe('integer');
    expect(places.find((p) => p.field.endsWith('readings[].consumption_delta'))?.class).toBe('decimal');
    expect(places.find((p) => p.field === 'transactions[].amount')?.class).toBe('amount');
    expect(places.find((p) => p.field.endsWith('readings[].interval_start'))?.class).toBe('datetime');
  });

  it('leave out what names the subject, what must name something that exists, and what the spec shows only by example', () => {
    for (const p of places) {
      const name = p.field.split('.').pop()!.replace(/\[\]$/, '');
      expect(LOOKUP_KEYS as readonly string[], p.field).not.toContain(name);
      expect(Object.keys(EDGE_FIXED), p.field).not.toContain(p.field);
    }
    // §2.3 "a domestic type appears in the examples", §2.4 reasons seen, §2.8 business_type "is seen".
    expect(fields('validateAccount')).not.toContain('account_type');
    expect(fields('createTransactions')).not.toContain('transactions[].reason');
    expect(fields('createBusiness')).not.toContain('business.business_type');
    // Enums and booleans have no edge; e-mail and phone formats neither.
    expect(fields('createTransactions')).not.toContain('transactions[].type');
    expect(fields('validateAccount')).not.toContain('customers[].email');
    // §4.2 agreements and supply points: "payload shape: not shown"; process and the instructions:
    // every field names something that exists; a GET has no body.
    for (const e of [
      'createAgreements',
      'createSupplyPoints',
      'processAccount',
      'createPaymentInstruction',
      'createBusinessPaymentInstruction',
      'accountTransferStatus',
    ])
      expect(fields(e), e).toEqual([]);
  });

  it('each has instances, and every registered edge rule names the places its instances reach', () => {
    for (const e of CATALOGUE.endpoints) {
      const plan = planOf(CATALOGUE, e);
      const reached = new Set(plan.flatMap((i) => i.places));
      expect([...reached].sort(), e.id).toEqual(fields(e.id).sort());
    }
    const rules = allRules.filter((r) => r.relation?.kind === 'edge');
    expect(rules.map((r) => r.endpoints[0]).sort()).toEqual([...new Set(places.map((p) => p.endpoint))].sort());
    for (const r of rules) expect(r.level).toBe('MUST');
  });
});

describe('the instances', () => {
  const statements = CATALOGUE.endpoints.find((e) => e.id === 'createHistoricalStatements')!;
  const plan = alone(planOf(CATALOGUE, statements));
  const request = {
    import_supplier: 'S',
    external_account_number: `${NS}-A1`,
    statements: [
      {
        statement_id: `${NS}-S1`,
        number: '42',
        gross_amount: 10,
        bill_period_from_date: '2024-01-01',
        bill_period_to_date: '2024-01-31',
        issued_date: '2024-02-02',
      },
    ],
  };

  it('are fixed: the same plan, the same edges, every run', () => {
    expect(alone(planOf(CATALOGUE, statements)).map((i) => i.edge)).toEqual(plan.map((i) => i.edge));
    expect(plan.filter((i) => i.edge.startsWith('integer'))).toEqual([]);
    expect(plan.filter((i) => i.edge.startsWith('text')).map((i) => i.edge)).toEqual(
      EDGE_TEXT_BYTES.map((b) => `text of ${b} UTF-8 bytes`),
    );
  });

  it('put text past a column size in UTF-8 bytes, fewer characters than bytes, the identifier kept', () => {
    for (const bytes of EDGE_TEXT_BYTES) {
      const text = textOfBytes(`${NS}-S1`, bytes);
      expect(Buffer.byteLength(text)).toBe(bytes);
      expect([...text].length).toBeLessThan(bytes);
      expect(text.startsWith(`${NS}-S1 `)).toBe(true);
    }
    const sent = plan.find((i) => i.edge === 'text of 256 UTF-8 bytes')!.apply(request, tools);
    const [st] = sent.statements as Record<string, string>[];
    expect(Buffer.byteLength(st.statement_id)).toBe(256);
    expect(st.statement_id.startsWith(`${NS}-S1`)).toBe(true);
    expect(request.statements[0].statement_id, 'the valid request is not changed').toBe(`${NS}-S1`);
  });

  it('move a date to each edge and the rest of its object with it, so a period keeps its order', () => {
    const dates = plan.filter((i) => i.edge === `date ${EDGE_DATES[0]}`);
    expect(dates.map((i) => i.places)).toEqual([
      ['statements[].bill_period_from_date'],
      ['statements[].bill_period_to_date'],
      ['statements[].issued_date'],
    ]);
    const [st] = dates[0].apply(request, tools).statements as Record<string, string>[];
    expect(st.bill_period_from_date).toBe('2024-02-29');
    expect(st.bill_period_to_date).toBe('2024-03-30');
    expect(st.issued_date).toBe('2024-04-01');
  });

  it('put lists at 0, 1 and many items, copies fresh, the batch list at its large request and near 1 MiB', () => {
    const empty = plan.find((i) => i.kind === 'empty')!.apply(request, tools);
    expect(empty.statements).toEqual([]);
    const many = plan.find((i) => i.kind === 'many')!.apply(request, tools).statements as { statement_id: string }[];
    expect(many).toHaveLength(LARGE_BATCH);
    expect(new Set(many.map((s) => s.statement_id)).size).toBe(LARGE_BATCH);
    const notes = CATALOGUE.endpoints.find((e) => e.id === 'createNotes')!;
    const notesPlan = planOf(CATALOGUE, notes);
    const valid = { import_supplier: 'S', external_account_number: 'A', notes: [{ body: `${NS}-N0` }] };
    expect(notesPlan.find((i) => i.kind === 'many')!.apply(valid, tools).notes).toHaveLength(LARGE_REQUEST);
    const body = notesPlan.find((i) => i.kind === 'body')!.apply(valid, tools);
    const bytes = Buffer.byteLength(JSON.stringify(body));
    expect(bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(bytes).toBeGreaterThan(1024 * 1024 - 2048);
    expect(freshCopy({ id: `${NS}-T1`, other: 'x' }, NS, 3)).toEqual({ id: `${NS}c3-T1`, other: 'x' });
  });

  it('put the lists of one depth together, each list a member sent alone when they are not accepted together', () => {
    const validate = CATALOGUE.endpoints.find((e) => e.id === 'validateAccount')!;
    const accountPlan = planOf(CATALOGUE, validate);
    const lists = fields('validateAccount').filter((f) => places.find((p) => p.field === f)?.class === 'list');
    const depth = (f: string) => f.split('[]').length - 1;
    for (const kind of ['empty', 'many'] as const) {
      const instances = accountPlan.filter((i) => i.kind === kind);
      // One request per depth, not one per list: some two dozen lists, three depths.
      expect(instances.length).toBe(new Set(lists.map(depth)).size);
      expect(instances.flatMap((i) => i.places).sort()).toEqual([...lists].sort());
      for (const i of instances) {
        const members = i.members ?? [i];
        expect(new Set(i.places.map(depth)).size).toBe(1);
        expect(members.flatMap((m) => m.places)).toEqual(i.places);
        expect(members.every((m) => m.kind === kind && m.edge === i.edge && m.places.length === 1 && !m.members)).toBe(
          true,
        );
      }
    }
    // Put together, each member's list is as its own request puts it.
    const body = {
      import_supplier: 'S',
      external_account_number: 'A',
      customers: [{ first_name: `${NS}-C1` }],
      ledgers: [{ ledger_code: `${NS}-L1` }],
    };
    const empties = accountPlan.find((i) => i.kind === 'empty' && i.places.includes('customers'))!;
    const together = empties.apply(body, tools);
    for (const m of empties.members!) expect(together[m.places[0]]).toEqual(m.apply(body, tools)[m.places[0]]);
    expect(together.customers).toEqual([]);
    expect(together.ledgers).toEqual([]);
    expect(body.customers).toHaveLength(1);
  });

  it('put the first edge of every class in one request, the second in the next, no two members at one field', () => {
    const validate = CATALOGUE.endpoints.find((e) => e.id === 'validateAccount')!;
    const plan = planOf(CATALOGUE, validate);
    const values = plan.filter((i) => i.kind === 'value');
    const singles = alone(values);
    // As many requests as the class with the most edges (the dates, at each field of a period), not one per edge.
    const most = Math.max(
      ...['integer', 'number', 'text', 'date ', 'datetime'].map(
        (c) => singles.filter((i) => i.edge.startsWith(c)).length,
      ),
    );
    expect(values.length).toBe(most);
    expect(singles.length).toBeGreaterThan(2 * values.length);
    for (const i of values) {
      const members = i.members ?? [i];
      const fieldsOf = members.flatMap((m) => m.places);
      expect(new Set(fieldsOf).size, i.edge).toBe(fieldsOf.length);
      expect(i.edge).toBe(members.map((m) => m.edge).join(', '));
    }
    // Together, each member's fields carry what the member alone puts there.
    const first = values[0];
    const body = { import_supplier: 'S', external_account_number: 'A', billing_name: `${NS}-B` };
    const both = first.apply(body, tools);
    const integer = first.members!.find((m) => m.edge.startsWith('integer'))!;
    const text = first.members!.find((m) => m.edge.startsWith('text'))!;
    expect(text.places).toContain('billing_name');
    expect(both.billing_name).toBe(text.apply(body, tools).billing_name);
    const cents = 'supply_addresses[].supply_points[].agreements[].estimated_monthly_fee_in_cents';
    expect(integer.places).toContain(cents);
    const point = (both.supply_addresses as { supply_points: { agreements: Record<string, unknown>[] }[] }[])[0]
      .supply_points[0];
    expect(point.agreements[0].estimated_monthly_fee_in_cents).toBe(EDGE_INTEGERS[0]);
  });

  it('put an integer at 32 and 64-bit widths at every integer field, adding one the request left out', () => {
    const validate = CATALOGUE.endpoints.find((e) => e.id === 'validateAccount')!;
    const ints = alone(planOf(CATALOGUE, validate)).filter((i) => i.edge.startsWith('integer'));
    expect(ints.map((i) => i.edge)).toEqual(EDGE_INTEGERS.map((v) => `integer ${v}`));
    const sent = ints[1].apply(
      {
        import_supplier: 'S',
        external_account_number: 'A',
        supply_addresses: [{ supply_points: [{ identifier: 'P', agreements: [{ tariff_code: 'T' }] }] }],
      },
      tools,
    );
    const point = (sent.supply_addresses as { supply_points: Record<string, unknown>[] }[])[0].supply_points[0];
    expect((point.agreements as Record<string, unknown>[])[0].estimated_monthly_fee_in_cents).toBe(2 ** 31);
    expect((point.readings as Record<string, unknown>[])[0].source).toBe(2 ** 31);
  });
});

describe('the three-way judgement', () => {
  const notes = site('createNotes');
  const sentNotes = {
    import_supplier: 'S',
    external_account_number: 'A',
    notes: [
      { body: `${NS}-N1 Ñandú 🔥`, created_at: '2024-01-01T00:00:00Z' },
      { body: `${NS}-N2`, created_at: '2023-12-31T23:59:59Z' },
    ],
  };
  const judging = (sent: Record<string, unknown>, extra: Partial<EdgeJudging> = {}): EdgeJudging => ({
    accepted: [201],
    difference: (answer) => echoedDifference(notes, sent, answer, [], NS),
    isValidationError: (b) => model.ValidationErrorBody.safeParse(b).success,
    nonFieldErrors: true,
    ...extra,
  });
  const result = (n: { body: string; created_at: string }) => ({ ...n, status: 'NOTE_CREATION_SUCCESS' });

  it('accepted, every value handed back as sent (in any order, another spelling of the instant): intact', () => {
    const back = [
      result({ ...sentNotes.notes[1], created_at: '2023-12-31T23:59:59.000000+00:00' }),
      result(sentNotes.notes[0]),
    ];
    expect(judgeEdge({ status: 201, body: back }, sentNotes, judging(sentNotes))).toEqual({ kind: 'intact' });
  });

  it('accepted, a value cut or an item dropped: broken, naming the field', () => {
    const cut = [result({ ...sentNotes.notes[0], body: `${NS}-N1 Ñandú` }), result(sentNotes.notes[1])];
    const outcome = judgeEdge({ status: 201, body: cut }, sentNotes, judging(sentNotes));
    expect(outcome.kind).toBe('broken');
    expect(outcome.kind === 'broken' && outcome.reason).toContain('notes.0.body');
    const dropped = judgeEdge({ status: 201, body: [result(sentNotes.notes[0])] }, sentNotes, judging(sentNotes));
    expect(dropped.kind).toBe('broken');
  });

  it('refused with a §7.1 400 naming a field past what the examples carry: a limit', () => {
    const long = { ...sentNotes, notes: [{ body: textOfBytes(`${NS}-N3`, 4001) }] };
    const answer = {
      status: 400,
      body: {
        detail: 'Invalid input.',
        code: 'invalid',
        errors: [{ attr: 'notes.0.body', code: 'max_length', detail: 'Too long.' }],
      },
    };
    const outcome = judgeEdge(answer, long, judging(long));
    expect(outcome.kind).toBe('limit');
    expect(outcome.kind === 'limit' && outcome.limits[0]).toMatchObject({ attr: 'notes.0.body', kind: 'length' });
    // A 413 is a body limit for a body larger than every example the spec shows, not for a small one.
    const huge = { ...sentNotes, notes: [{ body: textOfBytes(`${NS}-N4`, 65536) }] };
    expect(judgeEdge({ status: 413, body: undefined }, huge, judging(huge)).kind).toBe('limit');
    expect(judgeEdge({ status: 413, body: undefined }, sentNotes, judging(sentNotes)).kind).toBe('broken');
  });

  it('refused otherwise: broken — a field at a size the examples carry, a field called missing, a 5xx', () => {
    const refused = (attr: string, code: string) => ({
      status: 400,
      body: { detail: 'Invalid input.', code: 'invalid', errors: [{ attr, code, detail: '.' }] },
    });
    const small = judgeEdge(refused('notes.1.body', 'max_length'), sentNotes, judging(sentNotes));
    expect(small.kind).toBe('broken');
    const missing = judgeEdge(refused('notes.0.body', 'required'), sentNotes, judging(sentNotes));
    expect(missing.kind === 'broken' && missing.reason).toContain('missing');
    const crashed = judgeEdge({ status: 500, body: { detail: 'Out of range value' } }, sentNotes, judging(sentNotes));
    expect(crashed.kind === 'broken' && crashed.reason).toContain('answered 500');
  });

  it('an emptied list may be refused by any validation error (§2.1), but not by a 400 of another kind or a 5xx', () => {
    const empty = { ...sentNotes, notes: [] };
    const validation = {
      status: 400,
      body: { detail: 'x', code: 'invalid', errors: [{ attr: 'notes', code: 'empty', detail: 'x' }] },
    };
    expect(judgeEdge(validation, empty, judging(empty, { empties: true })).kind).toBe('refused');
    expect(judgeEdge({ status: 400, body: { message: 'no' } }, empty, judging(empty, { empties: true })).kind).toBe(
      'broken',
    );
    expect(judgeEdge({ status: 201, body: [] }, empty, judging(empty, { empties: true })).kind).toBe('intact');
    expect(judgeEdge({ status: 502, body: undefined }, empty, judging(empty, { empties: true })).kind).toBe('broken');
  });

  it("judges what sits at the instance's places: a field left out elsewhere is the echo relation's", () => {
    const sent = { customers: [{ given_name: 'G', email: 'e@x.es' }, { email: 'f@x.es' }], notes: [{ body: 'b' }] };
    expect(atPlaces(sent, ['customers[].given_name'])).toEqual({ customers: [{ given_name: 'G' }, {}] });
    // A list place: its count, its items' own fields left to their places.
    expect(atPlaces(sent, ['customers'], true)).toEqual({ customers: [{}, {}] });
    expect(atPlaces({ units: [1, 2] }, ['units'], true)).toEqual({ units: [1, 2] });
    const validate = site('validateAccount');
    const back = { customers: [{ given_name: 'G' }] };
    expect(echoedDifference(validate, atPlaces(sent, ['customers[].given_name']) as never, back)?.path).toBe(
      'customers',
    );
    expect(
      echoedDifference(
        validate,
        atPlaces({ customers: [sent.customers[0]] }, ['customers[].given_name']) as never,
        back,
      ),
    ).toBeUndefined();
  });

  it('reads an integer wrapped by a 32-bit column as a changed value (the reference fault)', () => {
    const validate = site('validateAccount');
    const sent = { supply_addresses: [{ supply_points: [{ readings: [{ source: 2 ** 31 }] }] }] };
    const back = { supply_addresses: [{ supply_points: [{ readings: [{ source: -(2 ** 31) }] }] }] };
    const d = echoedDifference(validate, sent, back);
    expect(d?.path).toBe('supply_addresses.0.supply_points.0.readings.0.source');
    expect(faultById('relations.edge.reading-source-32-bit')?.placement?.by).toEqual([
      'relations.edge.validate-account',
    ]);
  });
});

describe('the edge rule of an endpoint whose every request uses up a part of its subject (drivers.ts `room`)', () => {
  /** The billing documents edge rule against a reference server (lists of at most `maxItems`), and its requests. */
  async function billingEdges(maxItems?: number) {
    const server = await startReferenceServer({
      seed: await embeddedSeed({ token: DEFAULT_TOKEN }),
      ...(maxItems ? { fieldLimits: { maxItems } } : {}),
    });
    try {
      const report = await runConformance({
        baseUrl: server.url,
        auth: { token: DEFAULT_TOKEN },
        fixtures: await embeddedFixtures(),
        payloads: embeddedPayloads(),
        rules: allRules.filter((r) => r.id === 'relations.edge.create-historical-billing-documents'),
        seed: 1,
      });
      return { verdicts: report.rules.map((r) => r.verdict), requests: report.http.requests };
    } finally {
      await server.close();
    }
  }

  it('sends its requests about one account with a ledger for each, or about an account each where that account is refused', async () => {
    const plan = planOf(CATALOGUE, CATALOGUE.endpoints.find((e) => e.id === 'createHistoricalBillingDocuments')!);
    const roomy = await billingEdges();
    expect(roomy.verdicts).toEqual(['pass']);
    // One account set up (staged, processed, its state read), then one request per instance (§4.2, §8: once per ledger).
    expect(roomy.requests).toBeLessThan(plan.length + 10);
    // A server that keeps at most 10 items a list refuses an account with a ledger per request: each
    // request then stages and processes an account of its own, and the rule still passes.
    const narrow = await billingEdges(10);
    expect(narrow.verdicts).toEqual(['pass']);
    expect(narrow.requests).toBeGreaterThanOrEqual(3 * plan.length);
    expect(narrow.requests).toBeGreaterThan(2 * roomy.requests);
  }, 120_000);
});
