/**
 * Every identifier a run creates is namespaced with the prefix and the run id (docs/design.md §6), so
 * runs never collide with each other or with real data; the ones an operator would look for
 * (accounts, businesses) are listed in the report.
 */
import { randomBytes } from 'node:crypto';
import { cupsCheckLetters, dni } from '../domain/spanish-identifiers.js';
import { isPlainObject, setOwn } from '../spec/paths.js';

export function newRunId(): string {
  return randomBytes(4).readUInt32BE(0).toString(36).padStart(6, '0').slice(-6);
}

export interface CreatedIdentifiers {
  external_account_numbers: string[];
  business_identifiers: string[];
  contract_identifiers: string[];
  /** Other namespaced values (transaction ids, supply points, notes, …), counted only. */
  other: number;
}

export class IdRegistry {
  readonly created: CreatedIdentifiers = {
    external_account_numbers: [],
    business_identifiers: [],
    contract_identifiers: [],
    other: 0,
  };
  private sequence = 0;

  constructor(
    readonly prefix: string,
    readonly runId: string,
  ) {}

  /** `cf-k3x9q2` — the namespace of this run. */
  get namespace(): string {
    return `${this.prefix}-${this.runId}`;
  }

  next(): number {
    return ++this.sequence;
  }
}

/** The identifiers of one rule; all drawn from the run's registry so they are unique run-wide. */
export class Ids {
  constructor(private readonly registry: IdRegistry) {}

  get namespace(): string {
    return this.registry.namespace;
  }

  private make(letter: string): string {
    return `${this.registry.namespace}-${letter}${this.registry.next()}`;
  }

  externalAccountNumber(): string {
    const id = this.make('A');
    this.registry.created.external_account_numbers.push(id);
    return id;
  }

  businessIdentifier(): string {
    const id = this.make('B');
    this.registry.created.business_identifiers.push(id);
    return id;
  }

  contractIdentifier(): string {
    const id = this.make('C');
    this.registry.created.contract_identifiers.push(id);
    return id;
  }

  /** Transaction ids, ledger codes, statement and billing document ids, … */
  other(letter: 'T' | 'L' | 'S' | 'D' | 'R' | 'X'): string {
    this.registry.created.other++;
    return this.make(letter);
  }

  /** A note body that no other run or rule can have written. */
  noteBody(text: string): string {
    this.registry.created.other++;
    return `${text} [${this.make('N')}]`;
  }

  /** A CUPS-like supply point identifier, unique to this run and valid by its check letters. */
  supplyPointIdentifier(distributor = '0021'): string {
    this.registry.created.other++;
    const runPart = (parseInt(this.registry.runId, 36) % 1_000_000).toString().padStart(6, '0');
    const digits = `${distributor}${runPart}${String(this.registry.next() % 1_000_000).padStart(6, '0')}`;
    return `ES${digits}${cupsCheckLetters(digits)}`;
  }

  /** A DNI unique to this run. */
  fiscalCode(): string {
    this.registry.created.other++;
    return dni((parseInt(this.registry.runId, 36) % 100) * 1_000_000 + this.registry.next());
  }

  /** An e-mail address unique to this run (plus-addressing keeps it deliverable-looking). */
  email(local: string): string {
    this.registry.created.other++;
    return `${local}+${this.make('E').toLowerCase()}@example.com`;
  }
}

/** A copy of an item made fresh: every string carrying the run's namespace carries it marked `n`. */
export function freshCopy<T>(item: T, namespace: string, n: number): T {
  const marked = `${namespace}c${n}`;
  // Thousands of copies fill a body near 1 MiB: plain loops, and a string without the namespace kept as is.
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.includes(namespace) ? v.split(namespace).join(marked) : v;
    if (Array.isArray(v)) {
      const out = new Array(v.length);
      for (let i = 0; i < v.length; i++) out[i] = walk(v[i]);
      return out;
    }
    if (!isPlainObject(v)) return v;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v)) setOwn(out, key, walk(v[key]));
    return out;
  };
  return walk(item) as T;
}
