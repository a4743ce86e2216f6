/**
 * Finds registered secrets in a text, in any spelling a report, a JSON body or a URL may carry them,
 * in one pass whose cost does not grow with the number of secrets: the secrets form one trie of
 * characters, and at each position of the text the characters that may be spelled there are decoded
 * (as written; a JSON `\uXXXX` escape behind any number of backslashes, since a body quoted again in
 * report.json doubles them; `\"` and `\/`; percent-encoded UTF-8 in either case; `+` for a space;
 * an HTML entity) and followed down the trie. A proxy that has seen a thousand tokens scans each
 * text as fast as one that has seen one (a single expression of every spelling of every secret had
 * to be rebuilt on each new secret, and matched in time proportional to their number).
 */

interface Node {
  readonly next: Map<string, Node>;
  /** A secret ends here. */
  end: boolean;
}

const newNode = (): Node => ({ next: new Map(), end: false });

/** The named entities HTML and XML writers use for the characters they escape. */
const ENTITIES: ReadonlyArray<readonly [entity: string, char: string]> = [
  ['&amp;', '&'],
  ['&lt;', '<'],
  ['&gt;', '>'],
  ['&quot;', '"'],
  ['&#34;', '"'],
  ['&#x22;', '"'],
  ['&#39;', "'"],
  ['&#x27;', "'"],
  ['&apos;', "'"],
];

const BACKSLASH = 0x5c;

function hexValue(text: string, at: number, digits: number): number {
  if (at + digits > text.length) return -1;
  let value = 0;
  for (let i = at; i < at + digits; i++) {
    const c = text.charCodeAt(i);
    const d =
      c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
    if (d < 0) return -1;
    value = value * 16 + d;
  }
  return value;
}

/** Code units that begin a spelling other than the character as written (see `spelled`): \ % + &. */
const ESCAPE_UNITS = [BACKSLASH, 0x25, 0x2b, 0x26] as const;
// Compared one by one, not with ESCAPE_UNITS.includes: it runs at every candidate and every trie step,
// and includes made redacting 16 MB of escape-rich JSON 13% slower.
const isEscape = (u: number) => u === BACKSLASH || u === 0x25 || u === 0x2b || u === 0x26;

/** Secrets few enough to be searched for one by one as written (`written`): a run has a handful. */
const FEW = 32;

const isHigh = (u: number) => u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number) => u >= 0xdc00 && u <= 0xdfff;

export class SecretMatcher {
  private readonly root = newNode();
  /**
   * Code units a match can begin with: 2 where a secret's first character is written so, 1 where
   * only an escape of one begins; a text position starting with any other is passed over at once.
   */
  private readonly starts = new Uint8Array(0x10000);
  private count = 0;
  /**
   * The code units of `starts` as one character class: the text is searched for the next of them
   * natively, not a unit at a time. Built again only when a code unit is added, at most once per
   * distinct unit, so its cost never grows with the number of secrets.
   */
  private startPattern?: RegExp;
  /**
   * Code units that may follow a secret's first character as written: its second character's
   * first unit, or an escape beginning. A candidate followed by none of them is passed over without
   * a walk of the trie (most candidates are ordinary letters in ordinary text). Unused (`oneUnit`)
   * once a secret of one code unit is registered.
   */
  private readonly seconds = new Uint8Array(0x10000);
  private oneUnit = false;
  /** The backslash run last measured (texts quoted again are long runs of them: measured once each). */
  private runStart = -1;
  private runEnd = -1;
  private runText = '';
  /** What `spelled` found: character, end, character, end… (reused: this runs for every candidate position). */
  private readonly spellings: (string | number)[] = [];
  /**
   * The secrets as written, while they are few (`FEW`): a text with no escape in it (`firstEscape`)
   * can spell a secret only as written, and the engine's own substring search finds that many times
   * faster than a walk of the trie at every candidate (a run's bodies are megabytes of JSON with no
   * backslash or percent sign in them). Undefined once there are more.
   */
  private written: string[] | undefined = [];
  /** Whether a `+` or an `&` may spell a character of a secret (a space; a character HTML escapes). */
  private plusSpells = false;
  private entitySpells = false;
  /** The text last measured by `firstEscape`, from where, and where its first escape unit is (-1: none). */
  private escapeText = '';
  private escapeFrom = 0;
  private escapeAt = -1;

  get size(): number {
    return this.count;
  }

