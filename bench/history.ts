/**
 * The run history's own cost (core/engine/history.ts), with no target: a recorded run of 20,000
 * accounts, each staged, processed and read back by status, and the supplier's all-accounts listing
 * read every 1,000 accounts (so its records are read again and again, as rules read it). Measured:
 * the time per exchange read and the heap the history holds at the end.
 */
import { fullCollection } from '../app/full-collection.js';
import { historyTells } from '../core/engine/drivers.js';
import { RunHistory } from '../core/engine/history.js';
import type { Exchange } from '../core/http/exchange.js';

const ACCOUNTS = 20_000;
const SUPPLIER = 'ONGOING';

function exchange(
  seq: number,
  method: string,
  url: string,
  status: number,
  response: unknown,
  request?: unknown,
): Exchange {
  const body = JSON.stringify(response);
  return {
    seq,
    request: { method, url, headers: {}, ...(request === undefined ? {} : { body: JSON.stringify(request) }) },
    response: { status, headers: {}, body, bytes: body.length },
    duration_ms: 1,
  };
}

/** A full collection, so that heap in use is what is live (the bench runs without --expose-gc). */
function collect(): void {
  const gc = fullCollection();
  if (!gc) throw new Error('V8 gave no gc function: the heap the history holds cannot be measured');
  gc();
}

export async function historyCost(): Promise<{ exchanges: number; usPerExchange: number; heapMb: number }> {
  collect();
  const before = process.memoryUsage().heapUsed;
  const history = new RunHistory(historyTells());
  const records: unknown[] = [];
  const filler = 'x'.repeat(1500); // a staged payload's weight, cut by the history to what a report keeps
  let seq = 0;
  let spent = 0;
  const feed = (x: Exchange) => {
    const started = performance.now();
    history.observe(x, new Date(), Date.now());
    spent += performance.now() - started;
  };
  for (let i = 0; i < ACCOUNTS; i++) {
    const ext = `cf-bench-A${i}`;
    const number = `A-${i.toString(16).padStart(8, '0')}`;
    const key = { import_supplier: SUPPLIER, external_account_number: ext };
    feed(
      exchange(++seq, 'POST', '/v1/data-import/account-import-process/create-or-update/', 201, key, {
        ...key,
        billing_name: filler,
      }),
    );
    feed(
      exchange(
        ++seq,
        'POST',
        '/v1/data-import/account-import-process/process/',
        201,
        { service_account_number: number },
        {
          external_account_number: ext,
          import_supplier_code: SUPPLIER,
          operations_team_name: 'ops',
        },
      ),
    );
    feed(
      exchange(++seq, 'GET', `/v1/data-import/account-transfer-status/${SUPPLIER}/${ext}/`, 200, {
        status: 'COMPLETED',
        service_account_number: number,
      }),
    );
    records.push({
      external_account_number: ext,
      service_account_number: number,
      account_created_at: '2026-01-01T00:00:00Z',
    });
    if ((i + 1) % 1000 === 0)
      feed(exchange(++seq, 'GET', `/v1/data-import/all-account-import-processes/${SUPPLIER}/`, 200, records));
  }
  // The listing's records are the bench's input, not what the history holds.
  records.length = 0;
  collect();
  const heapMb = (process.memoryUsage().heapUsed - before) / 1e6;
  if (history.stats.exchanges !== seq) throw new Error('the history did not read every exchange');
  return { exchanges: seq, usPerExchange: (spent * 1000) / seq, heapMb };
}
