/**
 * The recorded traffic of a claim held against its report: every exchange a rule's transcript in
 * report.json keeps must be in the HAR, among the entries that rule sent (`_conformance.rule`), with
 * the same method, URL, status and size, and — where the report keeps bodies (a failing rule's last
 * exchanges, every exchange with --full-transcripts) — the same bodies; and the HAR re-judged with
 * the traffic checks (app/traffic/checks.ts, as `check-traffic` judges a run's HAR: a request the run
 * broke on purpose is judged against the server only) must not show a statement broken that the
 * claim's verdict says holds.
 */
import type { Report } from '../../core/report/schema.js';
import type { Exchange } from '../../core/http/exchange.js';
import { route } from '../../core/spec/route.js';
import { isPlainObject } from '../../core/spec/paths.js';
import { TRAFFIC_CHECKS, TrafficJudge } from '../traffic/checks.js';
import type { TimedExchange } from '../traffic/har.js';
import { HarError, fromHarDocument } from '../traffic/har-read.js';
import type { ClaimVerdict } from './verdict.js';

/** One HAR entry as the transcripts are matched against it (written by a run's --har, app/traffic/har.ts). */
export interface RecordedEntry {
  index: number;
  method: string;
  /** As written: absolute. */
  url: string;
  /** 0 when no response was recorded. */
  status: number;
  size?: number;
  requestBody?: string;
  responseBody?: string;
  error?: string;
  rule?: string;
}

export interface RecordedTraffic {
  /** As `check-traffic` reads them (har-read.ts): ordered by start, numbered from 1. */
  exchanges: TimedExchange[];
  /** In the file's order. */
  entries: RecordedEntry[];
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** A HAR's text read both ways; throws har-read's HarError for a file that is no HAR. */
export function readTraffic(text: string): RecordedTraffic {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new HarError(`not JSON: ${(error as Error).message}`);
  }
  const { exchanges } = fromHarDocument(doc);
  // fromHarDocument has checked every field it reads; the size and the run's marks are read here.
  const raw = (doc as { log: { entries: Record<string, unknown>[] } }).log.entries;
  const entries = raw.map((e, index): RecordedEntry => {
    const request = e.request as { method: string; url: string; postData?: { text?: unknown } };
    const response = (e.response ?? {}) as { status?: unknown; content?: Record<string, unknown>; _error?: unknown };
    const mark = e._conformance as { rule?: unknown } | undefined;
    const status = typeof response.status === 'number' ? response.status : 0;
    return {
      index,
      method: request.method.toUpperCase(),
      url: request.url,
      status,
      ...(typeof response.content?.size === 'number' ? { size: response.content.size } : {}),
      ...(str(request.postData?.text) !== undefined ? { requestBody: str(request.postData?.text) } : {}),
      ...(str(response.content?.text) !== undefined ? { responseBody: str(response.content?.text) } : {}),
      ...(str(response._error) !== undefined ? { error: str(response._error) } : {}),
      ...(str(mark?.rule) !== undefined ? { rule: str(mark?.rule) } : {}),
    };
  });
  return { exchanges, entries };
}

/** The note a report's cut body ends with (core/engine/transcripts.ts), or the ellipsis of a clipped one. */
const CUT = /… \[cut: (?:more than )?\d+ bytes in all\]$/;

/** Whether a body the report keeps is the HAR's: the same, or — cut in the report — its beginning. */
function sameBody(kept: string | undefined, truncated: boolean | undefined, recorded: string | undefined): boolean {
  if (kept === undefined) return true;
  if (recorded === undefined) return false;
  if (!truncated) return kept === recorded;
  const prefix = CUT.test(kept) ? kept.replace(CUT, '') : kept.replace(/…$/, '');
  return recorded.startsWith(prefix);
}

/** Path and query of an absolute URL as written (no normalising: the transcript has the text the client sent). */
const pathOf = (url: string) => /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(.*)$/i.exec(url)?.[1] ?? url;

