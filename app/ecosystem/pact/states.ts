/**
 * The provider states of the contract, named after the preconditions the spec gives (§2.2 supplier
 * status, §3 staged / imported, §4.1 operations team, §2.7 upstream instructions). Each state is set
 * up on the provider with the runner's own setup steps (core/engine/given.ts) and configured fixtures
 * (docs/design.md §5), and returns the values the contract injects with `fromProviderState`: the
 * identifiers it created, fresh and namespaced, so a contract replays against a shared server.
 */
import { loadFixture } from '../../../core/spec/fixtures.js';
import type { Given } from '../../../core/engine/given.js';
import { IdRegistry, Ids } from '../../../core/engine/ids.js';
import { getAtPath, dotPath } from '../../../core/spec/paths.js';
import { namespacedAccount, namespacedBusiness } from '../../../core/engine/payloads.js';
import { type Need, type Preconditions, TO_IMPORT } from '../../../core/engine/needs.js';
import type { Api } from '../../../core/engine/api.js';
import { PreconditionError } from '../../../core/engine/failures.js';
import { snippet } from '../../../core/engine/expect.js';
import type { AccountPayload, BusinessRequest } from '../../../core/spec/index.js';

/** Names of the values states provide; the contract refers to them as `${name}`. */
export const VALUE = {
  supplier: 'import_supplier',
  account: 'external_account_number',
  serviceAccount: 'service_account_number',
  business: 'external_business_identifier',
  ledger: 'ledger_code',
  team: 'operations_team_name',
  vendor: 'vendor',
  reference: 'reference',
  instructionType: 'instruction_type',
  /** A fresh prefix for identifiers the request itself brings (transaction ids, statement ids). */
  namespace: 'namespace',
} as const;

export const STATE = {
  ongoing: 'the supplier is ongoing',
  paused: 'the supplier is paused',
  staged: 'an account is staged',
  imported: 'an imported account exists',
  importedWithLedger: 'an imported account exists with a ledger',
  importedWithNote: 'an imported account exists with a note',
  team: 'the operations team exists',
  business: 'a business exists',
  instruction: 'an upstream payment instruction exists',
  persistentTrouble: 'the payment vendor has persistent trouble',
  intermittentTrouble: 'the payment vendor has intermittent trouble',
} as const;

export type StateName = (typeof STATE)[keyof typeof STATE];

// Identifiers of the canonical payloads that a run replaces with fresh ones ---------------------

type Json = unknown;

/** Dot paths of the string leaves where two payloads differ. */
function differingPaths(a: Json, b: Json, path: string[] = [], out: string[] = []): string[] {
  if (typeof a === 'string' || typeof b === 'string') {
    if (a !== b) out.push(dotPath(path));
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const key of Object.keys(a))
      differingPaths((a as Record<string, Json>)[key], (b as Record<string, Json>)[key], [...path, key], out);
  }
  return out;
}

/** Identifiers made as a run makes them, under a fixed prefix: the contract's examples stay the same. */
export function probeIds(): Ids {
  return new Ids(new IdRegistry('probe', 'probe0'));
}

/** The account payload the contract sends to stage and validate: the electricity fixture without its business link. */
export function accountTemplate(): AccountPayload {
  const account = loadFixture<AccountPayload>('accounts/electricity');
  delete account.business; // §2.3: its position is not shown, and it needs a contract of a business.
  return account;
}

export function businessTemplate(): BusinessRequest {
  return loadFixture<BusinessRequest>('business/business');
}

const KEY_FIELDS = new Set([
  'import_supplier',
  'import_supplier_code',
  'external_account_number',
  'external_business_identifier',
]);

let accountPaths: string[] | undefined;
let businessPaths: string[] | undefined;

/**
 * Paths of the account template that a run makes unique (supply points, ledgers, statements,
 * transactions, e-mails, fiscal codes, note bodies), found by comparing the fixture with the
 * runner's namespaced copy of it (payloads.ts) — so both always agree.
 */
export function freshAccountPaths(): string[] {
  const template = accountTemplate();
  accountPaths ??= differingPaths(template, namespacedAccount(probeIds(), template.import_supplier)).filter(
    (p) => !KEY_FIELDS.has(p),
  );
  return accountPaths;
}

export function freshBusinessPaths(): string[] {
  const template = businessTemplate();
  businessPaths ??= differingPaths(
    template,
    namespacedBusiness(probeIds(), template.import_supplier_code, template.business?.business_contracts?.length ?? 2),
  ).filter((p) => !KEY_FIELDS.has(p));
  return businessPaths;
}

export const accountValueName = (path: string) => `account.${path}`;
export const businessValueName = (path: string) => `business.${path}`;

function accountValues(payload: AccountPayload): Record<string, Json> {
  return {
    [VALUE.supplier]: payload.import_supplier,
    [VALUE.account]: payload.external_account_number,
    ...Object.fromEntries(freshAccountPaths().map((p) => [accountValueName(p), getAtPath(payload, p) as Json])),
  };
}

function businessValues(payload: BusinessRequest): Record<string, Json> {
  return {
    [VALUE.business]: payload.external_business_identifier,
    ...Object.fromEntries(freshBusinessPaths().map((p) => [businessValueName(p), getAtPath(payload, p) as Json])),
  };
}

// The states -----------------------------------------------------------------------------------

export interface StateContext {
  given: Given;
  api: Api;
  ids: Ids;
  preconditions: Preconditions;
}

