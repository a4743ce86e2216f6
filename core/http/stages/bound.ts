/**
 * The bound stage: an answer's body read whole within the exchange's bounds — the deadline (a body
 * that drips forever never pauses long enough for undici's bodyTimeout), the response size cap
 * (undici's maxResponseSize, set on the pool) and the run's large-body budget (large-bodies.ts) —
 * decoded as undici's `text()` decodes it.
 */
import { StringDecoder } from 'node:string_decoder';
import type { Dispatcher } from 'undici';
import { LARGE_BODY_BYTES, type LargeBodyBudget, type Release } from '../large-bodies.js';

/** The whole body did not arrive in time (undici's own timeouts only bound the pauses). */
export class DeadlineExceeded extends Error {}

/**
 * Reads a whole body within what is left of `timeoutMs` since `started`: a body that drips forever
 * never pauses long enough for undici's bodyTimeout, so one more timer bounds it.
 */
export async function readWithin(
  body: Dispatcher.ResponseData['body'],
  timeoutMs: number,
  started: number,
): Promise<string> {
  const deadline = setTimeout(
    () => body.destroy(new DeadlineExceeded()),
    Math.max(1, timeoutMs - (performance.now() - started)),
  );
  try {
    return await body.text();
  } finally {
    clearTimeout(deadline);
  }
}

/** A body read whole, with the share of the large-body budget it holds (until the exchange is recorded) and how long it waited for it. */
export interface AnswerRead {
  text: string;
  release?: Release;
  waitedMs: number;
}

/** What bounds the read of one body: the deadline counts from `started`, a large one waits for `budget`. */
export interface ReadBounds {
  timeoutMs: number;
  started: number;
  budget: LargeBodyBudget;
  /** The body's declared length (NaN when it declared none). */
  declared: number;
  cap: number;
}

/**
 * Reads a whole body as readWithin does (within what is left of `timeoutMs` since `started`, decoded
 * as undici's `text()` decodes: UTF-8, a leading BOM skipped), but a body larger than
 * LARGE_BODY_BYTES first takes its share of `budget`: its declared length, or the response cap when
 * it declared none and grew past the threshold. Waiting for it is the runner's own time, so it does
 * not count against the deadline; the bytes wait in the socket meanwhile (undici pauses it, and a
 * paused body does not time out).
 */
export function readAnswer(body: Dispatcher.ResponseData['body'], options: ReadBounds): Promise<AnswerRead> {
  return readBounded(body, options, (text, release, waitedMs) => ({
    text,
    ...(release ? { release } : {}),
    waitedMs,
  }));
}

/**
 * readAnswer's work, its result made by `done` as the read ends: the bound stage builds its answer
 * there rather than awaiting a read of its own (one async step less per request), and whatever
 * `done` throws gives the share back like any failure of the read.
 */
async function readBounded<T>(
  body: Dispatcher.ResponseData['body'],
  options: ReadBounds,
  done: (text: string, release: Release | undefined, waitedMs: number) => T,
): Promise<T> {
  const { timeoutMs, started, budget, declared, cap } = options;
  let waitedMs = 0;
  let release: Release | undefined;
  let deadline: NodeJS.Timeout | undefined;
  const arm = () => {
    const left = timeoutMs - (performance.now() - started - waitedMs);
    deadline = setTimeout(() => body.destroy(new DeadlineExceeded()), Math.max(1, left));
  };
  const take = async (bytes: number) => {
    clearTimeout(deadline);
    const from = performance.now();
    release = await budget.take(bytes);
    waitedMs += performance.now() - from;
    arm();
  };
  try {
    if (Number.isFinite(declared) && declared > LARGE_BODY_BYTES) await take(declared);
    else arm();
    const text = new BodyText();
    for await (const chunk of body) {
      text.add(chunk as Buffer);
      if (!release && text.size > LARGE_BODY_BYTES) await take(Math.max(text.size, cap));
    }
    return done(text.end(), release, waitedMs);
  } catch (error) {
    release?.();
    throw error;
  } finally {
    clearTimeout(deadline);
  }
}

/**
 * A body's text, decoded as undici's `text()` decodes it (UTF-8, a leading BOM skipped). A large body
 * is decoded chunk by chunk into the JS heap rather than joined into one buffer first: a buffer of
 * many megabytes comes from malloc, and once freed it raises glibc's mmap threshold, so the next big
 * buffers stay in its arenas and the process keeps them resident long after they are garbage
 * (measured: some 300 MB of a 550 MB peak against 15 MiB answers). The JS heap gives its pages back.
 */
class BodyText {
  size = 0;
  private chunks: Buffer[] = [];
  private decoder?: StringDecoder;
  private pieces: string[] = [];

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.decoder) this.pieces.push(this.decoder.write(chunk));
    else {
      this.chunks.push(chunk);
      if (this.size > LARGE_BODY_BYTES) {
        this.decoder = new StringDecoder('utf8');
        for (const c of this.chunks) this.pieces.push(this.decoder.write(c));
        this.chunks = [];
      }
    }
  }

  end(): string {
    if (!this.decoder) {
      const buffer = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
      const bom = this.size > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
      return buffer.toString('utf8', bom ? 3 : 0);
    }
    this.pieces.push(this.decoder.end());
    // U+FEFF first can only be the bytes EF BB BF: the BOM undici's text() skips.
    if (this.pieces[0]?.startsWith('\uFEFF')) this.pieces[0] = this.pieces[0].slice(1);
    const text = this.pieces.join('');
    this.pieces = [];
    return text;
  }
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** An answer read whole: what the record stage records and the rule reads. */
export interface Answer extends AnswerRead {
  status: number;
  /** Lower-case names, repeated headers joined (flattenHeaders). */
  headers: Record<string, string>;
}

/** What bounds the read of one answer. */
export interface AnswerBounds {
  timeoutMs: number;
  /** performance.now() when the request departed (pace.ts): the deadline counts from there. */
  started: number;
  budget: LargeBodyBudget;
  /** The response size cap: a body that declared no length takes this much of the budget once it grows large. */
  cap: number;
}

/**
 * Reads the answer's body within `bounds`. A body that took a share of the large-body budget is
 * charged to `holder` (the rule's transcript), so the run starts no other rule while it may keep what
 * it parsed (core/engine/run.ts). The share is the caller's to give back once the exchange is
 * recorded (`release`). Failures are thrown as they come: DeadlineExceeded past the deadline,
 * undici's ResponseExceededMaxSizeError past the cap, a socket error on a reset; a share taken before
 * the failure is given back first. The objects are written out field by field: spreading them cost
 * the client some 8% of its CPU per request (measured against a target in another process).
 */
export function bound(
  res: Dispatcher.ResponseData,
  bounds: AnswerBounds,
  holder: { largeBodies: number },
): Promise<Answer> {
  const read: ReadBounds = {
    timeoutMs: bounds.timeoutMs,
    started: bounds.started,
    budget: bounds.budget,
    declared: Number(res.headers['content-length']),
    cap: bounds.cap,
  };
  return readBounded(res.body, read, (text, release, waitedMs) => {
    if (release) holder.largeBodies++;
    return { status: res.statusCode, headers: flattenHeaders(res.headers), text, release, waitedMs };
  });
}
