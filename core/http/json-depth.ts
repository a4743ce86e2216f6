/**
 * How deep a JSON text nests arrays and objects, found without parsing it: checked before a parse so
 * a hostile body cannot make the parse, or what reads its value after, go deep. One scan for both
 * sides: the reference server feeds a request body in the pieces it arrives in, the runner an answer
 * whole (core/http/shared-body.ts).
 */

/**
 * The nesting of a JSON text fed in pieces: whether it ever passes `limit`. Strings, most of a
 * body's bytes, are skipped to their next quote or backslash by indexOf; both positions are kept
 * until passed, so a piece is read once however its strings and escapes fall.
 */
export class DepthScan {
  exceeded = false;
  private depth = 0;
  private inString = false;
  /** The last piece ended inside a string on a backslash: the next character is escaped. */
  private escaped = false;

  constructor(private readonly limit: number) {}

  scan(text: string): void {
    if (this.exceeded || text.length === 0) return;
    let i = 0;
    if (this.escaped) {
      this.escaped = false;
      i = 1;
    }
    // The next quote and backslash at or after i (-1: none left in this piece; -2: not looked for yet).
    let quote = -2;
    let slash = -2;
    while (i < text.length) {
      if (this.inString) {
        if (quote !== -1 && quote < i) quote = text.indexOf('"', i);
        if (slash !== -1 && slash < i) slash = text.indexOf('\\', i);
        if (slash !== -1 && (quote === -1 || slash < quote)) {
          // An escape: the character after the backslash is part of the string, whatever it is.
          i = slash + 2;
          if (i > text.length) this.escaped = true;
        } else if (quote === -1)
          return; // the string goes on in the next piece
        else {
          this.inString = false;
          i = quote + 1;
        }
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === 34 /* " */) this.inString = true;
      else if (c === 123 /* { */ || c === 91 /* [ */) {
        if (++this.depth > this.limit) {
          this.exceeded = true;
          return;
        }
      } else if (c === 125 /* } */ || c === 93 /* ] */) this.depth--;
      i++;
    }
  }
}

/** Whether a whole JSON text nests deeper than `limit`. */
export function exceedsJsonDepth(text: string, limit: number): boolean {
  // Each level takes an opening character: a shorter text cannot be deeper.
  if (text.length <= limit) return false;
  const scan = new DepthScan(limit);
  scan.scan(text);
  return scan.exceeded;
}
