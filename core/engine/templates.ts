/**
 * Payload templates: the base of every payload a run sends, per request kind. §2.3 and §4 leave
 * required flags and allowed values "not shown", so an implementation may legally refuse the
 * suite's canonical payloads; the user then names a payload it accepts (`payloads:` in the config)
 * and the suite keeps that payload's fields and values, changing only what makes a rule's data its
 * own: identifiers (namespaced per run, docs/design.md), the supplier and account keys, and the
 * contract link. Without a template, the canonical fixture carrying every documented field is used.
 */
import type { z } from 'zod';
import { freshIdentifiers, type RequestName } from './fresh-identifiers.js';
import { ConfigError } from '../config/errors.js';
import type { PayloadTemplatesInput } from '../config/payloads.js';
import type { PayloadKind } from '../config/schema.js';
import { loadFixture } from '../spec/fixtures.js';
import { type AccountPayload, type BusinessRequest, model } from '../spec/index.js';
import type { Ids } from './ids.js';
import { deleteAtPath, getAtPath, dotPath } from '../spec/paths.js';

/** A template as configured: a request body of its kind (the key fields may be left out). */
export type { PayloadTemplatesInput };

type Documented = Exclude<PayloadKind, 'agreements' | 'supply_points'>;

interface KindSpec {
  /** The spec model's schema of the request body. */
  schema: RequestName;
  /** The canonical fixture used when no template is configured. */
  canonical: string;
  /** Fields the suite always sets itself (the account or business a request is about). */
  keys: Record<string, string>;
}

/** Stand-ins for the keys the suite sets itself, so a template may leave them out. */
const ACCOUNT_KEYS = { import_supplier: 'SUPPLIER', external_account_number: 'EXT' };
const BUSINESS_KEYS = { import_supplier_code: 'SUPPLIER', external_business_identifier: 'BUSINESS' };

const KINDS: Record<Documented, KindSpec> = {
  account: {
    schema: 'AccountPayload',
    canonical: 'accounts/electricity',
    keys: ACCOUNT_KEYS,
  },
  business: {
    schema: 'BusinessRequest',
    canonical: 'business/business',
    keys: BUSINESS_KEYS,
  },
  notes: {
    schema: 'NotesRequest',
    canonical: 'notes/notes',
    keys: ACCOUNT_KEYS,
  },
  transactions: {
    schema: 'TransactionsRequest',
    canonical: 'transactions/all-types',
    keys: ACCOUNT_KEYS,
  },
  historical_billing_documents: {
    schema: 'HistoricalBillingDocumentsRequest',
    canonical: 'historical-billing-documents/period-based',
    keys: { ...ACCOUNT_KEYS, ledger_code: 'LEDGER' },
  },
  historical_statements: {
    schema: 'HistoricalStatementsRequest',
    canonical: 'historical-statements/statements',
    keys: ACCOUNT_KEYS,
  },
  payment_instruction: {
    schema: 'PaymentInstructionRequest',
    canonical: 'payment-instructions/account',
    keys: ACCOUNT_KEYS,
  },
  business_payment_instruction: {
    schema: 'BusinessPaymentInstructionRequest',
    canonical: 'payment-instructions/business',
    keys: BUSINESS_KEYS,
  },
};

const isDocumented = (kind: PayloadKind): kind is Documented => kind in KINDS;

/**
 * Checks a template against the documented shapes (§2, §4): the config error names the kind and
 * the attr of every problem. The contract link may sit wherever the configuration says (§2.3: its
 * position is not shown), so it is taken out before the check.
 */
export function checkTemplate(kind: PayloadKind, template: unknown, contractPath: string): Record<string, unknown> {
  if (typeof template !== 'object' || template === null || Array.isArray(template))
    throw new ConfigError(`payloads.${kind} must be a JSON object (a request body).`);
  const body = structuredClone(template) as Record<string, unknown>;
  if (!isDocumented(kind)) return body;
  const spec = KINDS[kind];
  const checked = structuredClone(body);
  for (const [key, stand] of Object.entries(spec.keys)) checked[key] ??= stand;
  if (kind === 'account') {
    deleteAtPath(checked, contractPath);
    if (getAtPath(body, contractPath) !== undefined && contractPath !== 'business.business_contract_identifier')
      deleteAtPath(checked, 'business.business_contract_identifier');
  }
  const result = (model[spec.schema] as z.ZodType).safeParse(checked);
  if (!result.success) {
    throw new ConfigError(
      `payloads.${kind} does not have the documented shape of ${spec.schema} (§2, §4); fix these attrs:`,
      result.error.issues.flatMap((issue) => {
        const at = dotPath(issue.path);
        if (issue.code === 'unrecognized_keys')
          return issue.keys.map(
            (key) => `${at ? `${at}.` : ''}${key}: not a documented field (§2.1: only documented fields may be sent)`,
          );
        return [`${at || '(body)'}: ${issue.message}`];
      }),
    );
  }
  return body;
}

