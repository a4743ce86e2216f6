/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) out: the exchanges of a proxy session
 * or a run written so that browser devtools and API clients open them (har-read.ts reads HAR files
 * from devtools, mitmproxy or Charles back as exchanges to judge).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, ftruncateSync, openSync, renameSync, rmSync, writeSync, writevSync } from 'node:fs';
import type { Sender } from '../../core/http/client.js';
import type { Exchange } from '../../core/http/exchange.js';
import { packageVersion } from '../../core/spec/package-root.js';

interface HarHeader {
  name: string;
  value: string;
}

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: HarHeader[];
    queryString: HarHeader[];
    cookies: unknown[];
    headersSize: number;
    bodySize: number;
    postData?: { mimeType: string; text: string };
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: HarHeader[];
    cookies: unknown[];
    content: { size: number; mimeType: string; text?: string; encoding?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    _error?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  comment?: string;
  /** HAR's room for custom fields (`_` names): the rule that sent the exchange, and what it broke on purpose. */
  _conformance?: Sender;
}

/** An exchange with the time it started, as the proxy records it. */
export interface TimedExchange extends Exchange {
  startedAt?: Date;
  /** The origin a HAR entry's URL named (its `request.url` keeps only the path). */
  origin?: string;
  /** The rule of a run that sent it, and what the request breaks on purpose (a HAR entry's `_conformance`). */
  sentBy?: Sender;
}

const pairs = (headers: Record<string, string>): HarHeader[] =>
  Object.entries(headers).map(([name, value]) => ({ name, value }));

