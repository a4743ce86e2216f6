/**
 * Faults that break a relation the spec states at one place of the model only, where no older rule
 * looks (core/engine/relations.ts, suites/relations-*.ts).
 *
 * Echo (blind spot 2): a nested number, a digit-only string, a body's characters changed on the
 * way back. Documented shape (blind spot 3): a "201, empty body" that carries content. Lookup
 * near-misses (blind spot 1): a lookup looser than its key — a case-insensitive collation, a trimmed
 * parameter, a truncated compare — finds the existing account (or accepts the token) for a key
 * spelled nearly the same; every older rule sends keys exactly as they were made, so only the
 * `relations.lookup-near-miss.*` rules catch these. Identity (blind spot 5): a business told apart
 * by an attribute outside its §2.8 key, which only a business sent again with that attribute
 * changed shows (`relations.identity.*`: every older rule repeats a business whole).
 */
import { isValidToken, tokenFromHeader } from '../auth.js';
import { reply } from '../reply.js';
import { alter, body, clone, fault, foldingCase, rewrite } from './helpers.js';
import type { Around, FaultDefinition } from './types.js';

type Json = Record<string, unknown>;
const list = (x: unknown): Json[] => (Array.isArray(x) ? (x as Json[]) : []);
const cents = (n: unknown) => (typeof n === 'number' ? Math.round(n * 100) / 100 : n);

/** Two tokens compared over the shorter of their lengths, when both have at least this many characters. */
const TRUNCATED_COMPARE = 16;

/**
 * The account's contract link (§2.3 `business`, an object) read as JSON text when it is a string:
 * what a serializer that accepts nested objects "as JSON or as text holding JSON" does.
 */
const linkFromText: Around = (req, _env, next) => {
  const b = body(req.body);
  if (typeof b.business !== 'string') return next(req);
  try {
    const parsed: unknown = JSON.parse(b.business);
    return next(parsed && typeof parsed === 'object' ? { ...req, body: { ...b, business: parsed } } : req);
  } catch {
    return next(req);
  }
};
/** A signed 32-bit column that wraps what it cannot hold, as C's `(int32_t)` cast does. */
const wrap32 = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) ? n | 0 : n);

/** Every reading's `source` of an account payload through a 32-bit column. */
function readingSourcesWrapped(account: unknown): unknown {
  const copy = clone(body<Json>(account));
  // Only objects are walked: a payload with a wrong-typed part is the handler's to refuse, as the
  // faithful one does — the fault breaks the column, not the validation.
  const objects = (x: unknown): Json[] =>
    list(x).filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v));
  for (const group of objects(copy.supply_addresses))
    for (const point of objects(group.supply_points))
      for (const reading of objects(point.readings)) if ('source' in reading) reading.source = wrap32(reading.source);
  return copy;
}

const sourcesWrapped: Around = (req, _env, next) => next({ ...req, body: readingSourcesWrapped(req.body) });

/** A VARCHAR(255) of a byte-counting charset: a text cut at its last whole character within 255 UTF-8 bytes. */
const COLUMN_BYTES = 255;
function cutToBytes(s: string): string {
  if (Buffer.byteLength(s) <= COLUMN_BYTES) return s;
  let out = '';
  let size = 0;
  for (const ch of s) {
    const next = Buffer.byteLength(ch);
    if (size + next > COLUMN_BYTES) break;
    out += ch;
    size += next;
  }
  return out;
}

