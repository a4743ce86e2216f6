/**
 * The reference server's in-memory state: what the operator configures (§2.2 suppliers, teams,
 * skipped accounts, upstream vendor instructions, the §8 limit) and what the interface creates
 * (import processes, accounts, businesses).
 */
import type { AccountPayload, EndpointId, Note, Transaction } from '../core/spec/index.js';
import { DEFAULT_STORAGE_LIMITS, type StorageLimits, StorageTally } from './limits.js';
import { StringPool } from './strings.js';

export type SupplierStatus = 'Ongoing' | 'Paused' | 'Complete';

export interface Supplier {
  code: string;
  status: SupplierStatus;
  /** §2.1: document paths are relative to this root. */
  documentRoot: string;
}

/** How the simulated upstream payment vendor answers for one instruction (§2.7, §4.2). */
export type VendorBehaviour = 'ok' | 'persistent_failure' | 'intermittent_failure';

export interface VendorInstruction {
  vendor: string;
  reference: string;
  /** When set, the request's `type` must match it. */
  type?: string;
  behaviour: VendorBehaviour;
}

export interface Settings {
  /** §8: optional limit on concurrent processing; null is "disabled", as the spec says it currently is. */
  concurrencyLimit: number | null;
  /** How long creating an account takes, so that IN_PROGRESS and the §8 limit can be observed. */
  processingDelayMs: number;
  /** Lifetime of tokens issued through ObtainServiceToken; null never expires (§5: lifetime not shown). */
  tokenTtlSeconds: number | null;
  /** Added before every response, to simulate a distant server. */
  responseDelayMs: number;
  /**
   * §2.3, §2.8: allowed values of account_type and business_type are "not shown", so an
   * implementation may accept only its own. null accepts any string (the faithful default).
   */
  accountTypes: string[] | null;
  businessTypes: string[] | null;
}

export const defaultSettings = (): Settings => ({
  concurrencyLimit: null,
  processingDelayMs: 0,
  tokenTtlSeconds: null,
  responseDelayMs: 0,
  accountTypes: null,
  businessTypes: null,
});

export interface StoredNote {
  body: string | null;
  createdAt: string;
  documentPaths: string[];
  isPinned: boolean;
}

export interface StoredLedger {
  code: string;
  /** §4.2: once a ledger has a finalized billing document, historical billing documents are refused. */
  hasFinalizedBillingDocument: boolean;
  lastStatementClosingDate?: string;
}

export interface Account {
  number: string;
  supplier: string;
  externalAccountNumber: string;
  createdAt: string;
  payload: AccountPayload;
  notes: StoredNote[];
  /** Transaction ids already added, for §4.2 `check_previously_added`. */
  transactionIds: Set<string>;
  transactions: Transaction[];
  ledgers: Map<string, StoredLedger>;
  historicalStatements: unknown[];
  billingDocuments: unknown[];
  paymentInstructions: { vendor: string; reference: string; type?: string }[];
  supplyPoints: Map<string, { identifier: string; agreements: unknown[] }>;
  /**
   * The keys of the items an addition endpoint has taken, per endpoint, for one that deduplicates by
   * key and has no field above: an endpoint added to the interface (§9.2) keeps what it added here
   * without a change to this type or to the account's creation. Read through `addedKeys`.
   */
  added?: Map<EndpointId, Set<string>>;
}

/** The keys of the items `endpoint` has added to the account (created empty on first use). */
export function addedKeys(account: Account, endpoint: EndpointId): Set<string> {
  account.added ??= new Map();
  let keys = account.added.get(endpoint);
  if (!keys) {
    keys = new Set();
    account.added.set(endpoint, keys);
  }
  return keys;
}

/** §3: the account import process of one (supplier code, external account number). */
export interface ImportProcess {
  supplier: string;
  externalAccountNumber: string;
  payload: AccountPayload;
  /** A process request is running (§3 IN_PROGRESS). */
  inProgress: boolean;
  account: Account | null;
}

export interface Business {
  id: number;
  supplier: string;
  externalIdentifier: string;
  name?: string;
  number?: string;
  type?: string;
  contractIdentifiers: string[];
  paymentInstructions: { vendor: string; reference: string; type?: string; accounts: string[] }[];
}

export interface IssuedToken {
  /** Epoch milliseconds, or null for a token that does not expire. */
  expiresAt: number | null;
  /** Obtained through ObtainServiceToken (not configured by the operator): may be dropped when too many are kept. */
  issued?: boolean;
}

