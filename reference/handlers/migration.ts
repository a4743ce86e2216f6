/**
 * §3 and §4.1: validate, stage (create-or-update) and process. The state table of §3 is the
 * specification of this module.
 */
import type { EndpointId } from '../../core/spec/index.js';
import { strictModel, type AccountPayload } from '../../core/spec/index.js';
import { delay, formatDate, formatDateTime, nextDay } from '../clock.js';
import { reply, type Reply } from '../reply.js';
import type { Account, ImportProcess, ReferenceStore, StoredLedger } from '../store.js';
import { ACCOUNT_FAILED_VALIDATION, type ErrorItem, type Validated, validationError } from '../validation.js';
import {
  type Handler,
  type ServerEnv,
  checkBody,
  documentPathsOf,
  fieldError,
  isReply,
  localNow,
  parseBody,
  valueAt,
} from './shared.js';
import { dotPath } from '../../core/spec/paths.js';

/**
 * The account-level checks of validate and stage (§4.1: stage is "validated by the same rules as the
 * validate endpoint"): the model, then what needs the server's state.
 */
export function checkAccountPayload(body: unknown, env: ServerEnv): Validated<AccountPayload> {
  const result = checkBody(strictModel.AccountPayload, body, env);
  if (!result.ok) return result;
  const account = result.data;
  const errors: ErrorItem[] = [];
  if (!env.store.suppliers.has(account.import_supplier)) {
    errors.push(fieldError('import_supplier', 'does_not_exist', 'No import supplier with this code.'));
  }
  // §2.3: the contract identifier must name a contract created earlier through the business endpoint.
  const contractPath = env.choices.contractPath;
  const contract = valueAt(body, contractPath);
  if (contract !== undefined) {
    const business = typeof contract === 'string' ? env.store.contracts.get(contract) : undefined;
    if (!business || business.supplier !== account.import_supplier) {
      errors.push(fieldError(contractPath, 'does_not_exist', 'No business contract with this identifier.'));
    }
  }
  // §2.3: allowed values of account_type are not shown; the operator may restrict them.
  const types = env.store.settings.accountTypes;
  if (types && account.account_type !== undefined && !types.includes(account.account_type)) {
    errors.push(fieldError('account_type', 'invalid_choice', `Accepted account types: ${types.join(', ')}.`));
  }
  for (const field of env.choices.requiredAccountFields) {
    for (const attr of missingAt(account, field.split('.')))
      errors.push(fieldError(attr, 'required', 'This field is required.'));
  }
  for (const error of dateRangeErrors(account)) errors.push(error);
  const remaining = errors.filter(env.checks.reportsError);
  return remaining.length ? { ok: false, errors: remaining } : result;
}

/** The attrs at which a required path (`customers.*.account_roles`) has no value. */
function missingAt(node: unknown, parts: string[], at: string[] = []): string[] {
  if (parts.length === 0) return node === undefined ? [dotPath(at)] : [];
  const [head, ...rest] = parts;
  if (head === '*')
    return Array.isArray(node) ? node.flatMap((item, i) => missingAt(item, rest, [...at, String(i)])) : [];
  if (node === null || typeof node !== 'object') return at.length === 0 ? [head] : [];
  return missingAt((node as Record<string, unknown>)[head], rest, [...at, head]);
}

