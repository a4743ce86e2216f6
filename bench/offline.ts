/**
 * The offline commands and the runner at the sizes hostile input reaches, measured (never asserted
 * in tests): `check-traffic` on a 200k-entry HAR, a run against a target whose listings hold 130k
 * records, and `merge-reports` at its per-input rule limit. `node dist/bench/offline.js` runs these
 * alone; `npm run bench` includes them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runAgainstReference } from '../app/against-reference.js';
import { sumsOf } from '../app/claim/digests.js';
import { MAX_REPORT_RULES } from '../app/cli/report-input.js';
import type { Reply } from '../reference/reply.js';

const CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));

/** A HAR 1.2 document of `n` status reads (GET, 200, a documented body), one second apart. */
export function syntheticHar(
  n: number,
  origin = 'http://127.0.0.1:9',
  token: (i: number) => string = () => 'bench-token-0001',
): string {
  const start = Date.parse('2026-01-01T00:00:00Z');
  const entries: string[] = [];
  for (let i = 0; i < n; i++)
    entries.push(
      JSON.stringify({
        startedDateTime: new Date(start + i * 1000).toISOString(),
        time: 3,
        request: {
          method: 'GET',
          url: `${origin}/v1/data-import/account-transfer-status/SUPPLIER_ONGOING/EXT-${i}/`,
          httpVersion: 'HTTP/1.1',
          headers: [{ name: 'Authorization', value: `Token ${token(i)}` }],
          queryString: [],
          cookies: [],
          headersSize: -1,
          bodySize: 0,
        },
        response: {
          status: 200,
          statusText: 'OK',
          httpVersion: 'HTTP/1.1',
          headers: [{ name: 'Content-Type', value: 'application/json' }],
          cookies: [],
          content: {
            size: 0,
            mimeType: 'application/json',
            text: `{"status":"COMPLETED","service_account_number":"S-${i}"}`,
          },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
        },
        cache: {},
        timings: { send: 0, wait: 3, receive: 0 },
      }),
    );
  return `{"log":{"version":"1.2","creator":{"name":"bench","version":"1"},"entries":[\n${entries.join(',\n')}\n]}}\n`;
}

/** Start to exit of the CLI. */
function timed(args: string[], cwd: string): Promise<{ ms: number; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - started, code, stderr }));
  });
}