  /** Registers a secret, character by character (a character is a code point). */
  add(secret: string): void {
    let node = this.root;
    for (const char of secret) {
      let next = node.next.get(char);
      if (!next) node.next.set(char, (next = newNode()));
      node = next;
    }
    if (node.end || node === this.root) return;
    node.end = true;
    this.count++;
    this.written = this.written && this.count <= FEW ? [...this.written, secret] : undefined;
    if (secret.includes(' ')) this.plusSpells = true;
    if (ENTITIES.some(([, c]) => secret.includes(c))) this.entitySpells = true;
    // What was measured of the last text counted the escapes of the secrets then known.
    this.escapeText = '';
    const first = [...secret][0];
    this.mayStart(first.charCodeAt(0), 2);
    // The unit after the first as written: the second character's, or a surrogate pair's second half.
    if (secret.length === 1) this.oneUnit = true;
    else this.seconds[secret.charCodeAt(1)] = 1;
    for (const unit of ESCAPE_UNITS) this.seconds[unit] = 1;
    this.mayStart(BACKSLASH, 1); // \uXXXX
    this.mayStart(0x25, 1); // %XX
    if (first === ' ') this.mayStart(0x2b, 1); // +
    if (ENTITIES.some(([, c]) => c === first)) this.mayStart(0x26, 1); // &
  }

  private mayStart(unit: number, how: 1 | 2): void {
    if (this.starts[unit] >= how) return;
    if (this.starts[unit] === 0) this.startPattern = undefined;
    this.starts[unit] = how;
  }

  private buildStartPattern(): RegExp {
    let units = '';
    for (let unit = 0; unit < this.starts.length; unit++)
      if (this.starts[unit] !== 0) units += `\\u${unit.toString(16).padStart(4, '0')}`;
    return new RegExp(`[${units}]`, 'g');
  }

  /** The first secret at or after `from`: its start and end (the longest there), or undefined. */
  find(text: string, from = 0): [start: number, end: number] | undefined {
    if (this.count === 0) return undefined;
    if (this.written && this.firstEscape(text, from) < 0) return this.findWritten(text, from);
    const candidates = (this.startPattern ??= this.buildStartPattern());
    candidates.lastIndex = from;
    // `test` moves lastIndex past the one code unit it matched, and allocates nothing.
    while (candidates.test(text)) {
      const p = candidates.lastIndex - 1;
      const unit = text.charCodeAt(p);
      // JSON quoted again is full of `\"`, and URLs of `%XX`: only an escape that can spell a
      // secret's first character is worth following.
      if (unit === BACKSLASH && this.starts[BACKSLASH] === 1 && !this.escapeMayStart(text, p)) continue;
      if (!this.oneUnit && !isEscape(unit) && this.seconds[text.charCodeAt(p + 1)] === 0) continue;
      const end = this.longestAt(text, p);
      if (end > p) return [p, end];
    }
    return undefined;
  }

  /**
   * Where the first unit of `text` at or after `from` that may begin an escaped spelling is, or -1.
   * A search per unit (memchr-fast in the engine), remembered for the text: `replace` asks again
   * from each match on, and what lies between is known to hold none.
   */
  private firstEscape(text: string, from: number): number {
    if (text === this.escapeText && from >= this.escapeFrom && (this.escapeAt < 0 || this.escapeAt >= from))
      return this.escapeAt;
    const first = (unit: string) => {
      const at = text.indexOf(unit, from);
      return at < 0 ? Number.POSITIVE_INFINITY : at;
    };
    const at = Math.min(
      first('\\'),
      first('%'),
      this.plusSpells ? first('+') : Number.POSITIVE_INFINITY,
      this.entitySpells ? first('&') : Number.POSITIVE_INFINITY,
    );
    this.escapeText = text;
    this.escapeFrom = from;
    this.escapeAt = at === Number.POSITIVE_INFINITY ? -1 : at;
    return this.escapeAt;
  }

  /** `find` where every secret can only be spelled as written: the first start, the longest there. */
  private findWritten(text: string, from: number): [start: number, end: number] | undefined {
    let start = -1;
    let end = -1;
    for (const secret of this.written!) {
      const at = text.indexOf(secret, from);
      if (at < 0) continue;
      if (start < 0 || at < start || (at === start && at + secret.length > end)) {
        start = at;
        end = at + secret.length;
      }
    }
    return start < 0 ? undefined : [start, end];
  }

  /** `text` with every secret replaced by `mask`. */
  replace(text: string, mask: string): string {
    let match = this.find(text);
    if (!match) return text;
    let out = '';
    let last = 0;
    while (match) {
      out += text.slice(last, match[0]) + mask;
      last = match[1];
      match = this.find(text, last);
    }
    return out + text.slice(last);
  }