/** Ranges that end before they start. The spec does not state this rule; the reference reads it in. */
function dateRangeErrors(account: AccountPayload): ErrorItem[] {
  const errors: ErrorItem[] = [];
  // A server that reports fewer errors (§7.1 reportsError) lets through data of the wrong shape, so nothing here trusts the types.
  const list = (value: unknown): Record<string, unknown>[] =>
    Array.isArray(value) ? value.filter((v) => v && typeof v === 'object') : [];
  const check = (item: Record<string, unknown>, path: string, from: string, to: string, strict: boolean) => {
    const a = item[from];
    const b = item[to];
    if (typeof a === 'string' && typeof b === 'string' && (strict ? a >= b : a > b)) {
      errors.push(fieldError(`${path}.${to}`, 'invalid_date_range', `${to} must be after ${from}.`));
    }
  };
  list(account.supply_addresses).forEach((group, g) =>
    list(group.supply_points).forEach((point, p) => {
      const at = `supply_addresses.${g}.supply_points.${p}`;
      list(point.agreements).forEach((a, i) =>
        check(a, `${at}.agreements.${i}`, 'effective_from', 'effective_to', false),
      );
      list(point.readings).forEach((r, i) => check(r, `${at}.readings.${i}`, 'interval_start', 'interval_end', true));
      list(point.billable_items).forEach((b, i) =>
        check(b, `${at}.billable_items.${i}`, 'interval_start', 'interval_end', false),
      );
    }),
  );
  list(account.statements).forEach((s, i) =>
    check(s, `statements.${i}`, 'bill_period_from_date', 'bill_period_to_date', false),
  );
  return errors;
}

export const validateAccount: Handler = (req, env) => {
  const result = checkAccountPayload(req.body, env);
  // §4.1: "200 with the validated data as body"; nothing is staged.
  return result.ok ? reply(200, result.data) : validationError(result.errors, ACCOUNT_FAILED_VALIDATION);
};

export const stageAccount: Handler = (req, env) => {
  const result = checkAccountPayload(req.body, env);
  if (!result.ok) return validationError(result.errors, ACCOUNT_FAILED_VALIDATION);
  const payload = result.data;
  const { store, choices } = env;
  const supplier = store.suppliers.get(payload.import_supplier)!;
  const existing = store.process(payload.import_supplier, payload.external_account_number);
  if (supplier.status !== 'Ongoing' && env.checks.refusesStagingFor(supplier.status, !!existing))
    return choices.stagingRefused(supplier.status);
  if (existing?.account) return choices.alreadyImported(payload.external_account_number, existing.account.number);
  if (store.isSkipped(payload.import_supplier, payload.external_account_number))
    return choices.stagingRefused('skipped');
  if (existing?.inProgress) return choices.processRefused('in_progress');

  const body = { import_supplier: payload.import_supplier, external_account_number: payload.external_account_number };
  if (existing) {
    existing.payload = payload; // §3: staged again, data replaced
    return reply(200, body);
  }
  store.putProcess({
    supplier: payload.import_supplier,
    externalAccountNumber: payload.external_account_number,
    payload,
    inProgress: false,
    account: null,
  });
  return reply(201, body);
};

export const processAccount: Handler = async (req, env) => {
  const request = parseBody(strictModel.ProcessAccountRequest, req.body, env);
  if (isReply(request)) return request;
  const { store, choices } = env;
  const supplier = store.suppliers.get(request.import_supplier_code);
  if (!supplier)
    return validationError([
      fieldError('import_supplier_code', 'does_not_exist', 'No import supplier with this code.'),
    ]);

  const process = store.process(request.import_supplier_code, request.external_account_number);
  if (!process) return choices.processRefused('not_staged');
  if (process.account) return choices.alreadyImported(process.externalAccountNumber, process.account.number);
  if (supplier.status !== 'Ongoing' && env.checks.refusesProcessingFor(supplier.status))
    return choices.stagingRefused(supplier.status);
  if (!store.operationsTeams.has(request.operations_team_name)) return choices.processRefused('team');
  if (process.inProgress) return choices.processRefused('in_progress');
  const limit = store.settings.concurrencyLimit;
  if (env.checks.concurrencyLimited && limit !== null && store.processing >= limit) {
    // Retry-After: when a slot is expected to free, from the processing time (0 when it is quick).
    return choices.tooManyRequests(Math.round(store.settings.processingDelayMs / 1000));
  }

  const done = store.startProcessing();
  process.inProgress = true;
  try {
    await delay(processingTime(store));
    // §4.1 rule 2: a dry run performs the full creation, then rolls it back.
    const account = buildAccount(process, env);
    if (request.dry_run === true) return choices.dryRunWouldSucceed();
    account.number = choices.accountNumber(store.nextAccountSequence());
    process.account = account;
    return reply(201, { service_account_number: account.number });
  } finally {
    done();
    process.inProgress = false;
  }
};

