/**
 * Metadata every schema of the spec model carries, and the presence vocabulary that keeps the
 * suite honest about what the spec does and does not say (docs/design.md §2).
 */
import { z } from 'zod';

/**
 * Whether a request field must be present.
 *
 * The spec shows shapes but says "Required or optional flags ...: not shown" (§2.3, §4), so most
 * fields carry no documented presence at all. The suite may only treat documented facts as MUST:
 * - `required`    — the spec states it, or the request cannot mean anything without it (the keys
 *                   that identify the account); a payload without it MUST be refused.
 * - `optional`    — the spec says so; a payload without it MUST be accepted.
 * - `expected`    — not shown, but a strong reading says required (an item's own identifier, the
 *                   value a date range is about). Refusing its absence is SHOULD; the reference
 *                   server requires it.
 * - `unspecified` — not shown and no strong reading: neither accepting nor refusing its absence may
 *                   fail an implementation. The reference server accepts its absence.
 */
export type Presence = 'required' | 'optional' | 'expected' | 'unspecified';

/**
 * `spec`   — only documented facts are enforced: the model the suite judges by.
 * `strict` — `expected` fields are required too: the reading the reference server implements and
 *            the canonical fixtures satisfy.
 */
export type ModelMode = 'spec' | 'strict';

declare module 'zod' {
  interface GlobalMeta {
    /** The spec section a schema comes from, e.g. `§2.3 supply point`. */
    spec?: string;
    presence?: Presence;
    /** Why a field has the presence it has, when that is a reading rather than a quote. */
    why?: string;
    /** Values the spec shows for an open (not enumerated) string field. */
    seen?: readonly string[];
  }
}

export { z };
