/**
 * `npm run bench`: the runner's speed against its targets, measured (never asserted in tests).
 * - the full default run (every rule, default num-runs) against the embedded server, start to exit;
 * - the same against a reference server that adds 20 ms, and 100 ms, to every response;
 * - the nightly scale: `--num-runs 400` against the embedded server, start to exit, and its peak RSS;
 * - the runner's own CPU time per request and its peak memory (server in another process);
 * - `node_modules/.bin/conformance --help`, and what `npx conformance --help` costs on top;
 * - the reference server answering 60,000 notes in one request, and other clients meanwhile;
 * - the reference server's duplicate checks growing linearly: one request of 60,000 items against ten of 6,000;
 * - `conformance proxy`: latency it adds per exchange and exchanges it relays per second;
 * - `conformance proxy` over a long session: its RSS after 12 exchanges of 15 MiB each way, and its
 *   relay latency once it has learned 1,000 tokens, against a fresh proxy;
 * - check-traffic on a 200k-entry HAR and with 1,000 distinct tokens, the listing rules against a
 *   130k-record listing, and merge-reports at its per-input rule limit (bench/offline.ts).
 * - the reference server while it handles 10 MiB requests: another client's slowest answer, and its peak RSS.
 * - the run history (core/engine/history.ts) reading a recorded run of 20,000 accounts: time per exchange, heap held.
 * - the reference store: the heap one staged account holds, over 2,000 stagings (bench/store.ts).
 * Prints a Markdown table and writes bench.md / bench.json to the report dir.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { DEFAULT_TOKEN } from '../reference/index.js';
import { EMBEDDED_LIMIT, embeddedFixtures, embeddedPayloads } from '../app/embedded.js';
import { runConformance } from '../app/conformance.js';
import { offlineRows } from './offline.js';
import { linearGrowth } from './linear.js';
import { proxyOverhead } from './proxy.js';
import { proxyRss, proxySecretsCost } from './proxy-bounds.js';
import { largeRequests } from './large-requests.js';
import { historyCost } from './history.js';
import { storeCost } from './store.js';

const CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));
/** The repository (dist/bench/ is two levels below it): its own node_modules/.bin/conformance. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LINKED_BIN = join(ROOT, 'node_modules', '.bin', 'conformance');
/**
 * The bin script as an installed project runs it. npm links it into node_modules/.bin of a project
 * that depends on this package, not of this repository itself (a fresh clone has none): there the
 * same script, package.json's `bin`, is run with node.
 */
const BIN: [string, string[]] = existsSync(LINKED_BIN) ? [LINKED_BIN, []] : [process.execPath, [CLI]];
/** Cases per property at the nightly scale, where the runner's own cost per request shows. */
const NIGHTLY_RUNS = 400;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);

function run(args: string[], cwd: string): Promise<{ ms: number; code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - started, code, stdout }));
  });
}

/** Start to exit of any command (`npx`, the bin script): wall time only. */
function timeCommand(command: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`${command} ${args.join(' ')} exited ${code}`)),
    );
  });
}

/**
 * The nightly scale: the CLI with `--num-runs 400` against its embedded server, start to exit, and
 * its peak resident memory, the kernel's high-water mark (VmHWM, read from /proc while it runs:
 * Linux only, otherwise not measured).
 */
function nightly(cwd: string): Promise<{ ms: number; peakMb?: number; code: number | null; requests: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [CLI, '--reporter', 'json', '--seed', '1', '--num-runs', String(NIGHTLY_RUNS), '--report-dir', 'nightly'],
      { cwd, stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } },
    );
    const status = `/proc/${child.pid}/status`;
    let peakKb: number | undefined;
    const sample = () => {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(status, 'utf8'))?.[1]);
        if (kb) peakKb = Math.max(peakKb ?? 0, kb);
      } catch {
        // not Linux, or the process has just ended
      }
    };
    const sampler = existsSync(status) ? setInterval(sample, 20) : undefined;
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sampler);
      const ms = performance.now() - started;
      let requests = 0;
      try {
        requests = JSON.parse(readFileSync(join(cwd, 'nightly', 'report.json'), 'utf8')).http.requests;
      } catch {
        // no report: the exit code says why
      }
      resolve({ ms, code, requests, ...(peakKb ? { peakMb: peakKb / 1024 } : {}) });
    });
  });
}

