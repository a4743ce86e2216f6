/**
 * What reaches a terminal (docs/design.md §6): target text is data, never terminal control. Two
 * layers: each value that came from a target is shown with its control characters written out
 * (`shown`, newlines too, so it cannot forge a line of its own), and every line the console writes
 * passes `terminalSafe` last, which lets through only the colour sequences chalk makes (SGR) and
 * the newlines of the layout, so a value a call site forgot still cannot move the cursor, set the
 * title, write the clipboard (OSC 52) or open a link (OSC 8).
 */
import { capText, showControls } from '../core/http/bounds.js';

/** A value from a target (a reason, an answer, a URL) for one line of the console: controls written out, bounded. */
export const shown = (text: string, limit = 2 * 1024): string => showControls(capText(text, limit));

/** Chalk's colour sequences (CSI … m) and nothing else. */
const SGR = /(\u001b\[[0-9;]*m)/;

/** The last pass over console text: colours and line breaks kept, every other control written out. */
export function terminalSafe(text: string): string {
  return text
    .split(SGR)
    .map((part, i) => (i % 2 === 1 ? part : showControls(part, true)))
    .join('');
}

/** Text for one line of a given width: whitespace runs made one space, cut with `…` past `width` characters. */
export function clipLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= width ? flat : `${flat.slice(0, Math.max(1, width - 1))}…`;
}
