/**
 * How deeply a JSON text nests, counted on the text before it is parsed: a file nested thousands of
 * levels parses (V8's parser does not recurse), but every recursive walk of the value afterwards —
 * a schema check, a deep comparison, a key listing — would run out of stack. Linear, no recursion:
 * brackets inside strings do not count.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
}