  /** The end of the longest secret spelled from `start`, or -1. */
  private longestAt(text: string, start: number): number {
    // Most text spells characters only as written: walk down the trie directly until a character
    // that may begin another spelling, and search every spelling only from there.
    let node = this.root;
    let at = start;
    let best = -1;
    for (;;) {
      const unit = text.charCodeAt(at);
      if (isEscape(unit) || isHigh(unit)) break;
      const next = at < text.length ? node.next.get(text[at]) : undefined;
      if (!next) return best;
      node = next;
      at++;
      if (node.end) best = at;
    }
    const nodes: Node[] = [node];
    const ends: number[] = [at];
    while (nodes.length) {
      const here = nodes.pop()!;
      const from = ends.pop()!;
      if (here.end && from > best) best = from;
      if (here.next.size === 0) continue;
      this.spellings.length = 0;
      this.spelled(text, from);
      for (let i = 0; i < this.spellings.length; i += 2) {
        const next = here.next.get(this.spellings[i] as string);
        if (next) {
          nodes.push(next);
          ends.push(this.spellings[i + 1] as number);
        }
      }
    }
    return best;
  }

  /** Each character that may be spelled at `at`, with where its spelling ends. */
  private spelled(text: string, at: number): void {
    const visit = this.visit;
    if (at >= text.length) return;
    const unit = text.charCodeAt(at);
    // As written (a surrogate pair is one character).
    if (isHigh(unit) && isLow(text.charCodeAt(at + 1))) visit(text.slice(at, at + 2), at + 2);
    else visit(text[at], at + 1);
    if (unit === BACKSLASH) this.escaped(text, at);
    else if (unit === 0x25) this.percentEncoded(text, at);
    else if (unit === 0x2b) visit(' ', at + 1);
    else if (unit === 0x26)
      for (const [entity, char] of ENTITIES) if (text.startsWith(entity, at)) visit(char, at + entity.length);
  }

  /** Whether the backslashes at `at` escape a character (`\uXXXX`, `\"`, `\/`) that may begin a secret. */
  private escapeMayStart(text: string, at: number): boolean {
    const end = this.backslashRunEnd(text, at);
    const next = text.charCodeAt(end);
    if (next === 0x75) return hexValue(text, end + 1, 4) >= 0;
    return this.starts[next] === 2 && (next === 0x22 || next === 0x2f);
  }

  private readonly visit = (char: string, end: number): void => {
    this.spellings.push(char, end);
  };

  private backslashRunEnd(text: string, at: number): number {
    if (text !== this.runText || at < this.runStart || at >= this.runEnd) {
      let end = at;
      while (text.charCodeAt(end) === BACKSLASH) end++;
      this.runText = text;
      this.runStart = at;
      this.runEnd = end;
    }
    return this.runEnd;
  }

  /** After one or more backslashes: `\uXXXX` (a pair of them for an astral character), `\"`, `\/`, `\\`. */
  private escaped(text: string, at: number): void {
    const visit = this.visit;
    const end = this.backslashRunEnd(text, at);
    if (end - at >= 2) {
      visit('\\', at + 2);
      if (end - at > 2) visit('\\', end);
    }
    const next = text[end];
    if (next === '"' || next === '/') visit(next, end + 1);
    if (next !== 'u') return;
    const unit = hexValue(text, end + 1, 4);
    if (unit < 0) return;
    if (isHigh(unit) && text.charCodeAt(end + 5) === BACKSLASH) {
      const lowEnd = this.backslashRunEnd(text, end + 5);
      const low = text[lowEnd] === 'u' ? hexValue(text, lowEnd + 1, 4) : -1;
      if (isLow(low)) {
        visit(String.fromCharCode(unit, low), lowEnd + 5);
        return;
      }
    }
    visit(String.fromCharCode(unit), end + 5);
  }

  /** `%XX` bytes of one UTF-8 character, hex digits in either case. */
  private percentEncoded(text: string, at: number): void {
    const visit = this.visit;
    const lead = hexValue(text, at + 1, 2);
    if (lead < 0) return;
    const length = lead < 0x80 ? 1 : lead >= 0xf0 && lead < 0xf8 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
    if (length === 0) return;
    let point = length === 1 ? lead : lead & (0xff >> (length + 1));
    for (let i = 1; i < length; i++) {
      const at3 = at + 3 * i;
      const byte = text.charCodeAt(at3) === 0x25 ? hexValue(text, at3 + 1, 2) : -1;
      if (byte < 0x80 || byte > 0xbf) return;
      point = (point << 6) | (byte & 0x3f);
    }
    if (point > 0x10ffff) return;
    visit(String.fromCodePoint(point), at + 3 * length);
  }
}
