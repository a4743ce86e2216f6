/**
 * Secrets never reach output or reports (docs/design.md §6). Every string that leaves the runner — a
 * transcript, a message, a stack — goes through one redactor that knows every secret of the run.
 */
export const REDACTED = '***';

const SECRET_HEADERS = new Set(['authorization', 'x-operator-key', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

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
    if (secret && secret.length >= 4) {
      for (const spelling of [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]) this.secrets.add(spelling);
      const escaped = [...this.secrets].sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      // Not global: test() must not carry lastIndex from one text to the next; replace() below is given the global form.
      this.pattern = new RegExp(escaped.join('|'));
      this.global = new RegExp(escaped.join('|'), 'g');
    }
  }

  text(value: string): string {
    if (!this.pattern) return value;
    return this.pattern.test(value) ? value.replace(this.global!, REDACTED) : value;
  }

  /** Header values: secret-bearing headers keep only their scheme word. */
  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    const isSecret = (name: string) => SECRET_HEADERS.has(name.toLowerCase());
    // Most header sets carry no secret outside the known headers: one test decides for all the
    // other values (testing the secret headers too would make every request with a token unclean).
    const clean = !this.pattern || !this.pattern.test(Object.entries(headers).filter(([name]) => !isSecret(name)).map(([, value]) => value).join('\n'));
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
    return this.text(typeof value === 'string' ? value : JSON.stringify(value) ?? String(value));
  }
}
