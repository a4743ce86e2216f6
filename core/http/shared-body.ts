/**
 * A response body parsed once, shared by the readers of one exchange: the run's history, which reads
 * it as the exchange completes, and the rule, which reads it later (see SharedBody).
 */

/** A body read as JSON: its value, or why it is not JSON. */
export type ParsedBody = { value: unknown } | { error: string };

export function parseBody(text: string): ParsedBody {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/**
 * One exchange's response body parsed once, for the run's history (which reads it as the exchange
 * completes) and the rule (which reads it later, or never). Parsing is where a big body costs memory
 * (15 MiB of small keys is ~125 MB parsed), so two parses of one body were two such values at once.
 * An early reader's value is kept only weakly: a rule that never reads the body does not keep it
 * alive, and one that does gets the same value whether it is reused or parsed again (JSON.parse of
 * one text), so only memory depends on when the collector runs, never what a rule reads.
 */
export class SharedBody {
  private weak?: WeakRef<object>;
  /** A value that is not an object (a number, a string, null) or a parse error: small, kept as is. */
  private small?: ParsedBody;

  constructor(readonly text: string) {}

  /** The parsed body for a reader that reads it now and keeps nothing of it. */
  peek(): ParsedBody {
    const kept = this.small ?? this.reuse();
    if (kept) return kept;
    const parsed = parseBody(this.text);
    this.remember(parsed);
    return parsed;
  }

  /** The parsed body for its owner, who keeps it: the value an earlier reader parsed when it is still alive. */
  take(): ParsedBody {
    return this.small ?? this.reuse() ?? parseBody(this.text);
  }

  private reuse(): ParsedBody | undefined {
    const value = this.weak?.deref();
    return value === undefined ? undefined : { value };
  }

  private remember(parsed: ParsedBody): void {
    if ('value' in parsed && typeof parsed.value === 'object' && parsed.value !== null)
      this.weak = new WeakRef(parsed.value);
    else this.small = parsed;
  }
}