export interface StateDefinition {
  name: StateName;
  /** What the provider must be able to do or have (docs/design.md §5 fixtures). */
  needs: readonly Need[];
  /** What it means, for the contract's readers. */
  description: string;
  setup(ctx: StateContext, params: Record<string, unknown>): Promise<Record<string, Json>>;
}

async function importedAccount(ctx: StateContext, payload = ctx.given.account()): Promise<Record<string, Json>> {
  const account = await ctx.given.imported(payload);
  return {
    ...accountValues(account.payload),
    [VALUE.serviceAccount]: account.number,
    [VALUE.ledger]: account.payload.ledgers?.[0]?.ledger_code,
    [VALUE.namespace]: ctx.ids.other('X'),
  };
}

export const STATES: readonly StateDefinition[] = [
  {
    name: STATE.ongoing,
    needs: ['ongoingSupplier'],
    description:
      'An Ongoing import supplier (§2.2); provides fresh identifiers for an account and a business that do not exist yet.',
    async setup(ctx) {
      const supplier = ctx.preconditions.ongoingSupplier;
      return {
        ...accountValues(ctx.given.account(supplier)),
        ...businessValues(ctx.given.businessPayload(2, supplier)),
        [VALUE.supplier]: supplier,
        [VALUE.namespace]: ctx.ids.other('X'),
      };
    },
  },
  {
    name: STATE.paused,
    needs: ['pausedSupplier'],
    description: 'A Paused import supplier (§2.2); provides fresh identifiers for an account of it.',
    async setup(ctx) {
      return accountValues(ctx.given.account(ctx.preconditions.pausedSupplier));
    },
  },
  {
    name: STATE.staged,
    needs: ['ongoingSupplier'],
    description: 'An account of an Ongoing supplier is staged and not yet processed (§3 "staged").',
    async setup(ctx) {
      const staged = await ctx.given.staged();
      return { ...accountValues(staged.payload), [VALUE.namespace]: ctx.ids.other('X') };
    },
  },
  {
    name: STATE.imported,
    needs: TO_IMPORT,
    description: 'An account was staged and processed: it exists (§3 "imported", status COMPLETED).',
    setup: (ctx) => importedAccount(ctx),
  },
  {
    name: STATE.importedWithLedger,
    needs: TO_IMPORT,
    description:
      'An imported account with a ledger whose last statement closed on `last_statement_closing_date` (§2.3 ledger); its open statement period starts after that date.',
    async setup(ctx, params) {
      const payload = ctx.given.account();
      const closing = params.last_statement_closing_date;
      if (typeof closing === 'string' && payload.ledgers?.[0]) payload.ledgers[0].last_statement_closing_date = closing;
      return importedAccount(ctx, payload);
    },
  },
  {
    name: STATE.importedWithNote,
    needs: TO_IMPORT,
    description: 'An imported account that already has the note given by `body` and `created_at` (§4.2 notes rule 2).',
    async setup(ctx, params) {
      const values = await importedAccount(ctx);
      const note = { body: params.body, ...(params.created_at !== undefined ? { created_at: params.created_at } : {}) };
      const res = await ctx.api.call('createNotes', {
        body: {
          import_supplier: values[VALUE.supplier],
          external_account_number: values[VALUE.account],
          notes: [note],
        },
        step: 'setup: add the note',
      });
      if (res.status !== 201)
        throw new PreconditionError(
          `could not add the note: POST ${res.exchange.request.url} answered ${res.status}: ${snippet(res.text, 200)}`,
        );
      return values;
    },
  },
  {
    name: STATE.team,
    needs: ['operationsTeam'],
    description: 'The operations team named in a process request exists (§4.1 process rule 1).',
    async setup(ctx) {
      return { [VALUE.team]: ctx.preconditions.operationsTeam };
    },
  },
  {
    name: STATE.business,
    needs: ['ongoingSupplier'],
    description: 'A business with its contracts was created for an Ongoing supplier (§4.4).',
    async setup(ctx) {
      const business = await ctx.given.business();
      return { [VALUE.supplier]: business.supplier, ...businessValues(business.payload) };
    },
  },
  {
    name: STATE.instruction,
    needs: ['paymentInstruction'],
    description: 'A payment instruction exists at the upstream payment vendor (§2.7).',
    async setup(ctx) {
      const p = ctx.preconditions.paymentInstruction;
      return {
        [VALUE.vendor]: p.vendor,
        [VALUE.reference]: ctx.preconditions.nextValidPaymentReference(),
        [VALUE.instructionType]: p.type,
      };
    },
  },
  {
    name: STATE.persistentTrouble,
    needs: ['paymentInstruction', 'vendorPersistentFailure'],
    description:
      'The upstream payment vendor has persistent trouble with an instruction (§4.2: 400, not retried as is).',
    async setup(ctx) {
      const p = ctx.preconditions.paymentInstruction;
      return {
        [VALUE.vendor]: p.vendor,
        [VALUE.reference]: p.references.persistent_failure,
        [VALUE.instructionType]: p.type,
      };
    },
  },
  {
    name: STATE.intermittentTrouble,
    needs: ['paymentInstruction', 'vendorIntermittentFailure'],
    description: 'The upstream payment vendor has intermittent trouble with an instruction (§4.2: 500, retried as is).',
    async setup(ctx) {
      const p = ctx.preconditions.paymentInstruction;
      return {
        [VALUE.vendor]: p.vendor,
        [VALUE.reference]: p.references.intermittent_failure,
        [VALUE.instructionType]: p.type,
      };
    },
  },
];

export function stateByName(name: string): StateDefinition | undefined {
  return STATES.find((s) => s.name === name);
}
