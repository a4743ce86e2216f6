/** Reading and parsing request bodies defensively: size limit, JSON media type, nesting limit. */
import type { IncomingMessage } from 'node:http';
import { LARGE_BODY_BYTES } from '../core/http/large-bodies.js';
import { DepthScan } from '../core/http/json-depth.js';

export type BodyResult =
  /** `tooDeep`: the JSON nesting passed the depth limit (checked as the text arrived). */
  | { kind: 'ok'; text: string; tooDeep: boolean }
  | { kind: 'too_large' }
  | { kind: 'aborted' }
  /** Not UTF-8: refused rather than patched, or two different byte strings could name one account. */
  | { kind: 'not_utf8' };

export interface ReadOptions {
  /** Largest body read; past it reading stops with `too_large`. */
  limit: number;
  /** Deepest JSON nesting let through (scanned as the text arrives: no pass over the whole text later). */
  depth: number;
  /**
   * Called before a large body is read (its declared length, or the size read so far once it passes
   * LARGE_BODY_BYTES): the body is read once it resolves, its bytes left in the socket meanwhile.
   */
  beforeLarge?: (bytes: number) => Promise<void>;
}

/**
 * Reads the body up to `limit` bytes; past it, stops reading and reports `too_large`. The text is
 * decoded chunk by chunk (fatal on invalid UTF-8; a BOM is kept, and JSON.parse refuses it) and its
 * nesting scanned as it arrives, so neither is one long pass that holds up other clients, and no
 * buffer of the whole body is made (a buffer of megabytes comes from malloc, which keeps it resident
 * after it is freed; strings live in the JS heap, which gives it back).
 */
export async function readBody(req: IncomingMessage, options: ReadOptions): Promise<BodyResult> {
  const { limit } = options;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return { kind: 'too_large' };
  let waited = false;
  if (options.beforeLarge && Number.isFinite(declared) && declared > LARGE_BODY_BYTES) {
    await options.beforeLarge(declared);
    waited = true;
  }
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const depth = new DepthScan(options.depth);
  const pieces: string[] = [];
  let utf8 = true;
  let size = 0;
  const decode = (chunk?: Buffer) => {
    if (!utf8) return;
    try {
      const piece = chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
      depth.scan(piece);
      pieces.push(piece);
    } catch {
      utf8 = false;
      pieces.length = 0;
    }
  };
  const ended = await new Promise<'ok' | 'too_large' | 'aborted'>((resolve) => {
    let settled = false;
    const settle = (result: 'ok' | 'too_large' | 'aborted') => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Paused, not destroyed: the 413 still goes out on this connection.
        req.pause();
        settle('too_large');
        return;
      }
      decode(chunk);
      if (!waited && options.beforeLarge && size > LARGE_BODY_BYTES) {
        waited = true;
        req.pause();
        options.beforeLarge(limit).then(() => req.resume());
      }
    };
    req.on('data', onData);
    req.on('end', () => settle('ok'));
    req.on('aborted', () => settle('aborted'));
    req.on('error', () => settle('aborted'));
    req.on('close', () => settle('aborted'));
  });
  if (ended !== 'ok') return { kind: ended };
  decode();
  if (!utf8) return { kind: 'not_utf8' };
  return { kind: 'ok', text: pieces.join(''), tooDeep: depth.exceeded };
}

/** `application/json` or any `application/*+json`, with or without parameters. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}
