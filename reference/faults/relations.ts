/**
 * Faults of the relation families (suites/relations-*.ts), each placed where no older rule looks:
 * the echo relation (issue #42, blind spot 2) — a nested number, a digit-only string, a body's
 * characters changed on the way back — and the documented-shape relation (blind spot 3) — a "201,
 * empty body" that carries content.
 */
import { reply } from '../reply.js';
import { body, fault, rewrite } from './helpers.js';
import type { FaultDefinition } from './types.js';

type Json = Record<string, unknown>;
const list = (x: unknown): Json[] => (Array.isArray(x) ? (x as Json[]) : []);
const cents = (n: unknown) => (typeof n === 'number' ? Math.round(n * 100) / 100 : n);

export const relationFaults: FaultDefinition[] = [
  fault(
    {
      id: 'relations.echo.transaction-units-rounded',
      placement: { by: ['relations.echo.transactions'] },
      spec: '§4.2 transactions (transaction_data), §2.4 line item units',
      subtle: true,
      level: 'SHOULD',
      why: 'The content of transaction_data is not shown (§4.2): that a units value it carries is the value sent is a strong reading.',
      description:
        'transaction_data hands back the units of every line item rounded to cents, as a two-decimal column would.',
    },
    rewrite('createTransactions', (r) => {
      if (r.status !== 201) return r;
      const b = body<{ results?: Json[] }>(r.body);
      const results = list(b.results).map((res) => {
        const data = res.transaction_data as Json | undefined;
        if (!data || !Array.isArray(data.line_items)) return res;
        const line_items = list(data.line_items).map((li) =>
          Array.isArray(li.units) ? { ...li, units: (li.units as unknown[]).map(cents) } : li,
        );
        return { ...res, transaction_data: { ...data, line_items } };
      });
      return { ...r, body: { ...b, results } };
    }),
  ),
  fault(
    {
      id: 'relations.echo.statement-number-as-number',
      placement: { by: ['relations.echo.statements-edges'] },
      spec: '§4.2 historical statements (body is the validated data), §2.6 number (string)',
      subtle: true,
      description:
        'The validated data of historical statements hands back a digit-only statement number as a number: its leading zeros are lost.',
    },
    rewrite('createHistoricalStatements', (r) => {
      const b = body<{ statements?: Json[] }>(r.body);
      if (r.status >= 300 || !Array.isArray(b.statements)) return r;
      const statements = b.statements.map((st) =>
        typeof st.number === 'string' && /^\d+$/.test(st.number) ? { ...st, number: Number(st.number) } : st,
      );
      return { ...r, body: { ...b, statements } };
    }),
  ),
  fault(
    {
      id: 'relations.echo.note-body-normalized',
      placement: { by: ['relations.echo.notes'] },
      spec: '§4.2 notes (201, array of {created_at, body, status})',
      subtle: true,
      description:
        'Each note result hands back its body in Unicode NFC: combining characters sent decomposed come back composed (the note is stored as sent).',
    },
    rewrite('createNotes', (r) => {
      if (r.status !== 201 || !Array.isArray(r.body)) return r;
      return {
        ...r,
        body: list(r.body).map((n) => (typeof n.body === 'string' ? { ...n, body: n.body.normalize('NFC') } : n)),
      };
    }),
  ),
  fault(
    {
      id: 'relations.echo.billable-items-through-cents',
      placement: { by: ['relations.echo.validate-nested'] },
      spec: '§4.1 (200 with the validated data as body), §2.3 billable item',
      subtle: true,
      description:
        'The validated data hands back the numbers of every billable item rounded to cents, as a two-decimal column would.',
    },
    rewrite('validateAccount', (r) => {
      if (r.status !== 200) return r;
      const b = body<Json>(r.body);
      const supply_addresses = list(b.supply_addresses).map((group) => ({
        ...group,
        supply_points: list(group.supply_points).map((sp) =>
          Array.isArray(sp.billable_items)
            ? {
                ...sp,
                billable_items: list(sp.billable_items).map((bi) => ({
                  ...bi,
                  net_amount: cents(bi.net_amount),
                  number_of_units: cents(bi.number_of_units),
                  price_per_unit: cents(bi.price_per_unit),
                })),
              }
            : sp,
        ),
      }));
      return { ...r, body: { ...b, supply_addresses } };
    }),
  ),
  fault(
    {
      id: 'relations.shape.supply-points-body',
      placement: { by: ['relations.shape.create-supply-points'] },
      spec: '§4.2 supply points (201, empty body)',
      subtle: false,
      description:
        'Adding supply points answers 201 with a body naming what was added, where the spec documents an empty body.',
    },
    rewrite('createSupplyPoints', (r) =>
      r.status === 201 ? reply(201, { created: 1, status: 'SUPPLY_POINTS_ADDED' }) : r,
    ),
  ),
  fault(
    {
      id: 'relations.shape.agreements-body',
      placement: { by: ['relations.shape.create-agreements'] },
      spec: '§4.2 agreements (201, empty body)',
      subtle: false,
      description:
        'Adding agreements answers 201 with the agreements sent as its body, where the spec documents an empty body.',
    },
    rewrite('createAgreements', (r, req) => (r.status === 201 ? reply(201, body(req.body)) : r)),
  ),
];
