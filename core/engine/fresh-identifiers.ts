/**
 * Fresh identifiers for generated payloads (docs/design.md §6). Arbitraries are pure, so their
 * identifiers repeat across runs and shrinks; a rule replaces them with namespaced ones from its
 * `Ids` just before sending, once per payload it actually sends.
 */
import type { Ids } from './ids.js';
import { pointsAt } from '../spec/paths.js';
import { isPlainObject, setOwn } from '../spec/paths.js';

/** The request bodies of §4, named as the spec model names them. */
export type RequestName =
  | 'AccountPayload'
  | 'NotesRequest'
  | 'TransactionsRequest'
  | 'HistoricalBillingDocumentsRequest'
  | 'HistoricalStatementsRequest'
  | 'PaymentInstructionRequest'
  | 'BusinessRequest'
  | 'BusinessPaymentInstructionRequest';

/** Old identifier → new one, per kind of thing identified. Share one between payloads that refer to each other. */
export type Renames = Map<string, string>;

export interface FreshOptions {
  /** Renames made earlier (say, for the business an account links to); new ones are added to it. */
  renames?: Renames;
  /** The `attr` of a defect: that field, and anything inside it, is left exactly as it is. */
  except?: string;
}

type Path = readonly (string | number)[];

interface Identifier {
  /** What is identified; one value names one thing per kind. */
  kind: string;
  /** How a new one is made; absent for references to something the payload does not create. */
  fresh?: (ids: Ids, old: string) => string;
}

const DISTRIBUTOR_IN_CUPS = /^ES(\d{4})/;

/** The root keys a request creates rather than names: the account it stages, the business it creates. */
const CREATES: Partial<Record<RequestName, string>> = {
  AccountPayload: 'external_account_number',
  BusinessRequest: 'external_business_identifier',
};

/** What the value at `path` identifies, if anything. */
function identifierAt(request: RequestName, path: Path, parent: Record<string, unknown>): Identifier | undefined {
  const key = path[path.length - 1];
  const holder = path.length >= 3 ? path[path.length - 3] : undefined;
  const root = path.length === 1;
  switch (key) {
    case 'external_account_number':
      return {
        kind: 'account',
        ...(root && CREATES[request] === key && { fresh: (ids) => ids.externalAccountNumber() }),
      };
    case 'external_business_identifier':
      return {
        kind: 'business',
        ...(root && CREATES[request] === key && { fresh: (ids) => ids.businessIdentifier() }),
      };
    case 'business_contract_identifier':
      return { kind: 'contract' };
    case 'identifier':
      if (holder === 'business_contracts') return { kind: 'contract', fresh: (ids) => ids.contractIdentifier() };
      if (holder === 'supply_points')
        return {
          kind: 'supply point',
          fresh: (ids, old) => ids.supplyPointIdentifier(DISTRIBUTOR_IN_CUPS.exec(old)?.[1]),
        };
      return undefined;
    // At the root of a historical billing documents request, the ledger is one the account already has.
    case 'ledger_code':
      return { kind: 'ledger', ...(!root && { fresh: (ids) => ids.other('L') }) };
    case 'transaction_id':
      return { kind: 'transaction', fresh: (ids) => ids.other('T') };
    case 'statement_id':
      return { kind: 'statement', fresh: (ids) => ids.other('S') };
    case 'billing_document_identifier':
      return { kind: 'billing document', fresh: (ids) => ids.other('D') };
    case 'body':
      return holder === 'notes' ? { kind: 'note', fresh: (ids, old) => ids.noteBody(old) } : undefined;
    case 'email':
      return holder === 'customers' ? { kind: 'email', fresh: (ids, old) => ids.email(old.split('@')[0]) } : undefined;
    case 'value':
      return holder === 'user_details' && parent.namespace === 'fiscal_code'
        ? { kind: 'fiscal code', fresh: (ids) => ids.fiscalCode() }
        : undefined;
    default:
      return undefined;
  }
}

/**
 * `payload` with every identifier it creates replaced by a fresh one from `ids`: the external
 * account number of an account payload, supply points, ledgers, transactions, statements, billing
 * documents, business and contract identifiers, note bodies, e-mails and fiscal codes. A value
 * that repeats is replaced by the same new value. References to things that must already exist
 * (the account a §4.2 request adds to, the contract an account links to, the ledger of a billing
 * document import, the business and accounts of a business payment instruction) are kept, unless
 * `renames` says what they became. Only present fields change; nothing is added.
 *
 * With a defect: `freshIdentifiers(name, invalid.payload, ids, { except: invalid.attr })`.
 */
export function freshIdentifiers<P>(request: RequestName, payload: P, ids: Ids, options: FreshOptions = {}): P {
  const renames = options.renames ?? new Map<string, string>();
  const except = options.except;
  // The attr of each node is built as the walk descends, and only when a defect must be spared.
  const untouched = (attr: string) => except !== undefined && pointsAt(attr, except);
  const below = (attr: string, key: string | number) =>
    except === undefined ? '' : attr ? `${attr}.${key}` : String(key);
  // One path, extended and restored as the walk descends: payloads have hundreds of nodes.
  const path: (string | number)[] = [];
  const child = (value: unknown, key: string | number, attr: string, parent: Record<string, unknown>) => {
    path.push(key);
    const result = visit(value, below(attr, key), parent);
    path.pop();
    return result;
  };
  const visit = (value: unknown, attr: string, parent: Record<string, unknown>): unknown => {
    if (untouched(attr)) return value;
    if (Array.isArray(value)) {
      const out = new Array(value.length);
      for (let i = 0; i < value.length; i++) out[i] = child(value[i], i, attr, parent);
      return out;
    }
    if (isPlainObject(value)) {
      // A copy of every object walked (the caller's payload is never changed: templates.ts shares a frozen one).
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        setOwn(out, key, child(value[key], key, attr, value));
      }
      return out;
    }
    if (typeof value !== 'string') return value;
    const identifier = identifierAt(request, path, parent);
    if (!identifier) return value;
    const key = `${identifier.kind}\u0000${value}`;
    const renamed = renames.get(key) ?? identifier.fresh?.(ids, value);
    if (renamed === undefined) return value;
    renames.set(key, renamed);
    return renamed;
  };
  return visit(payload, '', {}) as P;
}

/** The identifiers a payload creates, by kind: what `freshIdentifiers` replaces. */
export function identifiersOf(request: RequestName, payload: unknown): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const visit = (value: unknown, path: Path, parent: Record<string, unknown>): void => {
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, [...path, i], parent));
    else if (isPlainObject(value)) Object.entries(value).forEach(([key, child]) => visit(child, [...path, key], value));
    else if (typeof value === 'string') {
      const identifier = identifierAt(request, path, parent);
      if (identifier?.fresh) found.set(identifier.kind, [...(found.get(identifier.kind) ?? []), value]);
    }
  };
  visit(payload, [], {});
  return found;
}
