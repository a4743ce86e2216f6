/**
 * Payloads rules send, built from the canonical fixtures with every identifier replaced by a
 * namespaced one (docs/design.md §6), so a rule's account can never be confused with another's.
 */
import { loadFixture } from '../fixtures.js';
import type { AccountPayload, BusinessRequest } from '../spec/index.js';
import type { Ids } from './ids.js';

/** The templates as JSON text: parsing a fresh copy is cheaper than structuredClone, and rules make hundreds. */
let accountTemplate: string | undefined;
let businessTemplate: string | undefined;

/** Sets a value at a dot path, creating objects on the way (for the configurable contract link). */
export function setAtPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] = value;
}

/**
 * A complete, realistic account (the electricity fixture: every documented field) for `supplier`,
 * with fresh identifiers: external number, supply points, ledgers, transactions, statements,
 * fiscal codes, e-mails and note bodies. It carries no business link.
 */
export function namespacedAccount(ids: Ids, supplier: string): AccountPayload {
  accountTemplate ??= JSON.stringify(loadFixture<AccountPayload>('accounts/electricity'));
  const account = JSON.parse(accountTemplate) as AccountPayload;
  delete account.business;
  account.import_supplier = supplier;
  account.external_account_number = ids.externalAccountNumber();
  for (const customer of account.customers ?? []) {
    if (customer.email) customer.email = ids.email(customer.email.split('@')[0]);
    for (const detail of customer.user_details ?? []) if (detail.namespace === 'fiscal_code') detail.value = ids.fiscalCode();
  }
  for (const group of account.supply_addresses ?? []) {
    for (const point of group.supply_points ?? []) point.identifier = ids.supplyPointIdentifier(point.identifier?.slice(2, 6));
  }
  for (const ledger of account.ledgers ?? []) {
    ledger.ledger_code = ids.other('L');
    for (const tx of [...(ledger.current_statement_transactions ?? []), ...(ledger.historical_statement_transactions ?? [])]) tx.transaction_id = ids.other('T');
  }
  for (const statement of account.statements ?? []) statement.statement_id = ids.other('S');
  for (const note of account.notes ?? []) if (note.body !== undefined) note.body = ids.noteBody(note.body);
  return account;
}

/** A business with `contracts` contracts (the business fixture), every identifier fresh. */
export function namespacedBusiness(ids: Ids, supplier: string, contracts = 2): BusinessRequest {
  businessTemplate ??= JSON.stringify(loadFixture<BusinessRequest>('business/business'));
  const business = JSON.parse(businessTemplate) as BusinessRequest;
  business.import_supplier_code = supplier;
  business.external_business_identifier = ids.businessIdentifier();
  const details = business.business!;
  const template = details.business_contracts ?? [];
  details.business_contracts = Array.from({ length: contracts }, (_, i) => ({ ...structuredClone(template[i % template.length]), identifier: ids.contractIdentifier() }));
  details.company_name = `${details.company_name} ${ids.namespace}`;
  return business;
}
