/**
 * The reference server (`conformance serve`, its own process) while it reads and parses 10 MiB
 * requests: how long another client's small request waits meanwhile (its slowest answer, while one
 * and while four such requests are in flight), and the server's peak resident memory after a flood.
 * `node dist/bench/large-requests.js` runs it alone.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { DEFAULT_TOKEN, defaultSeed } from '../reference/index.js';

const CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));
const MiB = 1024 * 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const headers = { authorization: `Token ${DEFAULT_TOKEN}`, 'content-type': 'application/json' };

interface Served {
  url: string;
  operatorKey: string;
  pid: number;
  stop: () => void;
}

function serve(): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--json', '--token', DEFAULT_TOKEN]);
    child.stdout.once('data', (d) => {
      const info = JSON.parse(String(d));
      resolve({ url: info.url, operatorKey: info.operator_key, pid: child.pid!, stop: () => child.kill() });
    });
    child.on('error', reject);
  });
}

/** A notes request just under the server's 10 MiB body limit: ~10 MiB of JSON to read, check, parse and keep. */
export function tenMiBNotes(ext: string): string {
  const note = { body: 'n'.repeat(200) };
  const per = JSON.stringify(note).length + 1;
  const count = Math.floor((10 * MiB - 200) / per) - 10;
  return JSON.stringify({
    import_supplier: 'SUPPLIER_ONGOING',
    external_account_number: ext,
    notes: Array.from({ length: count }, () => note),
  });
}

/** A POST with the reference server's token; its status, the answer read and dropped. */
export async function post(url: string, path: string, body: string, extra: Record<string, string> = {}) {
  const res = await request(`${url}${path}`, { method: 'POST', headers: { ...headers, ...extra }, body });
  await res.body.dump({ limit: Number.MAX_SAFE_INTEGER });
  return res.statusCode;
}

/** An account of the reference server's Ongoing supplier, staged and processed (so it takes notes). */
export async function stagedAndProcessed(url: string, ext: string) {
  await post(
    url,
    '/v1/data-import/account-import-process/create-or-update/',
    JSON.stringify({ import_supplier: 'SUPPLIER_ONGOING', external_account_number: ext }),
  );
  await post(
    url,
    '/v1/data-import/account-import-process/process/',
    JSON.stringify({
      import_supplier_code: 'SUPPLIER_ONGOING',
      external_account_number: ext,
      operations_team_name: 'Migrations',
    }),
  );
}

/** The slowest answer another client got (a status read every 5 ms) while `parallel` 10 MiB requests were handled. */
async function stallWhile(server: Served, parallel: number, round: number): Promise<number> {
  const exts = Array.from({ length: parallel }, (_, i) => `BENCH-BIG-${round}-${i}`);
  for (const ext of exts) await stagedAndProcessed(server.url, ext);
  const bodies = exts.map(tenMiBNotes);
  let stop = false;
  let slowest = 0;
  const other = (async () => {
    while (!stop) {
      const started = performance.now();
      const res = await request(`${server.url}/v1/data-import/account-transfer-status/SUPPLIER_ONGOING/${exts[0]}/`, {
        headers,
      });
      await res.body.dump();
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const statuses = await Promise.all(bodies.map((b) => post(server.url, '/v1/data-import/notes/create/', b)));
  stop = true;
  await other;
  if (statuses.some((s) => s !== 201)) throw new Error(`10 MiB notes answered ${statuses.join(', ')}`);
  // What was stored is forgotten, so the next round is not refused for the storage caps.
  await post(server.url, '/_operator/reset', JSON.stringify(defaultSeed({ token: DEFAULT_TOKEN })), {
    'x-operator-key': server.operatorKey,
  });
  return slowest;
}

/** The server's peak resident memory (VmHWM; Linux only) after 40 requests of 10 MiB, four at a time. */
async function floodPeak(server: Served): Promise<number | undefined> {
  for (let round = 0; round < 10; round++) {
    const exts = Array.from({ length: 4 }, (_, i) => `BENCH-FLOOD-${round}-${i}`);
    for (const ext of exts) await stagedAndProcessed(server.url, ext);
    await Promise.all(exts.map((ext) => post(server.url, '/v1/data-import/notes/create/', tenMiBNotes(ext))));
  }
  const status = `/proc/${server.pid}/status`;
  if (!existsSync(status)) return undefined;
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(status, 'utf8'))?.[1]) / 1024;
}

export async function largeRequests(repeats: number) {
  const server = await serve();
  try {
    await stallWhile(server, 1, -1); // warm-up
    const one: number[] = [];
    const four: number[] = [];
    for (let i = 0; i < repeats; i++) {
      one.push(await stallWhile(server, 1, i));
      four.push(await stallWhile(server, 4, i));
    }
    const peakMb = await floodPeak(server);
    return { oneMs: median(one), fourMs: median(four), peakMb };
  } finally {
    server.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await largeRequests(Number(process.env.BENCH_REPEATS ?? 3))));
}
