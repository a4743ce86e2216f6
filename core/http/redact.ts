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
      for (const spelling of [
        secret,
        encodeURIComponent(secret),
        JSON.stringify(secret).slice(1, -1),
        ...base64Spellings(secret),
      ])
        this.secrets.add(spelling);
      const escaped = [...this.secrets]
        .sort((a, b) => b.length - a.length)
        .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      // Not global: test() must not carry lastIndex from one text to the next; replace() below is given the global form.
      this.pattern = new RegExp(escaped.join('|'));
      this.global = new RegExp(escaped.join('|'), 'g');
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
