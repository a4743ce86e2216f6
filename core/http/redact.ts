/**
 * Secrets never reach output or reports (docs/design.md §6). Every string that leaves the runner — a
 * transcript, a message, a stack — goes through one redactor that knows every secret of the run.
 */
export const REDACTED = '***';

/** The user-information part of a URL (`scheme://user:password@`), in any scheme. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@'"]+@/gi;

/** Any URL in `text` with its user information (username and password) replaced. */
export const withoutUrlCredentials = (text: string): string =>
  text.includes('@') ? text.replace(URL_USERINFO, `$1${REDACTED}@`) : text;

const SECRET_HEADERS = new Set([
  'authorization',
  'x-operator-key',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
]);

/**
 * The secret as it appears inside base64 of any text that contains it (`Basic` credentials, a
 * target echoing `base64("Token " + token)`): base64 works in groups of three bytes, so the
 * secret's characters depend on where it starts; for each of the three offsets, the characters
 * made from the secret's bits alone. Standard and URL-safe alphabets; fragments too short to be
 * told apart from ordinary text are left out.
 */
export function base64Spellings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const out = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]);
    const first = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    for (const alphabet of ['base64', 'base64url'] as const) {
      const fragment = encoded.toString(alphabet).slice(first, end);
      if (fragment.length >= 6) out.add(fragment);
    }
  }
  return [...out];
}

/** Characters that are special in a regular expression, escaped. */
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A hexadecimal number matched in either case (`[aA]`): `\u006F` and `%2f` are the same character. */
const anyCaseHex = (hex: string) => hex.replace(/[a-f]/gi, (d) => `[${d.toLowerCase()}${d.toUpperCase()}]`);

/** The named entities HTML and XML writers use for the characters they escape. */
const ENTITIES: Record<string, string[]> = {
  '&': ['&amp;'],
  '<': ['&lt;'],
  '>': ['&gt;'],
  '"': ['&quot;', '&#34;', '&#x22;'],
  "'": ['&#39;', '&#x27;', '&apos;'],
};

/**
 * One character of a secret in every spelling a text may carry it in: as it is; as a JSON escape
 * (`\u0054` in any case, `\"`, `\/`), behind any number of backslashes, since a JSON body quoted
 * again in report.json doubles them; percent-encoded (its UTF-8 bytes, any case); as an HTML entity.
 * Each character is matched on its own, so a secret spelled half raw, half escaped is still found.
 */
function charPattern(char: string): string {
  const alternatives = [escapeRegex(char)];
  const units = [...Array(char.length).keys()].map((i) => char.charCodeAt(i));
  alternatives.push(units.map((u) => `\\\\+u${anyCaseHex(u.toString(16).padStart(4, '0'))}`).join(''));
  if (char === '"' || char === '\\' || char === '/') alternatives.push(`\\\\+${escapeRegex(char)}`);
  alternatives.push(
    [...Buffer.from(char, 'utf8')].map((b) => `%${anyCaseHex(b.toString(16).padStart(2, '0'))}`).join(''),
  );
  if (char === ' ') alternatives.push('\\+');
  for (const entity of ENTITIES[char] ?? []) alternatives.push(escapeRegex(entity));
  return alternatives.length === 1 ? alternatives[0] : `(?:${alternatives.join('|')})`;
}

/** A secret in any of the spellings charPattern knows, character by character. */
export function secretPattern(secret: string): string {
  return [...secret].map(charPattern).join('');
}

export class Redactor {
  private readonly secrets = new Set<string>();
  /** Every spelling of every secret, longest first, as one expression: one pass over each text. */
  private pattern?: RegExp;
  private global?: RegExp;

  constructor(secrets: Iterable<string | undefined> = []) {
    for (const s of secrets) this.add(s);
  }

  /** Registers a secret; very short strings are not registered, since replacing them would garble text. */
  add(secret: string | undefined): void {
    if (secret && secret.length >= 4 && !this.secrets.has(secret)) {
      this.secrets.add(secret);
      const sorted = [...this.secrets].sort((a, b) => b.length - a.length);
      // base64 has no per-character spelling: its fragments are matched as they are.
      const source = [...sorted.map(secretPattern), ...sorted.flatMap(base64Spellings).map(escapeRegex)].join('|');
      // Not global: test() must not carry lastIndex from one text to the next; replace() below is given the global form.
      this.pattern = new RegExp(source);
      this.global = new RegExp(source, 'g');
    }
  }

  text(value: string): string {
    // Credentials written into any URL (`https://user:secret@host`), known to the run or not.
    const text = withoutUrlCredentials(value);
    if (!this.pattern) return text;
    return this.pattern.test(text) ? text.replace(this.global!, REDACTED) : text;
  }

  /** Header values: secret-bearing headers keep only their scheme word. */
  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    const isSecret = (name: string) => SECRET_HEADERS.has(name.toLowerCase());
    // Most header sets carry no secret outside the known headers: one test decides for all the
    // other values (testing the secret headers too would make every request with a token unclean).
    const clean = !this.pattern?.test(
      Object.entries(headers)
        .filter(([name]) => !isSecret(name))
        .map(([, value]) => value)
        .join('\n'),
    );
    for (const [name, value] of Object.entries(headers)) {
      if (isSecret(name)) {
        const scheme = /^(\S+)\s+\S/.exec(value)?.[1];
        out[name] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
      } else out[name] = clean ? value : this.text(value);
    }
    return out;
  }

  /** Any value (errors, objects): serialised text with every secret replaced. */
  value(value: unknown): string {
    if (value instanceof Error) return this.text(`${value.name}: ${value.message}`);
    return this.text(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));
  }

  /** Whether a text holds a secret in any registered spelling. */
  leaks(text: string): boolean {
    return !!this.pattern && this.pattern.test(text);
  }
}
