/**
 * Traffic findings as a conformance report: each check is a rule of the report (failed with its
 * findings and the exchanges that prove them, passed, or skipped when the traffic held nothing for it
 * to judge), so a proxy session or a HAR file gets the same levels, citations, redaction and the same
 * five formats as a run. Which side a finding is against is the rule's tag (`client` or `server`).
 */
import type { RunRecord } from '../../core/engine/record.js';
import type { RuleResult } from '../../core/engine/result.js';
import { declaredFacts, type Rule } from '../../core/engine/rule.js';
import type { Exchange } from '../../core/http/exchange.js';
import type { Redactor } from '../../core/http/redact.js';
import { redactDeep } from '../../core/http/redact-deep.js';
import { buildReport } from '../../core/report/build.js';
import { type Coverage, coverageOf } from '../../core/report/coverage.js';
import type { Report } from '../../core/report/schema.js';
import { model } from '../../core/spec/index.js';
import { packageVersion } from '../../core/spec/package-root.js';
import { type CheckName, TRAFFIC_CHECKS, type TrafficJudge } from './checks.js';
import type { TimedExchange } from './har.js';

/** Findings listed per check; the rest are counted, so a long session keeps a small report. */
const MAX_LISTED = 50;
/** Exchanges a failed check's transcript holds: the first its findings name. */
export const MAX_EXCHANGES = 20;

const asRule = (name: CheckName): Rule => {
  const c = TRAFFIC_CHECKS[name];
  return {
    id: c.id,
    spec: c.spec,
    level: c.level,
    title: c.title,
    ...(c.why ? { why: c.why } : {}),
    tags: ['traffic', c.side],
    endpoints: [],
    check: async () => undefined,
  };
};

export interface TrafficSource {
  /** What was judged: "proxy to https://staging…" or "session.har". */
  label: string;
  startedAt: Date;
  finishedAt: Date;
  /** The origin of exchanges whose URL is a path (the proxy's target). */
  origin?: string;
}

/**
 * An exchange as a report's transcript holds it: the fields of ExchangeSchema only, its URL absolute
 * (a traffic report's target is a label, not a base URL, so its `curl` lines need the origin).
 */
function asTranscript(e: TimedExchange, origin: string | undefined): Exchange {
  const { startedAt: _at, origin: own, ...exchange } = e;
  const base = own ?? origin;
  return base && !/^https?:\/\//i.test(e.request.url)
    ? { ...exchange, request: { ...exchange.request, url: `${base.replace(/\/+$/, '')}${e.request.url}` } }
    : exchange;
}

/**
 * What a source that keeps only some of its exchanges (the proxy) counted of them all, and whether
 * it was stopped with exchanges in flight.
 */
export interface TrafficTally {
  requests: number;
  /** Exchanges that got no complete answer. */
  failures: number;
  /** Set when exchanges were cut in flight: by what (SIGINT, SIGTERM), and which, in words. */
  interrupted?: { by: string; reason: string };
}

export function trafficReport(
  judge: TrafficJudge,
  /** The exchanges the transcripts may show (those the findings name, at least). */
  exchanges: readonly TimedExchange[],
  source: TrafficSource,
  redactor?: Redactor,
  /** Counted as the exchanges came (the proxy); else counted here from `exchanges`. */
  coverage?: Coverage,
  /** Counted as the exchanges came (the proxy); else counted here from `exchanges`. */
  tally?: TrafficTally,
): Report {
  const bySeq = new Map(exchanges.map((e) => [e.seq, e]));
  const results = (Object.keys(TRAFFIC_CHECKS) as CheckName[]).map((name): RuleResult => {
    const facts = declaredFacts(asRule(name));
    const findings = judge.findings.filter((f) => f.check === name);
    if (findings.length) {
      const seqs = [...new Set(findings.flatMap((f) => f.exchanges))].slice(0, MAX_EXCHANGES);
      const first = findings[0];
      const more =
        findings.length > 1 ? ` (and ${findings.length - 1} more finding${findings.length > 2 ? 's' : ''})` : '';
      return {
        ...facts,
        verdict: 'fail',
        reason: `${first.message}${more}`,
        failure: { message: first.message, exchange_seq: first.exchanges[first.exchanges.length - 1] },
        observations: [
          `against the ${TRAFFIC_CHECKS[name].side}`,
          ...findings.slice(0, MAX_LISTED).map((f) => `exchange ${f.exchanges.join(', ')}: ${f.message}`),
          ...(findings.length > MAX_LISTED ? [`… ${findings.length - MAX_LISTED} more`] : []),
        ],
        transcript: seqs
          .map((s) => bySeq.get(s))
          .filter((e): e is Exchange => e !== undefined)
          .map((e) => asTranscript(e, source.origin)),
        duration_ms: 0,
      };
    }
    if (!judge.exercised.has(name))
      return {
        ...facts,
        verdict: 'skip',
        reason: 'nothing in the traffic for this check to judge',
        observations: [],
        transcript: [],
        duration_ms: 0,
      };
    // What the client's checks left to the server: a run's own probes (its HAR says which).
    const spared =
      TRAFFIC_CHECKS[name].side === 'client' && judge.deliberate
        ? [
            `${judge.deliberate} request${judge.deliberate === 1 ? '' : 's'} a run sent with a defect on purpose (_conformance.deliberate) judged against the server only`,
          ]
        : [];
    return { ...facts, verdict: 'pass', observations: spared, transcript: [], duration_ms: 0 };
  });
  const record: RunRecord = {
    tool: { name: 'data-import-conformance', version: packageVersion() },
    run: {
      id: 'traffic',
      seed: 0,
      numRuns: 0,
      concurrency: 0,
      timeoutMs: 0,
      strict: false,
      startedAt: source.startedAt,
      finishedAt: source.finishedAt,
      selection: {},
      bailed: false,
      kind: 'traffic',
    },
    target: { baseUrl: source.label, embedded: false, auth: 'token' },
    results,
    // A check with nothing to judge is no gap of the target: its skip is accepted.
    allowSkip: ['traffic.**'],
    created: { external_account_numbers: [], business_identifiers: [], contract_identifiers: [], other: 0 },
    http: {
      requests: tally?.requests ?? exchanges.length,
      failures: tally?.failures ?? exchanges.filter((e) => !e.response).length,
      token_renewals: 0,
      token_refused_mid_run: 0,
    },
    // Exchanges cut in flight were never judged: the session's verdict cannot be Conformant.
    ...(tally?.interrupted ? { interrupted: tally.interrupted } : {}),
  };
  const report = buildReport(redactor ? redactDeep(record, redactor) : record);
  // The same coverage a run reports, of every exchange judged (not of the findings' transcripts).
  return { ...report, capabilities: capabilities(judge), coverage: coverage ?? coverageOf(exchanges) };
}

/**
 * Per endpoint, the server's checks its exchanges gave something to judge (the matrix is the
 * implementation's): failed where a finding names the endpoint, passed otherwise. An endpoint no
 * answer came from is the only one not checked.
 */
function capabilities(judge: TrafficJudge): Report['capabilities'] {
  return Object.values(model.endpoints).map((e) => {
    const checks = [...(judge.judged.get(e.id) ?? [])].filter((c) => TRAFFIC_CHECKS[c].side === 'server');
    const failed = checks.filter((c) => judge.findings.some((f) => f.check === c && f.endpoint === e.id)).length;
    const counts = { pass: checks.length - failed, fail: failed, error: 0, skip: 0 };
    const status = !checks.length ? 'not checked' : failed ? 'deviates' : 'conforms';
    return { endpoint: e.id, method: e.method, path: e.path, counts, status } as const;
  });
}