export class PayloadTemplates {
  /** JSON text per kind: parsing a fresh copy is cheaper than structuredClone, and rules make hundreds. */
  private readonly text = new Map<PayloadKind, string>();
  private readonly parsed = new Map<PayloadKind, Record<string, unknown>>();
  private readonly given = new Set<PayloadKind>();

  constructor(
    input: PayloadTemplatesInput = {},
    private readonly contractPath = 'business.business_contract_identifier',
  ) {
    for (const [kind, template] of Object.entries(input) as [PayloadKind, unknown][]) {
      if (template === undefined) continue;
      this.text.set(kind, JSON.stringify(checkTemplate(kind, template, contractPath)));
      this.given.add(kind);
    }
  }

  /** Was a template configured for this kind (rather than the canonical payload)? */
  configured(kind: PayloadKind): boolean {
    return this.given.has(kind);
  }

  /** The config key that would change what the suite sends for this kind. */
  static key(kind: PayloadKind): string {
    return `payloads.${kind}`;
  }

  /** A fresh copy of the base payload of a kind: the template, or the canonical fixture. */
  base<T = Record<string, unknown>>(kind: PayloadKind): T | undefined {
    let text = this.text.get(kind);
    if (text === undefined) {
      if (!isDocumented(kind)) return undefined;
      text = JSON.stringify(loadFixture(KINDS[kind].canonical));
      this.text.set(kind, text);
    }
    return JSON.parse(text) as T;
  }

  /**
   * The base payload of a kind parsed once and frozen, for `freshIdentifiers` to copy: it makes a
   * new object of every object and list it walks, so a second copy (`base`) was wasted — an account
   * payload parsed afresh for each of the thousand accounts a run stages. Frozen, so that no caller
   * can change what the next one is given.
   */
  private frozen(kind: PayloadKind): Record<string, unknown> | undefined {
    let value = this.parsed.get(kind);
    if (value === undefined) {
      const base = this.base(kind);
      if (base === undefined) return undefined;
      value = deepFreeze(base);
      this.parsed.set(kind, value);
    }
    return value;
  }

  /**
   * An account for `supplier` with fresh identifiers: external number, supply points, ledgers,
   * transactions, statements, fiscal codes, e-mails and note bodies. It carries no contract link.
   */
  account(ids: Ids, supplier: string): AccountPayload {
    // The link is left out of the copy: a reference, not an identifier, so renaming first changes nothing.
    const fresh = freshIdentifiers('AccountPayload', this.frozen('account')!, ids) as AccountPayload;
    deleteAtPath(fresh as Record<string, unknown>, this.contractPath);
    deleteAtPath(fresh as Record<string, unknown>, 'business.business_contract_identifier');
    fresh.import_supplier = supplier;
    return fresh;
  }

  /**
   * A business for `supplier` with `contracts` contracts (the template's, repeated as needed), its
   * external identifier and every contract identifier fresh.
   */
  business(ids: Ids, supplier: string, contracts?: number): BusinessRequest {
    const business = this.base<BusinessRequest>('business')!;
    const details = business.business;
    const given = details?.business_contracts ?? [];
    if (details && contracts !== undefined && given.length > 0) {
      details.business_contracts = Array.from({ length: contracts }, (_, i) =>
        structuredClone(given[i % given.length]),
      );
      if (contracts === 0) delete details.business_contracts;
    }
    const fresh = freshIdentifiers('BusinessRequest', business, ids);
    fresh.import_supplier_code = supplier;
    fresh.external_business_identifier = ids.businessIdentifier();
    // The canonical company is the same in every run; the template's name is the user's to keep.
    if (!this.configured('business') && fresh.business?.company_name)
      fresh.business.company_name = `${fresh.business.company_name} ${ids.namespace}`;
    return fresh;
  }

