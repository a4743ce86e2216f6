/**
 * One copy of each short string the store keeps. A long run stages thousands of accounts from the
 * same templates, so the same codes, types and texts arrive again and again, each a fresh string
 * from JSON.parse; at `--num-runs 400` the duplicates were some 8 MB of the embedded server's 30.
 * Equal strings are interchangeable, so sharing one changes nothing a handler can see.
 */

/** Strings longer than this are rarely repeated (generated values, long texts): not pooled. */
const MAX_LENGTH = 64;
/** Distinct strings pooled at most; past it, strings already pooled are still shared. */
const MAX_ENTRIES = 100_000;

export class StringPool {
  private readonly pool = new Map<string, string>();

  /** `value` (a parsed JSON body, changed in place) with each short string replaced by its pooled copy. */
  share<T>(value: T): T {
    return this.walk(value) as T;
  }

  clear(): void {
    this.pool.clear();
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.string(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) value[i] = this.walk(value[i]);
    } else if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) record[key] = this.walk(record[key]);
    }
    return value;
  }

  private string(s: string): string {
    if (s.length > MAX_LENGTH) return s;
    const pooled = this.pool.get(s);
    if (pooled !== undefined) return pooled;
    if (this.pool.size < MAX_ENTRIES) this.pool.set(s, s);
    return s;
  }
}