/** One exchange as a HAR entry; `origin` makes its URL absolute. */
export function harEntry(e: TimedExchange, origin: string): HarEntry {
  const base = origin.replace(/\/+$/, '');
  const url = /^https?:\/\//i.test(e.request.url) ? e.request.url : `${base}${e.request.url}`;
  const query = new URL(url).searchParams;
  const body = e.response?.body;
  return {
    startedDateTime: (e.startedAt ?? new Date(0)).toISOString(),
    time: e.duration_ms,
    request: {
      method: e.request.method,
      url,
      httpVersion: 'HTTP/1.1',
      headers: pairs(e.request.headers),
      queryString: [...query].map(([name, value]) => ({ name, value })),
      cookies: [],
      headersSize: -1,
      bodySize: e.request.body === undefined ? 0 : Buffer.byteLength(e.request.body),
      ...(e.request.body !== undefined
        ? { postData: { mimeType: e.request.headers['content-type'] ?? 'application/json', text: e.request.body } }
        : {}),
    },
    response: {
      // HAR writes a request that got no response as status 0 (as browsers do).
      status: e.response?.status ?? 0,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      headers: pairs(e.response?.headers ?? {}),
      cookies: [],
      content: {
        size: e.response?.bytes ?? 0,
        mimeType: e.response?.headers['content-type'] ?? '',
        ...(body !== undefined ? { text: body } : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: e.response?.bytes ?? -1,
      ...(e.error ? { _error: `${e.error.kind}: ${e.error.message}` } : {}),
    },
    cache: {},
    timings: { send: 0, wait: e.duration_ms, receive: 0 },
    ...(e.sentBy
      ? {
          ...(e.sentBy.deliberate
            ? {
                comment: `sent on purpose by ${e.sentBy.rule}: ${e.sentBy.deliberate} (judged against the server only)`,
              }
            : {}),
          _conformance: e.sentBy,
        }
      : {}),
  };
}

const creator = () => ({ name: 'data-import-conformance', version: packageVersion() });

/** The exchanges as a HAR document; `origin` makes their URLs absolute. */
export function toHar(exchanges: readonly TimedExchange[], origin: string): string {
  const entries = exchanges.map((e) => harEntry(e, origin));
  return `${JSON.stringify({ log: { version: '1.2', creator: creator(), entries } }, null, 2)}\n`;
}

/** What ends the document: written after every entry, so the file is a whole HAR whenever it is read. */
const TRAILER = '\n]}}\n';

/**
 * A HAR file written as exchanges complete, so a run of any length keeps none of them in memory.
 * The file is a complete HAR document after every entry, whenever the process is cut (a signal, a
 * kill): each entry is written over the closing brackets, with the closing brackets after it, in
 * one positional write. It is made like the reports (reports/index.ts): a new file beside the
 * target, renamed into place when opened, so whatever stood at the name (a symlink someone planted)
 * is replaced, never followed; the entries then go through the open descriptor. Each entry passes
 * through `redact` (the run's redactor, the last pass every report gets too) before it is written.
 * A write that fails (a full disk) stops the recording and is reported by `close()`, never by the
 * run's rules; the entries written before it still form a whole document.
 */
export class HarWriter {
  private fd: number | undefined;
  private count = 0;
  /** Where a body goes in an entry's text: random, so no exchange can hold it. */
  private readonly mark = `@har-body-${randomBytes(8).toString('hex')}-`;
  private failure: string | undefined;
  /** Where the closing brackets start: the next entry is written here. */
  private end: number;

  constructor(
    readonly file: string,
    private readonly redact: (text: string) => string = (t) => t,
  ) {
    const head = `{"log":{"version":"1.2","creator":${JSON.stringify(creator())},"entries":[`;
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    // `wx`: the temporary name must not exist yet, so it cannot be a link either.
    const fd = openSync(temporary, 'wx', 0o644);
    try {
      writeSync(fd, `${head}${TRAILER}`);
      renameSync(temporary, file);
    } catch (error) {
      closeSync(fd);
      rmSync(temporary, { force: true });
      throw error;
    }
    this.fd = fd;
    this.end = Buffer.byteLength(head);
  }

  /** Entries written so far. */
  get entries(): number {
    return this.count;
  }

  /** Writes one exchange; `origin` makes its URL absolute. */
  add(exchange: TimedExchange, origin: string): void {
    if (this.fd === undefined || this.failure !== undefined) return;
    const parts = this.pieces(harEntry(exchange, origin));
    const size = parts.reduce((n, b) => n + b.length, 0);
    try {
      // One positional write of every piece (pwritev), as one buffer was written before: the file is a
      // whole document before it and after it. What a short write left is written from where it stopped.
      let done = writevSync(this.fd, parts, this.end);
      if (done < size) {
        const rest = Buffer.concat(parts).subarray(done);
        for (let at = 0; at < rest.length; ) at += writeSync(this.fd, rest, at, rest.length - at, this.end + done + at);
        done = size;
      }
    } catch (error) {
      this.failure = `${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
      // Part of the entry may have gone over the closing brackets: put them back where they were
      // (bytes the file already had, so a full disk allows it) and cut what followed.
      try {
        writeSync(this.fd, TRAILER, this.end);
        ftruncateSync(this.fd, this.end + TRAILER.length);
      } catch {
        // Nothing more to do: close() reports the failure.
      }
      return;
    }
    this.end += size - TRAILER.length;
    this.count++;
  }

  /**
   * The entry as buffers to write: its two bodies, the bulk of a large exchange, are serialised and
   * redacted each on its own, so no string as large as both is ever made (a 15 MiB exchange each
   * way used to pass through four copies of the whole entry). A body sits between quotes, so no
   * secret spans a body and the text around it, and each piece gets the same redaction the whole
   * entry got. The bodies leave marks in the rest of the entry, unique to this writer, where they go.
   */
  private pieces(entry: HarEntry): Buffer[] {
    const comma = this.count ? ',' : '';
    const bodies: string[] = [];
    const mark = (text: string) => `${this.mark}${bodies.push(text) - 1}`;
    const { postData } = entry.request;
    const { content } = entry.response;
    const marked: HarEntry = {
      ...entry,
      request: { ...entry.request, ...(postData && { postData: { ...postData, text: mark(postData.text) } }) },
      response: {
        ...entry.response,
        content: { ...content, ...(content.text !== undefined && { text: mark(content.text) }) },
      },
    };
    const rest = this.redact(JSON.stringify(marked));
    const parts = [Buffer.from(`${comma}\n`)];
    let at = 0;
    for (const [i, body] of bodies.entries()) {
      const quoted = `"${this.mark}${i}"`;
      const where = rest.indexOf(quoted, at);
      // A mark the redactor changed (no secret can be one, but were it so): the entry goes whole.
      if (where < 0) return [Buffer.from(`${comma}\n${this.redact(JSON.stringify(entry))}${TRAILER}`)];
      parts.push(Buffer.from(rest.slice(at, where)), Buffer.from(this.redact(JSON.stringify(body))));
      at = where + quoted.length;
    }
    parts.push(Buffer.from(`${rest.slice(at)}${TRAILER}`));
    return parts;
  }

  /** Closes the file (already a whole document); returns why the recording stopped early, if it did. */
  close(): string | undefined {
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch (error) {
        this.failure ??= (error as Error).message;
      }
      this.fd = undefined;
    }
    return this.failure;
  }
}