/**
 * How long processing an account takes: the configured time, and longer once more accounts are being
 * processed than the enabled limit allows, which only a server that does not apply its limit reaches.
 * The limit stands for what the service can work on at once; each account beyond it adds one
 * processing time, as work queued behind a full service would. It also keeps those accounts
 * IN_PROGRESS long enough for a client's status reads to see more than the limit together
 * (suites/limits.ts), which at 15 ms per account two rounds of reads often missed.
 */
function processingTime(store: ReferenceStore): number {
  const { processingDelayMs, concurrencyLimit } = store.settings;
  if (concurrencyLimit === null || store.processing <= concurrencyLimit) return processingDelayMs;
  return processingDelayMs * (store.processing - concurrencyLimit + 1);
}

/** Creates the live account from the staged payload (its number is assigned once it is kept). */
function buildAccount(process: ImportProcess, env: ServerEnv): Account {
  const payload = process.payload;
  const now = formatDateTime(localNow(env));
  const ledgers = new Map<string, StoredLedger>();
  const transactionIds = new Set<string>();
  const transactions = [];
  for (const ledger of payload.ledgers ?? []) {
    if (ledger.ledger_code === undefined) continue;
    ledgers.set(ledger.ledger_code, {
      code: ledger.ledger_code,
      hasFinalizedBillingDocument: false,
      lastStatementClosingDate: ledger.last_statement_closing_date,
    });
    for (const tx of [
      ...(ledger.current_statement_transactions ?? []),
      ...(ledger.historical_statement_transactions ?? []),
    ]) {
      transactions.push(tx);
      if (tx.transaction_id !== undefined) transactionIds.add(tx.transaction_id);
    }
  }
  const supplyPoints = new Map<string, { identifier: string; agreements: unknown[] }>();
  for (const group of payload.supply_addresses ?? []) {
    for (const point of group.supply_points ?? []) {
      if (point.identifier !== undefined)
        supplyPoints.set(point.identifier, { identifier: point.identifier, agreements: [...(point.agreements ?? [])] });
    }
  }
  return {
    number: '',
    supplier: process.supplier,
    externalAccountNumber: process.externalAccountNumber,
    createdAt: now,
    payload,
    notes: (payload.notes ?? []).map((n) => ({
      body: n.body ?? null,
      createdAt: n.created_at ?? now,
      documentPaths: documentPathsOf(n.document_paths),
      isPinned: n.is_pinned ?? false,
    })),
    transactionIds,
    transactions,
    ledgers,
    historicalStatements: [],
    billingDocuments: [],
    paymentInstructions: [],
    supplyPoints,
  };
}

/**
 * §4.2 "a transaction dated outside the open statement period": the reference opens the period the
 * day after the latest `last_statement_closing_date` of the account's ledgers (how the period is
 * defined is not shown). Without a closing date every date is inside it.
 */
export function openStatementPeriodStart(account: Account): string | null {
  let latest: string | undefined;
  for (const ledger of account.ledgers.values()) {
    const closing = ledger.lastStatementClosingDate;
    if (closing !== undefined && (latest === undefined || closing > latest)) latest = closing;
  }
  return latest === undefined ? null : nextDay(latest);
}

/** The open statement period, `[from, to]` inclusive; either end may be open (null). */
export function openStatementPeriod(account: Account, env: ServerEnv): { from: string | null; to: string | null } {
  const days = env.choices.openPeriodEndsAfterDays;
  const to = days === null ? null : formatDate(new Date(env.now().getTime() + days * 86_400_000));
  return { from: openStatementPeriodStart(account), to };
}

export type { Reply };

/** This area's endpoints and their handlers (reference/areas.ts registers the area). */
export const handlers = { validateAccount, stageAccount, processAccount } satisfies Partial<
  Record<EndpointId, Handler>
>;
