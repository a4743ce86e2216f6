/**
 * The action's `args` input split into words the way a POSIX shell splits a command line, without
 * anything else a shell does: no variables, no globs, no command substitution — `$HOME` stays
 * `$HOME`. What the workflow wants expanded, it expands in `${{ … }}` before the action sees it.
 *
 * - spaces, tabs and newlines separate words (so one argument per line works too);
 * - '…' keeps everything inside as it is;
 * - "…" keeps everything inside, except that a backslash before ", \, $ or ` stands for that character;
 * - outside quotes a backslash keeps the next character (a backslash before a newline joins lines);
 * - an unclosed quote or a trailing backslash is an error, never a guess.
 */

export class ShellWordsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShellWordsError';
  }
}

const SPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPED_IN_DOUBLE = new Set(['"', '\\', '$', '`']);

export function shellWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (SPACE.has(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new ShellWordsError(`a ' quote opened at character ${i + 1} is never closed`);
      word += text.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new ShellWordsError('a " quote is never closed');
        const d = text[i];
        if (d === '"') break;
        if (d === '\\' && i + 1 < text.length && ESCAPED_IN_DOUBLE.has(text[i + 1])) {
          word += text[i + 1];
          i += 2;
        } else if (d === '\\' && text[i + 1] === '\n') {
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
      inWord = true;
      i++;
    } else if (c === '\\') {
      if (i + 1 >= text.length) throw new ShellWordsError('a backslash ends the text: it escapes nothing');
      if (text[i + 1] === '\n') {
        i += 2; // a line continuation, as in a shell
      } else {
        word += text[i + 1];
        inWord = true;
        i += 2;
      }
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}