  /**
   * A whole request body of a kind with fresh identifiers, the keys of the account or business it is
   * about set from `keys` (and any other field given there).
   */
  request<T = Record<string, unknown>>(kind: Documented, ids: Ids, keys: Record<string, unknown>): T {
    return { ...freshIdentifiers(KINDS[kind].schema, this.frozen(kind)!, ids), ...keys } as T;
  }

  /**
   * Historical billing documents for `ledger_code` of an account, all of `type` (§4.2): the
   * template's documents with fresh identifiers, retyped; a period-based document keeps or gets
   * the bill period of the month before it was issued, an item-based one carries none (§2.5).
   */
  billingDocuments(
    ids: Ids,
    keys: Record<string, string>,
    ledgerCode: string,
    type: 'PERIOD_BASED' | 'ITEM_BASED',
  ): Record<string, unknown> & { historical_billing_documents: Record<string, unknown>[] } {
    const body = this.request<Record<string, unknown>>('historical_billing_documents', ids, {
      ...keys,
      ledger_code: ledgerCode,
      billing_document_type: type,
    });
    const documents = (
      Array.isArray(body.historical_billing_documents) ? body.historical_billing_documents : []
    ) as Record<string, unknown>[];
    // Rules vary one document of two (a type, a date); a template with one gets a second like it.
    if (documents.length === 1) {
      const again = freshIdentifiers(
        'HistoricalBillingDocumentsRequest',
        { historical_billing_documents: documents },
        ids,
      );
      documents.push(again.historical_billing_documents![0] as Record<string, unknown>);
    }
    body.historical_billing_documents = documents.map((document) => {
      const retyped: Record<string, unknown> = { ...document, billing_document_type: type };
      if (type === 'ITEM_BASED') {
        delete retyped.bill_period_from_date;
        delete retyped.bill_period_to_date;
      } else if (retyped.bill_period_from_date === undefined || retyped.bill_period_to_date === undefined) {
        const issued =
          typeof retyped.issued_date === 'string'
            ? new Date(`${retyped.issued_date}T00:00:00Z`)
            : new Date(Date.UTC(2024, 3, 3));
        const from = new Date(Date.UTC(issued.getUTCFullYear(), issued.getUTCMonth() - 1, 1));
        const to = new Date(Date.UTC(issued.getUTCFullYear(), issued.getUTCMonth(), 0));
        retyped.bill_period_from_date = from.toISOString().slice(0, 10);
        retyped.bill_period_to_date = to.toISOString().slice(0, 10);
      }
      return retyped;
    });
    return body as Record<string, unknown> & { historical_billing_documents: Record<string, unknown>[] };
  }

  /**
   * One item of a list in a template (`notes`, `transactions`, …), fresh, with `overrides` applied
   * (`undefined` takes a field out). `pick` chooses among the template's items (default: the first).
   */
  item<T extends Record<string, unknown>>(
    kind: Documented,
    list: string,
    ids: Ids,
    overrides: Record<string, unknown> = {},
    pick?: (item: T) => boolean,
  ): T {
    const body = this.base(kind)!;
    const items = (Array.isArray(body[list]) ? body[list] : []) as T[];
    const chosen = (pick ? items.find(pick) : undefined) ?? items[0] ?? ({} as T);
    const fresh = freshIdentifiers(KINDS[kind].schema, { ...body, [list]: [chosen] }, ids)[list] as T[];
    const item: Record<string, unknown> = { ...fresh[0] };
    for (const [key, value] of Object.entries(overrides)) {
      if (value === undefined) delete item[key];
      else item[key] = value;
    }
    return item as T;
  }
}

/** Fills `{{name}}` placeholders in every string of a payload template. */
export function fillTemplate(template: unknown, values: Record<string, string>): unknown {
  if (typeof template === 'string') {
    return template.replace(/\{\{(\w+)\}\}/g, (match, name: string) => values[name] ?? match);
  }
  if (Array.isArray(template)) return template.map((v) => fillTemplate(v, values));
  if (template && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fillTemplate(v, values)]));
  }
  return template;
}

/** `value` and everything in it frozen (a parsed JSON value: objects and lists only). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