/** What an exchange and an entry must share to be one: method, path and query, status and size (not bodies). */
const lineKey = (method: string, path: string, status: number, size: number | undefined) =>
  `${method.toUpperCase()} ${status} ${size ?? ''} ${path}`;
const keyOfEntry = (e: RecordedEntry) => lineKey(e.method, pathOf(e.url), e.status, e.status ? e.size : undefined);
const keyOfExchange = (x: Exchange) =>
  lineKey(
    x.request.method,
    /^https?:\/\//i.test(x.request.url) ? pathOf(x.request.url) : x.request.url,
    x.response?.status ?? 0,
    x.response?.bytes,
  );

/** An absolute URL in the transcript must be the entry's to the letter; a path was matched by the key. */
const sameUrl = (x: Exchange, e: RecordedEntry) => !/^https?:\/\//i.test(x.request.url) || e.url === x.request.url;

const bodiesAgree = (x: Exchange, e: RecordedEntry) =>
  sameBody(x.request.body, x.request.body_truncated, e.requestBody) &&
  sameBody(x.response?.body, x.response?.body_truncated, e.responseBody);

const line = (x: Exchange) =>
  `${x.request.method} ${x.request.url} → ${x.response ? x.response.status : `no response (${x.error?.kind ?? 'error'})`}`;

/**
 * Rules that cite exchanges other rules sent (the run's history, docs/design.md §4): theirs are
 * looked for among every entry of the HAR, not only among their own.
 */
const citesOthers = (rule: { tags: readonly string[] }) => rule.tags.includes('history');

/** Entries grouped by their line key, in the file's order: every lookup is one map access, not a scan of the HAR. */
type LineIndex = Map<string, RecordedEntry[]>;

function indexByLine(entries: Iterable<RecordedEntry>): LineIndex {
  const index: LineIndex = new Map();
  for (const e of entries) {
    const key = keyOfEntry(e);
    const same = index.get(key);
    if (same) same.push(e);
    else index.set(key, [e]);
  }
  return index;
}

/**
 * The transcripts of report.json against the HAR: each disagreement in words. Linear in the HAR
 * and the transcripts: the entries are indexed once by their line (all of them, and per sending
 * rule), and an exchange is matched among the entries of its own line that its rule has not used.
 * An exchange without bodies takes the first such entry; one with bodies the first whose bodies agree.
 */
export function checkTranscripts(report: Report, traffic: RecordedTraffic): string[] {
  const bySender = new Map<string, RecordedEntry[]>();
  for (const e of traffic.entries) {
    if (e.rule === undefined) continue;
    const mine = bySender.get(e.rule);
    if (mine) mine.push(e);
    else bySender.set(e.rule, [e]);
  }
  let everyLine: LineIndex | undefined;
  const sources = [
    ...(report.setup
      ? [{ id: 'setup', tags: [] as string[], transcript: report.setup.transcript, verdict: 'setup' }]
      : []),
    ...report.rules,
  ];
  const found: string[] = [];
  for (const rule of sources) {
    if (!rule.transcript.length) continue;
    const lines = citesOthers(rule)
      ? (everyLine ??= indexByLine(traffic.entries))
      : indexByLine(bySender.get(rule.id) ?? []);
    // Per line, how many entries at its front are used: an exchange without bodies never looks back past them.
    const used = new Set<number>();
    const firstFree = new Map<string, number>();
    // Exchanges with bodies first: a one-line exchange must not take the entry one with bodies needs.
    const ordered = [...rule.transcript].sort((a, b) => Number(!!a.brief) - Number(!!b.brief));
    for (const x of ordered) {
      const key = keyOfExchange(x);
      const candidates = lines.get(key) ?? [];
      const plain = x.request.body === undefined && x.response?.body === undefined;
      let match: RecordedEntry | undefined;
      let sameLine: RecordedEntry | undefined;
      let i = 0;
      if (plain) {
        // The used entries at the front of this line stay used: the next plain exchange starts past them.
        for (i = firstFree.get(key) ?? 0; i < candidates.length && used.has(candidates[i].index); i++);
        firstFree.set(key, i);
      }
      for (; i < candidates.length; i++) {
        const e = candidates[i];
        if (used.has(e.index) || !sameUrl(x, e)) continue;
        sameLine ??= e;
        if (plain || bodiesAgree(x, e)) {
          match = e;
          break;
        }
      }
      if (match) {
        used.add(match.index);
        continue;
      }
      const who = rule.id === 'setup' ? 'the setup chain' : `rule ${rule.id} (${rule.verdict})`;
      found.push(
        sameLine
          ? `traffic: ${who}: exchange ${x.seq} of its transcript (${line(x)}) is in the HAR (entry ${sameLine.index}) with other bodies than report.json keeps`
          : `traffic: ${who}: exchange ${x.seq} of its transcript (${line(x)}) is not in the HAR`,
      );
    }
  }
  return found;
}

