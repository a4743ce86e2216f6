/**
 * Faults at the edges where servers store values (issue #42, blind spot 4): a value past a common
 * width kept cut or changed, and the request answered as if it were kept. Each sits where no older
 * rule sends such a value — the generators reach large integers only at an agreement's
 * estimated_monthly_fee_in_cents and long text only at note bodies, address extra info and display
 * notes (generators/edges.ts), and every template and example rule carries short values — so only
 * the edge relation's rules (suites/relations-edge.ts), which put each edge at every field, catch
 * them.
 */
import { body, clone, fault, rewrite } from './helpers.js';
import type { Around, FaultDefinition } from './types.js';

type Json = Record<string, unknown>;
const list = (x: unknown): Json[] => (Array.isArray(x) ? (x as Json[]) : []);

/** A signed 32-bit column that wraps what it cannot hold, as C's `(int32_t)` cast does. */
const wrap32 = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) ? n | 0 : n);

/** Every reading's `source` of an account payload through a 32-bit column. */
function readingSourcesWrapped(account: unknown): unknown {
  const copy = clone(body<Json>(account));
  for (const group of list(copy.supply_addresses))
    for (const point of list(group.supply_points))
      for (const reading of list(point.readings)) if ('source' in reading) reading.source = wrap32(reading.source);
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

export const edgeFaults: FaultDefinition[] = [
  fault(
    {
      id: 'edges.reading-source-32-bit',
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
      id: 'edges.statement-text-cut-at-255-bytes',
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
