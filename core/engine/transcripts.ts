/**
 * How much of a rule's exchanges a report keeps. A failing or errored rule keeps its transcript —
 * the exchange the failure is about and the last two in full, bodies cut at REPORT_BODY_LIMIT with
 * their size said — and a passing or skipped rule keeps one line per exchange (method, path,
 * status, time). That keeps a report of a badly broken target readable and small;
 * `--full-transcripts` keeps everything.
 *
 * The engine trims a rule's transcript the moment its result is made (execute.ts), so a run holds
 * what its report will show, not every exchange it made; the report (core/report/build.ts) applies
 * the same trim, which leaves a trimmed transcript as it is.
 */
import { detached } from '../http/bounds.js';
import type { Exchange } from '../http/exchange.js';
import { type Verdict, isFailing } from './verdict.js';

export const REPORT_BODY_LIMIT = 2 * 1024;
/**
 * Exchanges a property rule keeps whole while it runs (the client's Transcript compaction): a
 * property makes thousands at nightly scale, and its report keeps the last few and the one its
 * failure is about — which comes from the last case run, the shrunk one.
 */
export const PROPERTY_KEEP_WHOLE = 64;

/** Bodies of the other exchanges a failing rule keeps in full. */
const CONTEXT_BODY_LIMIT = 1024;
/** Exchanges of a failing rule kept in full besides the one its failure is about. */
const KEEP_LAST = 2;
/** One-line exchanges kept per rule (the last ones); a property rule makes hundreds. */
export const MAX_BRIEF = 12;

/** The note a cut body ends with (below), after at most `limit` characters of the body. */
const CUT_MARKER = /… \[cut: (?:more than )?\d+ bytes in all\]$/;

function cut(
  body: string | undefined,
  truncated: boolean | undefined,
  limit: number,
): { body?: string; body_truncated?: boolean } {
  if (body === undefined) return {};
  if (body.length <= limit) return { body, ...(truncated ? { body_truncated: true } : {}) };
  // Already cut to this limit (a transcript trimmed a second time): kept as it is.
  const marker = truncated ? CUT_MARKER.exec(body) : null;
  if (marker && marker.index <= limit) return { body, body_truncated: true };
  const size = Buffer.byteLength(body);
  return {
    body: `${detached(body.slice(0, limit))}… [cut: ${truncated ? 'more than ' : ''}${size} bytes in all]`,
    body_truncated: true,
  };
}

/** One line's worth: no headers, no bodies. */
export function brief(x: Exchange): Exchange {
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

function kept(x: Exchange, limit: number): Exchange {
  return {
    ...x,
    request: { ...x.request, ...cut(x.request.body, x.request.body_truncated, limit) },
    ...(x.response ? { response: { ...x.response, ...cut(x.response.body, x.response.body_truncated, limit) } } : {}),
  };
}

function lastBroken(exchanges: readonly Exchange[]): number | undefined {
  for (let i = exchanges.length - 1; i >= 0; i--) if (exchanges[i].error) return exchanges[i].seq;
  return undefined;
}

/** The exchanges a report keeps of a rule, and how many it leaves out altogether. */
export function reportTranscript(
  exchanges: readonly Exchange[],
  verdict: Verdict,
  failureSeq: number | undefined,
  full: boolean,
): { transcript: Exchange[]; omitted: number } {
  if (full) return { transcript: [...exchanges], omitted: 0 };
  const failing = isFailing(verdict);
  const from = exchanges.length - KEEP_LAST;
  // A rule not judged keeps in full the last exchange that broke (the one its curl shows, and what
  // decides whether it is run again), even when exchanges of other cases in flight came after it.
  const about = failureSeq ?? (verdict === 'error' ? lastBroken(exchanges) : undefined);
  const shown = exchanges.map((x, i) =>
    !failing
      ? brief(x)
      : x.seq === about
        ? kept(x, REPORT_BODY_LIMIT)
        : i >= from
          ? kept(x, CONTEXT_BODY_LIMIT)
          : brief(x),
  );
  // Of the one-line exchanges only the last MAX_BRIEF stay; the full ones always do.
  let briefs = shown.filter((x) => x.brief).length;
  const transcript = shown.filter((x) => !x.brief || briefs-- <= MAX_BRIEF);
  return { transcript, omitted: exchanges.length - transcript.length };
}
