/**
 * Secrets never reach output or reports (docs/design.md §6). Every string that leaves the runner — a
 * transcript, a message, a stack — goes through one redactor that knows every secret of the run.
 */
import { SecretMatcher } from './secret-matcher.js';

export const REDACTED = '***';

/** The user-information part of a URL (`scheme://user:password@`), in any scheme. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@'"]+@/gi;

/** User information right after a `://`: what URL_USERINFO replaces, read from one position on. */
const USERINFO_HERE = /[^\s/?#@'"]+@/y;

/** Any URL in `text` with its user information (username and password) replaced. */
export const withoutUrlCredentials = (text: string): string => {
  // Bodies are megabytes of JSON with e-mail addresses and URLs in them: the expression runs over the
  // whole text only once some `://` is followed by user information and an `@`.
  for (let at = text.indexOf('://'); at >= 0; at = text.indexOf('://', at + 3)) {
    USERINFO_HERE.lastIndex = at + 3;
    if (USERINFO_HERE.test(text)) return text.replace(URL_USERINFO, `$1${REDACTED}@`);
  }
  return text;
};

/** The user information of a URL at the start of `text` (`scheme://user:password@host`), up to its last `@`. */
const LEADING_USERINFO = /^\s*[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i;

/**
 * The username and password written into a URL, as written, as the URL parser normalises them and
 * percent-decoded: secrets to redact and to mask (the username too: `https://TOKEN@host` is a common
 * way to pass a token). Found by the text's shape as well, so also in a URL the run will refuse.
 * Empty parts are left out.
 */
export function urlCredentials(url: string): string[] {
  const parts: string[] = [];
  const userinfo = LEADING_USERINFO.exec(url)?.[1];
  if (userinfo) {
    const colon = userinfo.indexOf(':');
    if (colon < 0) parts.push(userinfo);
    else parts.push(userinfo.slice(0, colon), userinfo.slice(colon + 1));
  }
  try {
    const parsed = new URL(url.trim());
    parts.push(parsed.username, parsed.password);
  } catch {
    // Not a URL: what its shape shows is all there is.
  }
  const decoded = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  return [...new Set(parts.flatMap((part) => [part, decoded(part)]))].filter((part) => part !== '');
}

/**
 * A URL the user gave, for a usage error: quoted, unless it may carry credentials (any `@`: the text
 * may be no URL at all, so its shape is all there is), then only its scheme is said.
 */
export function urlShown(value: string): string {
  if (!value.includes('@')) return `"${value}"`;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1];
  return `a URL with credentials in it (${scheme ? `scheme ${scheme}, ` : ''}not shown)`;
}

const SECRET_HEADERS = new Set<string>([
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
  /** Every spelling of every secret, found in one pass whatever their number. */
  private readonly matcher = new SecretMatcher();
  private readonly named = new Set(SECRET_HEADERS);

  constructor(secrets: Iterable<string | undefined> = []) {
    for (const s of secrets) this.add(s);
  }

  /** Registers a secret; very short strings are not registered, since replacing them would garble text. */
  add(secret: string | undefined): void {
    if (secret && secret.length >= 4 && !this.secrets.has(secret)) {
      this.secrets.add(secret);
      this.matcher.add(secret);
      // base64 has no per-character spelling: its fragments are registered as secrets of their own.
      for (const fragment of base64Spellings(secret)) this.matcher.add(fragment);
    }
  }

  /** Another header whose value is a secret (a gateway key given with --header or --secret-header). */
  secretHeader(name: string): void {
    this.named.add(name.toLowerCase());
  }

  text(value: string): string {
    // Credentials written into any URL (`https://user:secret@host`), known to the run or not.
    return this.matcher.replace(withoutUrlCredentials(value), REDACTED);
  }

  /** Header values: secret-bearing headers keep only their scheme word. */
  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    const isSecret = (name: string) => this.named.has(name.toLowerCase());
    // Most header sets carry no secret outside the secret-bearing headers: one look decides for all.
    const clean = !this.leaks(
      Object.entries(headers)
        .filter(([name]) => !isSecret(name))
        .map(([, value]) => value)
        .join('\n'),
    );
    for (const [name, value] of Object.entries(headers)) {
      if (isSecret(name)) {
        const scheme = /^(\S+)\s+\S/.exec(value)?.[1];
        out[name] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
      } else out[name] = clean ? withoutUrlCredentials(value) : this.text(value);
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
    return this.matcher.find(text) !== undefined;
  }
}