export const relationFaults: FaultDefinition[] = [
  {
    id: 'relations.defect.account-business-link-as-text',
    placement: { by: ['relations.defect.validate-account', 'relations.defect.stage-account'] },
    spec: '§2.3 (business: an object with business_contract_identifier), §2.1, §7.2',
    subtle: true,
    description:
      "Validate and stage take an account's contract link (business) sent as text holding its JSON object, where an object is due.",
    create: () => ({ around: { validateAccount: linkFromText, stageAccount: linkFromText } }),
  },
  fault(
    {
      id: 'relations.echo.transaction-units-rounded',
      // The edge relation puts numbers past cents at every units value too (blind spot 4).
      placement: { by: ['relations.echo.transactions'], beside: ['relations.edge.'] },
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
      // The edge relation puts numbers past cents at every billable item's numbers too (blind spot 4).
      placement: { by: ['relations.echo.validate-nested'], beside: ['relations.edge.'] },
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
  fault(
    {
      id: 'relations.status-supplier-case-insensitive',
      placement: { by: ['relations.lookup-near-miss.account-transfer-status'] },
      spec: '§4.3 (404 when no import process exists for the supplier code and external number)',
      subtle: true,
      description:
        'The status endpoint looks the supplier code up case-insensitively, so a code in other letter case finds the account of the configured supplier.',
    },
    foldingCase('accountTransferStatus', ['import_supplier_code', 'external_account_number'], ['import_supplier_code']),
  ),
  fault(
    {
      id: 'relations.stage-folds-key-case',
      placement: { by: ['relations.lookup-near-miss.stage-account'] },
      spec: '§3 (a first staging 201, a re-stage 200), §4.3 (404 when no import process exists)',
      subtle: true,
      description:
        'Staging finds the existing account by its external number case-insensitively (a collation on the uniqueness check) while every read compares exactly: staging under the number in other letter case re-stages that account, whose status the number it was re-staged under does not find.',
    },
    foldingCase('stageAccount', ['import_supplier', 'external_account_number'], ['external_account_number']),
  ),
  fault(
    {
      id: 'relations.business-folds-identifier-case',
      placement: { by: ['relations.lookup-near-miss.create-business'] },
      spec: '§2.8 (unique by external identifier together with key attributes), §4.4',
      subtle: true,
      description:
        'Creating a business finds the existing one by its external identifier case-insensitively (a collation on the uniqueness check) while the business payment instruction compares exactly: the identifier in other letter case is refused as the existing business, and an instruction for that identifier finds no business.',
    },
    foldingCase(
      'createBusiness',
      ['import_supplier_code', 'external_business_identifier'],
      ['external_business_identifier'],
    ),
  ),
  fault(
    {
      id: 'relations.notes-trimmed-external-number',
      placement: { by: ['relations.lookup-near-miss.create-notes'] },
      spec: '§4.2 notes rule 5 (a wrong external number gives 404)',
      subtle: true,
      description:
        'The notes endpoint trims the external account number before it looks the account up, so a number with a space around it adds notes to the account.',
    },
    alter('createNotes', (req) => {
      const b = body(req.body);
      return typeof b.external_account_number === 'string'
        ? { ...req, body: { ...b, external_account_number: b.external_account_number.trim() } }
        : req;
    }),
  ),
  fault(
    {
      id: 'relations.token-truncated-compare',
      placement: { by: ['relations.lookup-near-miss.token'] },
      spec: '§5.3, §7.2 (401: missing or invalid token)',
      subtle: true,
      description: `Tokens are compared over the shorter of the two lengths (at least ${TRUNCATED_COMPARE} characters), so a prefix or an extension of a valid token is accepted.`,
    },
    {
      authenticate: (_e, header, faithful, env) => {
        if (faithful) return true;
        const sent = tokenFromHeader(header);
        if (sent === null || sent.length < TRUNCATED_COMPARE) return false;
        const now = env.now().getTime();
        for (const token of env.store.tokens.keys()) {
          const n = Math.min(token.length, sent.length);
          if (n >= TRUNCATED_COMPARE && token.slice(0, n) === sent.slice(0, n) && isValidToken(env.store, token, now))
            return true;
        }
        return false;
      },
    },
  ),
  {
    id: 'relations.business-identity-includes-details',
    placement: {
      by: [
        'relations.identity.create-business.details',
        'relations.identity.create-business.details-0-key',
        'relations.identity.create-business.details-0-value',
      ],
    },
    spec: '§2.8 (unique by external identifier and key attributes: name, number, type)',
    subtle: true,
    description:
      'A business is told apart by its details too, so the same business sent again with other details is created a second time.',
    create() {
      // The details each business was created with (the store keeps only the key attributes).
      const details = new Map<number, string>();
      const around: Around = async (req, env, next) => {
        const b = body<{
          import_supplier_code?: string;
          external_business_identifier?: string;
          business?: Record<string, unknown>;
        }>(req.body);
        const sent = JSON.stringify(b.business?.details ?? null);
        const same = env.store.businesses.find(
          (x) =>
            x.supplier === b.import_supplier_code &&
            x.externalIdentifier === b.external_business_identifier &&
            x.name === b.business?.company_name &&
            x.number === b.business?.company_number &&
            x.type === b.business?.business_type,
        );
        // Out of the faithful lookup's sight while this request is handled, when its details differ.
        const hidden = same && details.has(same.id) && details.get(same.id) !== sent ? same : undefined;
        const name = hidden?.name;
        if (hidden) hidden.name = '\u0000hidden';
        let r: Awaited<ReturnType<Around>>;
        try {
          r = await next(req);
        } finally {
          if (hidden) hidden.name = name;
        }
        const id = (r.body as { service_business_id?: unknown } | undefined)?.service_business_id;
        if (r.status === 201 && typeof id === 'number') details.set(id, sent);
        return r;
      };
      return { around: { createBusiness: around } };
    },
  },
  fault(
    {
      id: 'relations.edge.reading-source-32-bit',
      placement: { by: ['relations.edge.validate-account'] },
      spec: '§2.3 reading (source: integer), §4.1 (validate: 200 with the validated data as body)',
      subtle: true,
      description:
        "Validate and stage keep each reading's source in a signed 32-bit column that wraps: 2147483648 comes back as -2147483648, and the answer says nothing of it.",
    },
    { around: { validateAccount: sourcesWrapped, stageAccount: sourcesWrapped } },
  ),
  fault(
    {
      id: 'relations.edge.statement-text-cut-at-255-bytes',
      placement: { by: ['relations.edge.create-historical-statements'] },
      spec: '§4.2 historical statements (body is the validated data), §2.6',
      subtle: true,
      description:
        'Historical statements keep every text in a 255-byte column that cuts what does not fit, and hand back the cut text as the validated data: a text of 256 UTF-8 bytes but fewer than 255 characters comes back shorter.',
    },
    rewrite('createHistoricalStatements', (r) => {
      if (r.status >= 300) return r;
      const cut = (st: Json) =>
        Object.fromEntries(Object.entries(st).map(([k, v]) => [k, typeof v === 'string' ? cutToBytes(v) : v]));
      if (Array.isArray(r.body)) return { ...r, body: list(r.body).map(cut) };
      const b = body<{ statements?: unknown }>(r.body);
      return Array.isArray(b.statements) ? { ...r, body: { ...b, statements: list(b.statements).map(cut) } } : r;
    }),
  ),
];
