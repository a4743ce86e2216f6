/**
 * HAR 1.2 read back (http://www.softwareishard.com/blog/har-12-spec/): a file from browser
 * devtools, mitmproxy, Charles or `--har`, as exchanges to judge. The file is input like any other:
 * every field the exchanges are built from is checked first, and the first one that is wrong is
 * named with its path (`log.entries[3].request.headers: expected an array`), never a TypeError.
 */
import { z } from 'zod';
import type { TimedExchange } from './har.js';

/** A HAR file that cannot be read: what is wrong with it, for a usage error. */
export class HarError extends Error {}

const Header = z.looseObject({ name: z.string(), value: z.string() });

/** Only the fields the exchanges are built from; HAR's others (cookies, timings, cache…) are not read. */
const Entry = z.looseObject({
  startedDateTime: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected a date-time'),
  time: z.number().optional(),
  request: z.looseObject({
    method: z.string().min(1, 'expected a method'),
    url: z.string().refine((s) => URL.canParse(s), 'expected an absolute URL'),
    headers: z.array(Header).optional(),
    postData: z.looseObject({ text: z.string().optional() }).optional(),
  }),
  response: z
    .looseObject({
      status: z.number(),
      headers: z.array(Header).optional(),
      content: z.looseObject({ text: z.string().optional(), encoding: z.string().optional() }).optional(),
      _error: z.string().optional(),
    })
    .optional(),
  // Written by a run's --har (har.ts): the rule that sent the exchange, and what it broke on purpose.
  _conformance: z.looseObject({ rule: z.string(), deliberate: z.string().optional() }).optional(),
});
type Entry = z.output<typeof Entry>;

const ARTICLE: Record<string, string> = { array: 'an array', object: 'an object', int: 'an integer' };

/** One zod issue as `path: what was expected`, the path in the file's own terms. */
function said(issue: z.core.$ZodIssue, at: (string | number)[]): string {
  const path = [...at, ...issue.path]
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`))
    .join('');
  const what =
    issue.code === 'invalid_type'
      ? `expected ${ARTICLE[issue.expected] ?? `a ${issue.expected}`}${issue.input === undefined ? ' (missing)' : ''}`
      : issue.message;
  return `${path}: ${what}`;
}

/** A status a response can have: an integer of 100–599. Anything else is not a response. */
const isStatus = (n: number) => Number.isInteger(n) && n >= 100 && n <= 599;

const headersOf = (list: readonly { name: string; value: string }[] | undefined): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (const h of list ?? []) headers[h.name.toLowerCase()] = h.value;
  return headers;
};

/** The response, or why the entry has none: status 0 is a request that got no answer (as browsers write it). */
function answerOf(entry: Entry): Pick<TimedExchange, 'response' | 'error'> {
  const response = entry.response;
  const status = response?.status ?? 0;
  if (!response || !isStatus(status)) {
    const why =
      status === 0
        ? (response?._error ?? 'no response recorded')
        : `malformed response: status ${status} is not an HTTP status (an integer of 100-599)`;
    return { error: { kind: 'other', message: why } };
  }
  // Devtools and mitmproxy write binary-looking bodies base64-encoded (HAR 1.2 `encoding`).
  const content = response.content;
  const body =
    content?.text !== undefined && content.encoding === 'base64'
      ? Buffer.from(content.text, 'base64').toString('utf8')
      : content?.text;
  return {
    response: {
      status,
      headers: headersOf(response.headers),
      ...(body !== undefined ? { body } : {}),
      bytes: body === undefined ? 0 : Buffer.byteLength(body),
    },
  };
}

/**
 * The exchanges of a HAR document, in the order they started. URLs keep their path from the
 * interface's `/v1/` prefix on, so a service mounted under a base path is judged all the same.
 */
export function fromHar(text: string): { exchanges: TimedExchange[]; origins: string[] } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new HarError(`not JSON: ${(error as Error).message}`);
  }
  return fromHarDocument(doc);
}

/** The same, of a HAR already parsed (a reader that needs more of the document than the exchanges parses it once). */
export function fromHarDocument(doc: unknown): { exchanges: TimedExchange[]; origins: string[] } {
  const entries = (doc as { log?: { entries?: unknown } } | null)?.log?.entries;
  if (!Array.isArray(entries)) throw new HarError('log.entries: expected an array (not a HAR 1.2 file)');
  const read: { entry: Entry; at: number; i: number }[] = [];
  for (const [i, raw] of entries.entries()) {
    const parsed = Entry.safeParse(raw, { reportInput: true });
    if (!parsed.success) throw new HarError(said(parsed.error.issues[0], ['log', 'entries', i]));
    read.push({ entry: parsed.data, at: Date.parse(parsed.data.startedDateTime), i });
  }
  read.sort((a, b) => a.at - b.at || a.i - b.i);
  const origins = new Set<string>();
  const exchanges = read.map(({ entry, at }, i): TimedExchange => {
    const url = new URL(entry.request.url);
    origins.add(url.origin);
    const full = `${url.pathname}${url.search}`;
    const v1 = full.indexOf('/v1/');
    const body = entry.request.postData?.text;
    return {
      seq: i + 1,
      request: {
        method: entry.request.method.toUpperCase(),
        url: v1 >= 0 ? full.slice(v1) : full,
        headers: headersOf(entry.request.headers),
        ...(body !== undefined ? { body } : {}),
      },
      ...answerOf(entry),
      duration_ms: entry.time !== undefined && Number.isFinite(entry.time) && entry.time > 0 ? entry.time : 0,
      startedAt: new Date(at),
      origin: url.origin,
      ...(entry._conformance
        ? {
            sentBy: {
              rule: entry._conformance.rule,
              ...(entry._conformance.deliberate !== undefined ? { deliberate: entry._conformance.deliberate } : {}),
            },
          }
        : {}),
    };
  });
  return { exchanges, origins: [...origins] };
}