/**
 * What the target's §8 limit alone costs at `latencyMs`: each account created (a 201 of the process
 * endpoint) held one of its slots for a round trip and the processing, at most `limit` at once. No
 * run that keeps to the limit can be shorter (the refused calls that also hold a slot come on top).
 */
function s8Floor(
  report:
    | { coverage?: { endpoints: { endpoint: string; statuses: { status: number; observed: number }[] }[] } }
    | undefined,
  latencyMs: number,
) {
  const process = report?.coverage?.endpoints.find((e) => e.endpoint === 'processAccount');
  if (!process) return { ms: 0, text: 'process calls not counted' };
  const created = process.statuses.find((x) => x.status === 201)?.observed ?? 0;
  const { concurrencyLimit, processingDelayMs } = EMBEDDED_LIMIT;
  const ms = (created * (latencyMs + processingDelayMs)) / concurrencyLimit;
  return {
    ms,
    text: `the §8 limit of ${concurrencyLimit} alone needs ≥ ${(ms / 1000).toFixed(1)} s: ${created} accounts created × ${latencyMs + processingDelayMs} ms ÷ ${concurrencyLimit}`,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A reference server in its own process, so that its CPU is not the runner's. */
function serve(latencyMs: number): Promise<{ url: string; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const args = [
      'serve',
      '--port',
      '0',
      '--json',
      '--token',
      DEFAULT_TOKEN,
      '--concurrency-limit',
      String(EMBEDDED_LIMIT.concurrencyLimit),
      '--processing-delay',
      String(EMBEDDED_LIMIT.processingDelayMs),
      '--latency',
      String(latencyMs),
    ];
    const child = spawn(process.execPath, [CLI, ...args]);
    child.stdout.once('data', (d) => resolve({ url: JSON.parse(String(d)).url as string, stop: () => child.kill() }));
    child.on('error', reject);
  });
}

async function inProcessRun(url: string) {
  const fixtures = await embeddedFixtures();
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const report = await runConformance({
    baseUrl: url,
    auth: { token: DEFAULT_TOKEN },
    fixtures,
    payloads: embeddedPayloads(),
    seed: 1,
  });
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  return { report, wall, cpuMs: (used.user + used.system) / 1000, peakMb: peak / 1024 / 1024 };
}

async function onFreshServer(latencyMs: number) {
  const server = await serve(latencyMs);
  try {
    return await inProcessRun(server.url);
  } finally {
    server.stop();
  }
}

/**
 * The reference server under one bulk request: 60,000 notes in one 1 MB request, while another
 * client asks for a status every 5 ms. Returns the bulk request's time and the other client's
 * slowest answer (median of `repeats`, each on a fresh account, after one warm-up).
 */