/** `check-traffic` on a HAR of `entries` entries, all reports. */
export async function checkTrafficAtScale(entries = 200_000) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-har-'));
  try {
    const har = syntheticHar(entries);
    writeFileSync(join(dir, 'big.har'), har);
    const r = await timed(['check-traffic', 'big.har', '--report-dir', 'out'], dir);
    if (r.code !== 0)
      throw new Error(`check-traffic of ${entries} entries exited ${r.code}: ${r.stderr.slice(0, 500)}`);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    return { ms: r.ms, entries, mb: har.length / 1e6, judged: report.coverage ? 'yes' : 'no' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `check-traffic` on the same HAR with one token throughout and with `distinct` tokens in turn: the
 * redactor learns each and must not slow down with their number (every spelling of every secret is
 * found in one pass over a text).
 */
export async function checkTrafficTokens(entries = 20_000, distinct = 1_000) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-tokens-'));
  try {
    const one = syntheticHar(entries);
    const many = syntheticHar(entries, undefined, (i) => `bench-token-${String(i % distinct).padStart(6, '0')}-x9`);
    writeFileSync(join(dir, 'one.har'), one);
    writeFileSync(join(dir, 'many.har'), many);
    const times = { one: [] as number[], many: [] as number[] };
    for (let repeat = 0; repeat < 3; repeat++)
      for (const which of ['one', 'many'] as const) {
        const r = await timed(['check-traffic', `${which}.har`, '--report-dir', `out-${which}`], dir);
        if (r.code !== 0) throw new Error(`check-traffic ${which}.har exited ${r.code}: ${r.stderr.slice(0, 500)}`);
        times[which].push(r.ms);
      }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const leaked = readFileSync(join(dir, 'out-many', 'report.json'), 'utf8').includes('bench-token-');
    return { entries, distinct, one: median(times.one), many: median(times.many), leaked };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The rules that read the all and pending listings whole. */
export const LISTING_RULES = [
  'status.listing-all-pending',
  'status.listing-pending-nulls',
  'status.listings-per-supplier',
];

/**
 * How a reference server answers its all and pending listings with `records` other accounts'
 * pending records before the supplier's own (12.9 MB at 130k): its `present` choice, and the crowd.
 */
export function crowdedListings(records: number) {
  const crowd = Array.from({ length: records }, (_, i) => ({
    external_account_number: `CROWD-${String(i).padStart(8, '0')}`,
    service_account_number: null,
    account_created_at: null,
  }));
  const present = (answer: Reply, endpoint: string | undefined): Reply =>
    (endpoint === 'allAccountImportProcesses' || endpoint === 'pendingAccountImportProcesses') &&
    answer.status === 200 &&
    Array.isArray(answer.body)
      ? { ...answer, body: [...crowd, ...answer.body] }
      : answer;
  return { crowd, present };
}

/** A run of the listing rules against a reference server whose listings carry `records` other records. */
export async function crowdedListingRun(records = 130_000) {
  const { crowd, present } = crowdedListings(records);
  const started = performance.now();
  const { report } = await runAgainstReference(
    { choices: { present }, auth: 'token' },
    { selection: { rules: LISTING_RULES }, seed: 1 },
  );
  const ms = performance.now() - started;
  const judged = report.rules.filter((r) => r.verdict === 'pass' || r.verdict === 'fail').length;
  return { ms, records, mb: JSON.stringify(crowd).length / 1e6, judged, rules: LISTING_RULES.length };
}

/** A report.json to copy rules from: check-traffic's report of a small HAR. */
async function templateReport(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-template-'));
  try {
    writeFileSync(join(dir, 't.har'), syntheticHar(3));
    const r = await timed(['check-traffic', 't.har', '--reporter', 'json', '--report-dir', 'out'], dir);
    if (r.code !== 0) throw new Error(`check-traffic of the template exited ${r.code}: ${r.stderr.slice(0, 500)}`);
    return JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A report.json of `rules` passing rules (ids `bench.s<shard>.<i>`), each naming a section of its own. */
function syntheticReport(template: Record<string, unknown>, shard: number, rules: number): string {
  const [rule] = template.rules as Record<string, unknown>[];
  const out: string[] = [];
  for (let i = 0; i < rules; i++)
    out.push(JSON.stringify({ ...rule, id: `bench.s${shard}.${i}`, sections: [`§s${shard}x${i}`] }));
  const { rules: _rules, ...rest } = template;
  return `${JSON.stringify(rest).slice(0, -1)},"rules":[${out.join(',')}]}`;
}

/** `merge-reports` of `shards` reports at the per-input rule limit, every report format. */
export async function mergeAtScale(shards = 2, perShard = MAX_REPORT_RULES) {
  const template = await templateReport();
  const dir = mkdtempSync(join(tmpdir(), 'bench-merge-'));
  try {
    const files = [];
    for (let s = 0; s < shards; s++) {
      const file = join(dir, `shard${s}.json`);
      writeFileSync(file, syntheticReport(template, s, perShard));
      files.push(file);
    }
    const r = await timed(['merge-reports', ...files, '--report-dir', 'out'], dir);
    if (r.code !== 0) throw new Error(`merge-reports exited ${r.code}: ${r.stderr.slice(0, 500)}`);
    return { ms: r.ms, rules: shards * perShard };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `verify-claim` of a claim grown to `entries` HAR entries and `exchanges` transcript exchanges: a
 * real claim of the embedded server, its HAR filled with unique status reads no check faults, its
 * history rule (which may cite any exchange of the run) given copies of the other rules' exchanges,
 * every digest written again. Matching once copied the HAR's pool for every exchange.
 */
export async function verifyClaimAtScale(entries = 50_000, exchanges = 2_000) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-claim-'));
  try {
    const made = await timed(
      ['--num-runs', '2', '--reporter', 'json', '--report-dir', 'reports', '--claim', 'claim'],
      dir,
    );
    if (made.code !== 0) throw new Error(`the run making the claim exited ${made.code}: ${made.stderr.slice(0, 500)}`);
    const claim = join(dir, 'claim');
    type Entry = {
      request: { method: string; url: string };
      response: { status: number };
      _conformance?: { rule: string };
    };
    const har = JSON.parse(readFileSync(join(claim, 'traffic.har'), 'utf8')) as { log: { entries: Entry[] } };
    const read = har.log.entries.find((e) => e.request.method === 'GET' && e.response.status === 404 && e._conformance);
    if (!read) throw new Error('the claim has no 404 status read to grow its HAR from');
    for (let k = 0; har.log.entries.length < entries; k++) {
      const copy = structuredClone(read);
      copy.request.url = copy.request.url.replace(/\/[^/]+\/$/, `/BENCH-${k}/`);
      har.log.entries.push(copy);
    }
    type Rule = { id: string; tags?: string[]; transcript: { seq: number }[] };
    const report = JSON.parse(readFileSync(join(claim, 'reports', 'report.json'), 'utf8')) as { rules: Rule[] };
    const history = report.rules.find((r) => r.tags?.includes('history'));
    if (!history) throw new Error('the claim has no history rule');
    const others = report.rules.filter((r) => r !== history).flatMap((r) => r.transcript);
    let total = report.rules.reduce((n, r) => n + r.transcript.length, 0);
    for (let i = 0; total < exchanges; i++, total++)
      history.transcript.push({ ...others[i % others.length], seq: 1e6 + i });
    writeFileSync(join(claim, 'traffic.har'), JSON.stringify(har));
    writeFileSync(join(claim, 'reports', 'report.json'), JSON.stringify(report, null, 2));
    writeFileSync(join(claim, 'SHA256SUMS'), sumsOf(claim));
    const r = await timed(['verify-claim', 'claim'], dir);
    return { ms: r.ms, entries, exchanges: total, consistent: r.code === 0 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The rows `npm run bench` adds for these: [what, value, target, met]. */
export async function offlineRows(): Promise<[string, string, string, boolean][]> {
  const har = await checkTrafficAtScale();
  const listing = await crowdedListingRun();
  const merge = await mergeAtScale();
  const tokens = await checkTrafficTokens();
  const claim = await verifyClaimAtScale();
  return [
    [
      `verify-claim: ${claim.entries.toLocaleString('en')}-entry HAR, ${claim.exchanges.toLocaleString('en')} transcript exchanges`,
      `${(claim.ms / 1000).toFixed(2)} s${claim.consistent ? '' : ', NOT CONSISTENT'}`,
      '< 5 s, consistent',
      claim.ms < 5_000 && claim.consistent,
    ],
    [
      `check-traffic: ${tokens.entries.toLocaleString('en')} entries, ${tokens.distinct.toLocaleString('en')} distinct tokens against one`,
      `${(tokens.many / 1000).toFixed(2)} s vs ${(tokens.one / 1000).toFixed(2)} s (${(tokens.many / tokens.one).toFixed(2)}×)${tokens.leaked ? ', A TOKEN LEAKED' : ''}`,
      '≤ 1.5×, none leaked',
      tokens.many <= 1.5 * tokens.one && !tokens.leaked,
    ],
    [
      `check-traffic: ${har.entries.toLocaleString('en')}-entry HAR (${har.mb.toFixed(0)} MB) judged, all reports`,
      `${(har.ms / 1000).toFixed(2)} s`,
      '< 20 s',
      har.ms < 20_000,
    ],
    [
      `listing rules against a ${listing.records.toLocaleString('en')}-record listing (${listing.mb.toFixed(1)} MB)`,
      `${listing.judged}/${listing.rules} judged in ${(listing.ms / 1000).toFixed(2)} s`,
      'all judged, < 10 s',
      listing.judged === listing.rules && listing.ms < 10_000,
    ],
    [
      `merge-reports: ${merge.rules.toLocaleString('en')} rules (2 inputs at the limit, a section each), all reports`,
      `${(merge.ms / 1000).toFixed(2)} s`,
      '< 20 s',
      merge.ms < 20_000,
    ],
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  for (const [what, value, target, met] of await offlineRows())
    console.log(`${what}: ${value} (target ${target}${met ? '' : ', NOT MET'})`);
