/**
 * How much of a rule's exchanges a report keeps. A failing or errored rule keeps its transcript —
 * the exchange the failure is about and the last two in full, bodies cut at REPORT_BODY_LIMIT with
 * their size said — and a passing or skipped rule keeps one line per exchange (method, path,
 * status, time). That keeps a report of a badly broken target readable and small;
 * `--full-transcripts` keeps everything.
 */
import type { Exchange } from '../http/exchange.js';
import type { Verdict } from '../engine/verdict.js';

export const REPORT_BODY_LIMIT = 2 * 1024;
/** Exchanges of a failing rule kept in full besides the one its failure is about. */
const KEEP_LAST = 2;

function cut(body: string | undefined, truncated: boolean | undefined): { body?: string; body_truncated?: boolean } {
  if (body === undefined) return {};
  if (body.length <= REPORT_BODY_LIMIT) return { body, ...(truncated ? { body_truncated: true } : {}) };
  const size = Buffer.byteLength(body);
  return { body: `${body.slice(0, REPORT_BODY_LIMIT)}… [cut: ${truncated ? 'more than ' : ''}${size} bytes in all]`, body_truncated: true };
}

/** One line's worth: no headers, no bodies. */
function brief(x: Exchange): Exchange {
  return {
    seq: x.seq,
    ...(x.step ? { step: x.step } : {}),
    request: { method: x.request.method, url: x.request.url, headers: {} },
    ...(x.response ? { response: { status: x.response.status, headers: {}, bytes: x.response.bytes } } : {}),
    ...(x.error ? { error: x.error } : {}),
    duration_ms: x.duration_ms,
    brief: true,
  };
}

function kept(x: Exchange): Exchange {
  return {
    ...x,
    request: { ...x.request, ...cut(x.request.body, x.request.body_truncated) },
    ...(x.response ? { response: { ...x.response, ...cut(x.response.body, x.response.body_truncated) } } : {}),
  };
}

export function reportTranscript(exchanges: readonly Exchange[], verdict: Verdict, failureSeq: number | undefined, full: boolean): Exchange[] {
  if (full) return [...exchanges];
  if (verdict === 'pass' || verdict === 'skip') return exchanges.map(brief);
  const from = exchanges.length - KEEP_LAST;
  return exchanges.map((x, i) => (i >= from || x.seq === failureSeq ? kept(x) : brief(x)));
}