async function bulkNotes(repeats: number) {
  const server = await serve(0);
  const headers = { authorization: `Token ${DEFAULT_TOKEN}`, 'content-type': 'application/json' };
  const post = async (path: string, body: string) => {
    const res = await request(`${server.url}${path}`, { method: 'POST', headers, body });
    await res.body.dump({ limit: Number.MAX_SAFE_INTEGER }); // the 5 MB answer is not parsed: the bench's own CPU must not count
    return res.statusCode;
  };
  const measure = async (ext: string) => {
    await post(
      '/v1/data-import/account-import-process/create-or-update/',
      JSON.stringify({ import_supplier: 'SUPPLIER_ONGOING', external_account_number: ext }),
    );
    await post(
      '/v1/data-import/account-import-process/process/',
      JSON.stringify({
        import_supplier_code: 'SUPPLIER_ONGOING',
        external_account_number: ext,
        operations_team_name: 'Migrations',
      }),
    );
    const body = JSON.stringify({
      import_supplier: 'SUPPLIER_ONGOING',
      external_account_number: ext,
      notes: Array.from({ length: 60_000 }, (_, i) => ({ body: `note ${i}` })),
    });
    let stop = false;
    let slowestOther = 0;
    const other = (async () => {
      while (!stop) {
        const started = performance.now();
        const res = await request(`${server.url}/v1/data-import/account-transfer-status/SUPPLIER_ONGOING/${ext}/`, {
          headers,
        });
        await res.body.dump();
        slowestOther = Math.max(slowestOther, performance.now() - started);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const started = performance.now();
    const status = await post('/v1/data-import/notes/create/', body);
    const ms = performance.now() - started;
    stop = true;
    await other;
    if (status !== 201) throw new Error(`60k notes answered ${status}`);
    return { ms, slowestOther, bytes: body.length };
  };
  try {
    await measure('BENCH-WARM');
    const runs = [];
    for (let i = 0; i < repeats; i++) runs.push(await measure(`BENCH-${i}`));
    return {
      ms: median(runs.map((r) => r.ms)),
      slowestOther: median(runs.map((r) => r.slowestOther)),
      bytes: runs[0].bytes,
    };
  } finally {
    server.stop();
  }
}

/** The bench's reports and configs in a directory of its own, removed when the bench ends, finished or failed. */
async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  try {
    await measure(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(dir: string) {
  const full: number[] = [];
  let requests = 0;
  let rules = 0;
  for (let i = 0; i < REPEATS; i++) {
    const r = await run(['--reporter', 'json', '--seed', '1'], dir);
    if (r.code !== 0) throw new Error(`the default run exited ${r.code}`);
    full.push(r.ms);
    const report = JSON.parse(readFileSync(join(dir, 'conformance-report', 'report.json'), 'utf8'));
    requests = report.http.requests;
    rules = report.summary.total;
  }

  // Warm the modules and the JIT, then take the median run: the steady-state runner. Each run gets
  // a fresh server, as the default run does: listings grow with every run a server has seen, and
  // parsing listings seven runs deep would charge the runner for the bench's own history.
  for (let i = 0; i < 2; i++) await onFreshServer(0);
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(await onFreshServer(0));
  const measured = runs.sort((a, b) => a.cpuMs / a.report.http.requests - b.cpuMs / b.report.http.requests)[2];

  const latency: number[] = [];
  for (let i = 0; i < REPEATS; i++) latency.push((await onFreshServer(20)).wall);
  const slow: number[] = [];
  let slowReport: Awaited<ReturnType<typeof onFreshServer>>['report'] | undefined;
  for (let i = 0; i < REPEATS; i++) {
    const r = await onFreshServer(100);
    slow.push(r.wall);
    slowReport = r.report;
  }
  const floor = s8Floor(slowReport, 100);

  const scale = await nightly(dir);
  if (scale.code !== 0) throw new Error(`the --num-runs ${NIGHTLY_RUNS} run exited ${scale.code}`);

  // As a user's project runs it: the bin script npm links, and npx, which finds that same script.
  const help: number[] = [];
  for (let i = 0; i < 10; i++) help.push(await timeCommand(BIN[0], [...BIN[1], '--help'], ROOT));
  const npx: number[] = [];
  for (let i = 0; i < 5; i++) npx.push(await timeCommand('npx', ['conformance', '--help'], ROOT));

  const bulk = await bulkNotes(REPEATS);

  const proxyTarget = await serve(0);
  const relay = await proxyOverhead(proxyTarget.url).finally(() => proxyTarget.stop());

  // Offline commands and the runner at hostile sizes (bench/offline.ts).
  const offline = await offlineRows();
  // --- Large request bodies (bench/large-requests.ts) ---
  const large = await largeRequests(REPEATS);
  const largeRows = [
    [
      'reference server: slowest other client while one 10 MiB request is handled',
      `${large.oneMs.toFixed(0)} ms`,
      '< 100 ms',
      large.oneMs < 100,
    ],
    [
      'reference server: slowest other client while four 10 MiB requests are handled',
      `${large.fourMs.toFixed(0)} ms`,
      '< 400 ms',
      large.fourMs < 400,
    ],
    [
      'reference server: peak RSS after 40 requests of 10 MiB, four at a time (default caps)',
      large.peakMb === undefined ? 'not measured (no /proc)' : `${large.peakMb.toFixed(0)} MB`,
      '< 812 MB (300 MB + 4 × 128 MiB)',
      large.peakMb === undefined || large.peakMb < 812,
    ],
  ] as const;
  // --- end of large request bodies ---
  // --- The run history's own cost (bench/history.ts) ---
  const history = await historyCost();
  const historyRows = [
    [
      `run history: ${history.exchanges.toLocaleString('en')} exchanges of 20,000 accounts read, time per exchange`,
      `${history.usPerExchange.toFixed(1)} µs`,
      '< 50 µs',
      history.usPerExchange < 50,
    ],
    ['run history: heap it holds after them', `${history.heapMb.toFixed(0)} MB`, '< 60 MB', history.heapMb < 60],
  ] as const;
  // --- The reference store per staged account (bench/store.ts) ---
  const store = await storeCost();
  const storeRows = [
    [
      `reference store: heap per staged account (${store.accounts.toLocaleString('en')} stagings of the canonical account)`,
      `${store.kbPerAccount.toFixed(1)} KB`,
      '< 8 KB',
      store.kbPerAccount < 8,
    ],
  ] as const;
  // --- end of the run history ---

  const perRequest = measured.cpuMs / measured.report.http.requests;
  const rows = [
    [
      'full default run, start to exit (embedded server)',
      `${(median(full) / 1000).toFixed(2)} s`,
      '< 3 s',
      median(full) < 3000,
    ],
    [
      'full run with 20 ms added latency per response',
      `${(median(latency) / 1000).toFixed(2)} s`,
      '< 20 s',
      median(latency) < 20000,
    ],
    [
      'full run with 100 ms added latency per response',
      `${(median(slow) / 1000).toFixed(2)} s (${floor.text})`,
      '< 10 s',
      median(slow) < 10000,
    ],
    [
      `--num-runs ${NIGHTLY_RUNS} (embedded server), start to exit`,
      `${(scale.ms / 1000).toFixed(2)} s`,
      '< 25 s',
      scale.ms < 25000,
    ],
    [
      `--num-runs ${NIGHTLY_RUNS}: peak RSS`,
      scale.peakMb === undefined ? 'not measured (no /proc)' : `${scale.peakMb.toFixed(0)} MB`,
      '< 200 MB',
      scale.peakMb === undefined || scale.peakMb < 200,
    ],
    ["runner's own CPU per request (warm)", `${perRequest.toFixed(3)} ms`, '< 0.5 ms', perRequest < 0.5],
    ['node_modules/.bin/conformance --help', `${median(help).toFixed(0)} ms`, '< 300 ms', median(help) < 300],
    [
      `reference server: 60,000 notes in one ${(bulk.bytes / 1e6).toFixed(2)} MB request`,
      `${bulk.ms.toFixed(0)} ms`,
      '< 1000 ms',
      bulk.ms < 1000,
    ],
    [
      'reference server: slowest other client meanwhile',
      `${bulk.slowestOther.toFixed(0)} ms`,
      '< 100 ms',
      bulk.slowestOther < 100,
    ],
    [
      'proxy: latency added per exchange (median, small bodies)',
      `${relay.addedMs.toFixed(2)} ms`,
      '< 1 ms',
      relay.addedMs < 1,
    ],
    [
      'proxy: exchanges relayed and judged per second',
      `${relay.perSecond.toFixed(0)}`,
      '≥ 2,000',
      relay.perSecond >= 2000,
    ],
    // Offline commands and the runner at hostile sizes (bench/offline.ts).
    ...offline,
    ...largeRows,
    ...historyRows,
    ...storeRows,
  ] as const;

  // ---- conformance proxy over a long session: its memory, and what the secrets it learned cost ----
  const secretsTarget = await serve(0);
  const secrets = await proxySecretsCost(secretsTarget.url).finally(() => secretsTarget.stop());
  const rss = await proxyRss(12, 3);
  const proxySessionRows = [
    [
      'proxy: RSS after 12 × 15 MiB exchanges (each way, --har on; median of 3 sessions)',
      rss
        ? `${rss.afterMb.toFixed(0)} MB (${rss.runs.map((mb) => mb.toFixed(0)).join(', ')}; peak ${rss.peakMb.toFixed(0)} MB)`
        : 'not measured (no /proc)',
      '< 300 MB',
      rss === undefined || rss.afterMb < 300,
    ],
    [
      'proxy: relay latency with 1,000 tokens seen vs a fresh proxy (median, --har on)',
      `${secrets.seenMs.toFixed(2)} ms vs ${secrets.freshMs.toFixed(2)} ms (${secrets.ratio.toFixed(2)}×)`,
      'within 1.5×',
      secrets.ratio <= 1.5,
    ],
  ] as const;
  const allRows = [...rows, ...proxySessionRows];
  // ---- end of the proxy session block ----

  const npxCost = median(npx) - median(help);
  const md = [
    `# Benchmark (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, median of ${REPEATS} runs; --help of 10)`,
    '',
    '| Measure | Value | Target | Met |',
    '|---|---|---|---|',
    ...allRows.map(([what, value, target, ok]) => `| ${what} | ${value} | ${target} | ${ok ? 'yes' : '**no**'} |`),
    '',
    `${rules} rules, ${requests} requests in the default run (${(requests / (median(full) / 1000)).toFixed(0)} requests/s start to exit); ` +
      `in-process run: ${measured.report.http.requests} requests in ${(measured.wall / 1000).toFixed(2)} s (${(measured.report.http.requests / (measured.wall / 1000)).toFixed(0)} requests/s), ` +
      `runner CPU ${measured.cpuMs.toFixed(0)} ms, peak RSS ${measured.peakMb.toFixed(0)} MB.`,
    `\`npx conformance --help\`: ${median(npx).toFixed(0)} ms, so \`npx\` itself adds ${npxCost.toFixed(0)} ms to any command (no target: it is npm's).` +
      ` --num-runs ${NIGHTLY_RUNS}: ${scale.requests} requests.`,
  ].join('\n');
  console.log(md);
  const out = process.env.BENCH_DIR ?? 'conformance-report';
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'bench.md'), `${md}\n`);
  writeFileSync(
    join(out, 'bench.json'),
    `${JSON.stringify({ fullMs: full, latencyMs: latency, latency100Ms: slow, nightlyMs: scale.ms, nightlyPeakMb: scale.peakMb, nightlyRequests: scale.requests, helpMs: help, npxHelpMs: npx, cpuPerRequestMs: perRequest, requests, rules, peakMb: measured.peakMb, bulkNotesMs: bulk.ms, bulkNotesSlowestOtherMs: bulk.slowestOther, largeRequestOneMs: large.oneMs, largeRequestFourMs: large.fourMs, largeRequestPeakMb: large.peakMb }, null, 2)}\n`,
  );
  if (allRows.some((r) => !r[3])) process.exitCode = 1;
}

await main();

// ---- Linear growth of the reference server's duplicate checks (bench/linear.ts) ----------------------
// One request of 60,000 items against ten of 6,000: a ratio of 4 or more means a check grew quadratic.
{
  const growth = await linearGrowth();
  const md = [
    '',
    '| Duplicate checks of one request | One of 60,000 | Ten of 6,000 | Ratio | Target | Met |',
    '|---|---|---|---|---|---|',
    ...growth.map(
      (g) =>
        `| ${g.what} | ${g.oneMs.toFixed(0)} ms | ${g.tenMs.toFixed(0)} ms | ${g.ratio.toFixed(2)} | < 4 | ${g.ratio < 4 ? 'yes' : '**no**'} |`,
    ),
  ].join('\n');
  console.log(md);
  const out = process.env.BENCH_DIR ?? 'conformance-report';
  writeFileSync(join(out, 'bench.md'), `${readFileSync(join(out, 'bench.md'), 'utf8')}${md}\n`);
  if (growth.some((g) => g.ratio >= 4)) process.exitCode = 1;
}
