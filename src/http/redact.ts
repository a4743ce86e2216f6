/**
 * Secrets never reach output or reports (DESIGN.md §6). Every string that leaves the runner — a
 * transcript, a message, a stack — goes through one redactor that knows every secret of the run.
 */
export const REDACTED = '***';

const SECRET_HEADERS = new Set(['authorization', 'x-operator-key', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

export class Redactor {
  private readonly secrets = new Set<string>();

  constructor(secrets: Iterable<string | undefined> = []) {
    for (const s of secrets) this.add(s);
  }

  /** Registers a secret; very short strings are not registered, since replacing them would garble text. */
  add(secret: string | undefined): void {
    if (secret && secret.length >= 4) {
      this.secrets.add(secret);
      this.secrets.add(encodeURIComponent(secret));
      this.secrets.add(JSON.stringify(secret).slice(1, -1));
    }
  }

  text(value: string): string {
    let out = value;
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join(REDACTED);
    return out;
  }

  /** Header values: secret-bearing headers keep only their scheme word. */
  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (SECRET_HEADERS.has(name.toLowerCase())) {
        const scheme = /^(\S+)\s+\S/.exec(value)?.[1];
        out[name] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
      } else out[name] = this.text(value);
    }
    return out;
  }

  /** Any value (errors, objects): serialised text with every secret replaced. */
  value(value: unknown): string {
    if (value instanceof Error) return this.text(`${value.name}: ${value.message}`);
    return this.text(typeof value === 'string' ? value : JSON.stringify(value) ?? String(value));
  }
}
