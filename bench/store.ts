/**
 * The reference server's store over a long run: the heap one staged account holds. A run stages
 * hundreds of accounts (thousands at `--num-runs 400`, where the embedded server shares the runner's
 * heap), each from the same templates, so their codes, types and texts repeat; the store keeps one
 * copy of each short string (reference/strings.ts). Measured: 2,000 stagings of the canonical
 * electricity account, each under its own external number, through HTTP, heap in use after a full
 * collection before and after.
 */
import { request } from 'undici';
import { fullCollection } from '../app/full-collection.js';
import { loadFixture } from '../core/spec/fixtures.js';
import { DEFAULT_TOKEN, defaultSeed, startReferenceServer } from '../reference/index.js';

const ACCOUNTS = 2_000;
const STAGE = '/v1/data-import/account-import-process/create-or-update/';

export async function storeCost(): Promise<{ accounts: number; kbPerAccount: number }> {
  const gc = fullCollection();
  if (!gc) throw new Error('V8 gave no gc function: the heap the store holds cannot be measured');
  const server = await startReferenceServer({ seed: defaultSeed({ token: DEFAULT_TOKEN }) });
  try {
    const template = loadFixture<Record<string, unknown>>('accounts/electricity');
    delete template.business; // it names a business contract the seed has not created
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < ACCOUNTS; i++) {
      const res = await request(`${server.url}${STAGE}`, {
        method: 'POST',
        headers: { authorization: `Token ${DEFAULT_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...template, external_account_number: `cf-bench-S${i}` }),
      });
      const text = await res.body.text();
      if (res.statusCode !== 201) throw new Error(`staging answered ${res.statusCode}: ${text.slice(0, 200)}`);
    }
    gc();
    return { accounts: ACCOUNTS, kbPerAccount: (process.memoryUsage().heapUsed - before) / ACCOUNTS / 1024 };
  } finally {
    await server.close();
  }
}