/** The claim's verdicts that say no statement that counts was broken. */
const SAYS_NONE_BROKEN: ReadonlySet<ClaimVerdict> = new Set([
  'conformant',
  'conformant for what is implemented',
  'incomplete',
]);

/**
 * The HAR re-judged by the traffic checks, against the server only (the run's own requests are the
 * suite's, and those it broke on purpose say so). A finding of a check that counts (MUST; SHOULD with
 * --strict) is a disagreement when the claim says nothing that counts was broken: the traffic shows
 * the implementation breaking a statement the claim's verdict says it keeps. Under `not conformant`
 * a finding agrees with the verdict, whichever rule's exchange showed it: the traffic checks judge
 * every exchange for every statement, a rule only for its own.
 */
export function rejudge(report: Report, traffic: RecordedTraffic, verdict: ClaimVerdict): string[] {
  const judge = new TrafficJudge();
  for (const exchange of traffic.exchanges) judge.observe(exchange);
  if (!SAYS_NONE_BROKEN.has(verdict)) return [];
  const bySeq = new Map(traffic.exchanges.map((x) => [x.seq, x]));
  const verdicts = new Map(report.rules.map((r) => [r.id, r.verdict]));
  return judge.findings
    .filter((f) => {
      const check = TRAFFIC_CHECKS[f.check];
      return check.side === 'server' && (check.level === 'MUST' || (report.run.strict && check.level === 'SHOULD'));
    })
    .map((f) => {
      const check = TRAFFIC_CHECKS[f.check];
      const sender = bySeq.get(f.exchanges.at(-1) ?? -1)?.sentBy?.rule;
      const by = sender ? `, sent by ${sender}${verdicts.has(sender) ? ` (${verdicts.get(sender)})` : ''}` : '';
      return `traffic: the claim says ${verdict}, but the HAR shows ${check.id} (${check.level}, ${check.spec}) broken at exchange ${f.exchanges.join(' and ')}${by}: ${f.message}`;
    });
}

const LISTINGS = new Set([
  'allAccountImportProcesses',
  'pendingAccountImportProcesses',
  'importedAccountImportProcesses',
]);

/**
 * How the listings answered in the traffic (§4.3 does not show whether they page): per listing, a
 * plain list, pages (`{count, next, previous, results}`), both, or no answer observed.
 */
export function observedPagination(traffic: RecordedTraffic): Record<string, string> {
  const seen = new Map<string, Set<'a list' | 'pages'>>();
  for (const x of traffic.exchanges) {
    const routed = route(x.request.method, x.request.url);
    if (!routed || !LISTINGS.has(routed.endpoint.id) || x.response?.status !== 200) continue;
    let body: unknown;
    try {
      body = JSON.parse(x.response.body ?? '');
    } catch {
      continue;
    }
    const kind = Array.isArray(body)
      ? 'a list'
      : isPlainObject(body) && Array.isArray(body.results)
        ? 'pages'
        : undefined;
    if (kind) seen.set(routed.endpoint.id, (seen.get(routed.endpoint.id) ?? new Set()).add(kind));
  }
  return Object.fromEntries(
    [...LISTINGS].map((id) => {
      const kinds = seen.get(id);
      return [id, kinds ? [...kinds].sort().join(' and ') : 'no 200 answer observed'];
    }),
  );
}