const key = (...parts: string[]) => JSON.stringify(parts);

export class ReferenceStore {
  readonly suppliers = new Map<string, Supplier>();
  readonly operationsTeams = new Set<string>();
  readonly skippedAccounts = new Set<string>();
  readonly vendorInstructions = new Map<string, VendorInstruction>();
  readonly tokens = new Map<string, IssuedToken>();
  readonly apiKeys = new Set<string>();
  settings: Settings = defaultSettings();
  /** Caps on what is kept (limits.ts): server configuration, kept across a reset. */
  limits: StorageLimits = { ...DEFAULT_STORAGE_LIMITS };
  /** Bytes of stored JSON, per supplier and in all (limits.ts). */
  storage = new StorageTally();

  readonly processes = new Map<string, ImportProcess>();
  /** The short strings of what is stored, one copy each (strings.ts). */
  readonly strings = new StringPool();
  readonly businesses: Business[] = [];
  /** §2.3: accounts link to contracts by identifier; one identifier names one contract. */
  readonly contracts = new Map<string, Business>();
  /** Process requests running now, one ticket each (see `startProcessing`). */
  private running = new Set<symbol>();
  private accountSequence = 0;
  /** Import processes per supplier, for the accounts cap (processes are only ever added, or all forgotten). */
  private processCounts = new Map<string, number>();

  /** Process requests running now, for the §8 limit. */
  get processing(): number {
    return this.running.size;
  }

  /**
   * Counts a process request as running until the returned function is called. A reset while it
   * runs forgets it; its end is then not counted a second time, so the count never goes below
   * zero and the §8 limit never lets one more through.
   */
  startProcessing(): () => void {
    const ticket = Symbol('process');
    this.running.add(ticket);
    return () => void this.running.delete(ticket);
  }

  nextAccountSequence(): number {
    return ++this.accountSequence;
  }

  process(supplier: string, externalAccountNumber: string): ImportProcess | undefined {
    return this.processes.get(key(supplier, externalAccountNumber));
  }

  putProcess(process: ImportProcess): void {
    const k = key(process.supplier, process.externalAccountNumber);
    if (!this.processes.has(k))
      this.processCounts.set(process.supplier, (this.processCounts.get(process.supplier) ?? 0) + 1);
    this.processes.set(k, process);
  }

  /** An account that exists (imported), found by the keys every §4.2 request carries. */
  importedAccount(supplier: string, externalAccountNumber: string): Account | undefined {
    return this.process(supplier, externalAccountNumber)?.account ?? undefined;
  }

  /** How many import processes (staged or imported accounts) a supplier has. */
  processCount(supplier: string): number {
    return this.processCounts.get(supplier) ?? 0;
  }

  processesOf(supplier: string): ImportProcess[] {
    return [...this.processes.values()].filter((p) => p.supplier === supplier);
  }

  isSkipped(supplier: string, externalAccountNumber: string): boolean {
    return this.skippedAccounts.has(key(supplier, externalAccountNumber));
  }

  markSkipped(supplier: string, externalAccountNumber: string): void {
    this.skippedAccounts.add(key(supplier, externalAccountNumber));
  }

  unmarkSkipped(supplier: string, externalAccountNumber: string): void {
    this.skippedAccounts.delete(key(supplier, externalAccountNumber));
  }

  vendorInstruction(vendor: string, reference: string): VendorInstruction | undefined {
    return this.vendorInstructions.get(key(vendor, reference));
  }

  putVendorInstruction(instruction: VendorInstruction): void {
    this.vendorInstructions.set(key(instruction.vendor, instruction.reference), instruction);
  }

  business(supplier: string, externalIdentifier: string): Business | undefined {
    return this.businesses.find((b) => b.supplier === supplier && b.externalIdentifier === externalIdentifier);
  }

  reset(): void {
    this.suppliers.clear();
    this.operationsTeams.clear();
    this.skippedAccounts.clear();
    this.vendorInstructions.clear();
    this.tokens.clear();
    this.apiKeys.clear();
    this.settings = defaultSettings();
    this.processes.clear();
    this.strings.clear();
    this.businesses.length = 0;
    this.contracts.clear();
    this.running = new Set();
    this.accountSequence = 0;
    this.processCounts = new Map();
    this.storage = new StorageTally();
  }
}

export type { Note };
