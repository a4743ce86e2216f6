/** Reading and parsing request bodies defensively: size limit, JSON media type, nesting limit. */
import type { IncomingMessage } from 'node:http';

export type BodyResult =
  | { kind: 'ok'; text: string }
  | { kind: 'too_large' }
  | { kind: 'aborted' }
  /** Not UTF-8: refused rather than patched, or two different byte strings could name one account. */
  | { kind: 'not_utf8' };

/** Decoding that fails on invalid UTF-8 instead of replacing it with U+FFFD; a BOM is kept (and JSON.parse refuses it). */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decode(chunks: Buffer[]): BodyResult {
  try {
    return { kind: 'ok', text: utf8.decode(Buffer.concat(chunks)) };
  } catch {
    return { kind: 'not_utf8' };
  }
}

/** Reads the body up to `limit` bytes; past it, stops reading and reports `too_large`. */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ kind: 'too_large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyResult) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        settle({ kind: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => settle(decode(chunks)));
    req.on('aborted', () => settle({ kind: 'aborted' }));
    req.on('error', () => settle({ kind: 'aborted' }));
    req.on('close', () => settle({ kind: 'aborted' }));
  });
}

/** `application/json` or any `application/*+json`, with or without parameters. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

/**
 * The deepest nesting of arrays and objects in a JSON text, scanning at most until `limit` is
 * passed. Checked before parsing so a hostile body cannot make later processing recurse deeply.
 */
export function exceedsJsonDepth(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}
