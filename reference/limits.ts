/**
 * Caps on what the reference server keeps. It is an in-memory mock that others run for days, so
 * what it stores is bounded: accounts (import processes) per supplier, stored bytes per supplier
 * and stored bytes in all. Bytes are the stored JSON size: the compact JSON of each request body
 * the server kept (a staged payload counts once, replaced when staged again).
 *
 * Past a cap the request is refused with **400 and a §7.1 body** whose code is
 * `storage_limit_exceeded`, before the handler runs, so nothing of it is stored. Why 400: §7.2
 * documents 400 for staging refusals, so a supplier's client already reads it as "refused; read
 * the code; retrying will not help" — which is what a full store is. 429 is the §8 process limit,
 * which clients (and this suite) retry after `Retry-After`; a 5xx such as 507 reads as a server
 * fault, also retried. A single body over `maxBodyBytes` stays 413 (server.ts).
 */
import { reply, type Reply } from './reply.js';
import { NON_FIELD_ERRORS } from './validation.js';

export interface StorageLimits {
  /** Most import processes (staged or imported accounts) one supplier may have. */
  maxAccountsPerSupplier: number;
  /** Most bytes of stored JSON per supplier. */
  maxBytesPerSupplier: number;
  /** Most bytes of stored JSON in all suppliers together. */
  maxBytesTotal: number;
}

const MiB = 1024 * 1024;

/**
 * Above what the suite stores (a nightly `--num-runs 1000` embedded run keeps about 4,000 accounts
 * and 26 MB for one supplier; a default run 235 accounts and 1.3 MB), small enough that a flood of
 * large bodies leaves the server at a few hundred MB resident (figures in reference/README.md).
 */
export const DEFAULT_STORAGE_LIMITS: StorageLimits = {
  maxAccountsPerSupplier: 100_000,
  maxBytesPerSupplier: 64 * MiB,
  maxBytesTotal: 128 * MiB,
};

export const STORAGE_LIMIT_EXCEEDED = 'storage_limit_exceeded';

/** The refusal past a cap: a §7.1 body (see the file comment for why 400). */
export function storageRefusal(detail: string): Reply {
  return reply(400, {
    detail,
    code: STORAGE_LIMIT_EXCEEDED,
    errors: [{ attr: NON_FIELD_ERRORS, code: STORAGE_LIMIT_EXCEEDED, detail }],
  });
}

/** A claim on storage, taken before a handler runs: kept when it succeeds, given back when not. */
export interface StorageClaim {
  commit(): void;
  release(): void;
}

const accountKey = (supplier: string, account: string) => JSON.stringify([supplier, account]);

/** Bytes stored, per supplier and in all; staged payloads also per account (staging again replaces them). */
export class StorageTally {
  private readonly bySupplier = new Map<string, number>();
  private readonly staged = new Map<string, number>();
  private all = 0;

  get totalBytes(): number {
    return this.all;
  }

  bytesOf(supplier: string): number {
    return this.bySupplier.get(supplier) ?? 0;
  }

  suppliers(): string[] {
    return [...this.bySupplier.keys()];
  }

  private add(supplier: string, delta: number): void {
    const next = this.bytesOf(supplier) + delta;
    if (next === 0) this.bySupplier.delete(supplier);
    else this.bySupplier.set(supplier, next);
    this.all += delta;
  }

  /**
   * Claims `bytes` for `supplier` (for the staged payload of `account` when given, replacing what
   * was staged for it), or says which cap it would pass.
   */
  claim(
    limits: StorageLimits,
    supplier: string,
    bytes: number,
    account?: string,
  ): { ok: true; claim: StorageClaim } | { ok: false; detail: string } {
    const key = account === undefined ? undefined : accountKey(supplier, account);
    const previous = key === undefined ? 0 : (this.staged.get(key) ?? 0);
    const delta = bytes - previous;
    if (delta > 0 && this.bytesOf(supplier) + delta > limits.maxBytesPerSupplier)
      return {
        ok: false,
        detail: `Storage limit reached: supplier ${supplier} would store ${this.bytesOf(supplier) + delta} bytes, more than the ${limits.maxBytesPerSupplier} this server keeps per supplier.`,
      };
    if (delta > 0 && this.all + delta > limits.maxBytesTotal)
      return {
        ok: false,
        detail: `Storage limit reached: this server would store ${this.all + delta} bytes, more than the ${limits.maxBytesTotal} it keeps in all.`,
      };
    this.add(supplier, delta);
    let settled = false;
    return {
      ok: true,
      claim: {
        commit: () => {
          if (settled) return;
          settled = true;
          if (key === undefined) return;
          // Another request may have replaced the staged payload meanwhile: count this one as the one kept.
          const now = this.staged.get(key) ?? 0;
          this.add(supplier, previous - now);
          this.staged.set(key, bytes);
        },
        release: () => {
          if (settled) return;
          settled = true;
          this.add(supplier, -delta);
        },
      },
    };
  }
}
