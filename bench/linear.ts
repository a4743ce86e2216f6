/**
 * The reference server's duplicate checks are keyed, so a request's cost grows linearly with its
 * items: one request of 60,000 notes, supply points or business contracts takes about as long as ten
 * of 6,000 (less, with the fixed cost of each request), never the ten times as long that a check
 * against every earlier item of the request takes. Both are timed back to back on one server, so a
 * busy machine slows both alike; the ratio's target is < 4. Timed here, not in a test, because a
 * test asserts behaviour and a duration is not one (docs/contributing.md); the test
 * (test/reference/hostile-clients.test.ts) checks what these requests answer.
 */
import { request } from 'undici';
import { DEFAULT_TOKEN, startReferenceServer } from '../reference/index.js';

const SUPPLIER = 'SUPPLIER_ONGOING';
const PATHS = {
  stage: '/v1/data-import/account-import-process/create-or-update/',
  process: '/v1/data-import/account-import-process/process/',
  notes: '/v1/data-import/notes/create/',
  supplyPoints: '/v1/data-import/supply-points/create/',
  business: '/v1/data-import/business/',
};

export interface LinearGrowth {
  what: string;
  /** Milliseconds of one request of 60,000 items. */
  oneMs: number;
  /** Milliseconds of ten requests of 6,000 items, one after the other. */
  tenMs: number;
  ratio: number;
}

export async function linearGrowth(): Promise<LinearGrowth[]> {
  const server = await startReferenceServer({});
  const headers = { authorization: `Token ${DEFAULT_TOKEN}`, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const res = await request(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    await res.body.dump({ limit: Number.MAX_SAFE_INTEGER });
    if (res.statusCode !== 201) throw new Error(`${path} answered ${res.statusCode}`);
  };
  let accounts = 0;
  const imported = async () => {
    const ext = `BENCH-LINEAR-${++accounts}`;
    await post(PATHS.stage, { import_supplier: SUPPLIER, external_account_number: ext });
    await post(PATHS.process, {
      import_supplier_code: SUPPLIER,
      external_account_number: ext,
      operations_team_name: 'Migrations',
    });
    return ext;
  };
  const timed = async (send: () => Promise<unknown>) => {
    const started = performance.now();
    await send();
    return performance.now() - started;
  };
  /** One request of 60,000 items against ten of 6,000, each kind on accounts of its own. */
  const growth = async (what: string, send: (n: number, at: string, prefix: string) => Promise<void>) => {
    const small = await imported();
    const tenMs = await timed(async () => {
      for (let k = 0; k < 10; k++) await send(6_000, small, `${small}-${k}`);
    });
    const large = await imported();
    const oneMs = await timed(() => send(60_000, large, large));
    return { what, oneMs, tenMs, ratio: oneMs / Math.max(tenMs, 1) };
  };
  try {
    await post(PATHS.notes, {
      import_supplier: SUPPLIER,
      external_account_number: await imported(),
      notes: Array.from({ length: 60_000 }, (_, i) => ({ body: `warm ${i}` })),
    });
    return [
      await growth('60,000 notes', (n, at, prefix) =>
        post(PATHS.notes, {
          import_supplier: SUPPLIER,
          external_account_number: at,
          notes: Array.from({ length: n }, (_, i) => ({ body: `${prefix} note ${i}` })),
        }),
      ),
      await growth('60,000 supply points', (n, at, prefix) =>
        post(PATHS.supplyPoints, {
          import_supplier: SUPPLIER,
          external_account_number: at,
          supply_points: Array.from({ length: n }, (_, i) => ({
            identifier: `${prefix}-SP${i}`,
            supply_type: 'ELECTRICITY',
          })),
        }),
      ),
      await growth('60,000 business contracts', (n, _at, prefix) =>
        post(PATHS.business, {
          import_supplier_code: SUPPLIER,
          external_business_identifier: `${prefix}-B${n}`,
          business: {
            company_name: 'C',
            company_number: '1',
            business_type: 'LIMITED_COMPANY',
            business_contracts: Array.from({ length: n }, (_, i) => ({ identifier: `${prefix}-${n}-BC${i}` })),
          },
        }),
      ),
    ];
  } finally {
    await server.close();
  }
}
