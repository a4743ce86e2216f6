/**
 * Text and paths as SARIF 2.1.0 must carry them.
 *
 * A plain text message may embed links, `[text](destination)` (SARIF §3.11.6), which viewers such
 * as GitHub's code scanning render as links: target text quoted in a message would otherwise put a
 * link of the target's choosing in front of whoever reads the alert. In the embedded-link grammar
 * `\`, `[` and `]` are the escaped link characters, each written after a backslash; every one of them
 * is escaped here, wherever it stands, so no `[…](…)` survives and a reader that undoes the escapes
 * (`\\` → `\`, `\[` → `[`, `\]` → `]`) gets the text back exactly.
 *
 * An `artifactLocation.uri` is a URI reference (RFC 3986): a path with a space, `#`, `%` or `?`
 * written as it is is not one, or names another file (`#` starts a fragment).
 */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { showControlChars } from './plain-text.js';

/** Link syntax escaped: `[text](https://…)` becomes `\[text\](https://…)`, a backslash `\\`. */
export function escapeLinks(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`);
}

/** Text for a SARIF message: control characters written out (as every report writes them), then link syntax escaped. */
export function sarifText(text: string): string {
  return escapeLinks(showControlChars(text));
}

/**
 * A file path as a URI reference: an absolute path as a `file:` URL, a relative one as a relative
 * reference, each segment percent-encoded (UTF-8), so `my baselines/known#1.yaml` is
 * `my%20baselines/known%231.yaml`.
 */
export function uriReference(path: string): string {
  if (isAbsolute(path)) return pathToFileURL(path).href;
  return path
    .split(process.platform === 'win32' ? /[\\/]/ : '/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}
