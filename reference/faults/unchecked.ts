/**
 * Faults an implementation can have while every "happy" rule passes: dry runs that skip the
 * checks, processing for a Complete supplier, payment instructions stored for what does not exist,
 * a 500 for bad input, a token for any API key, and types and enums read leniently.
 */
import { reply } from '../reply.js';
import type { VendorInstruction } from '../store.js';
import { validationError } from '../validation.js';
import { body, clone, fault } from './helpers.js';
import type { Around, FaultBehaviour, FaultDefinition } from './types.js';

type ProcessBody = { import_supplier_code?: string; external_account_number?: string; dry_run?: unknown };
type InstructionBody = {
  import_supplier?: string;
  import_supplier_code?: string;
  external_account_number?: string;
  external_business_identifier?: string;
  vendor?: string;
  reference?: string;
  type?: string;
};

/** The same change of every value at `keys`, anywhere in an account payload, on validate and stage. */
function leniently(keys: readonly string[], change: (value: unknown) => unknown): FaultBehaviour {
  const wanted = new Set(keys);
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [
          k,
          wanted.has(k) ? (Array.isArray(v) ? v.map(change) : change(v)) : walk(v),
        ]),
      );
    return value;
  };
  const around: Around = (req, _env, next) =>
    next({ ...req, body: req.body && typeof req.body === 'object' ? walk(clone(req.body)) : req.body });
  return { around: { validateAccount: around, stageAccount: around } };
}

/** Runs the faithful payment-instruction handler as if the vendor had every instruction asked about. */
const vendorKnowsEverything: Around = (req, env, next) => {
  const b = body<InstructionBody>(req.body);
  if (
    typeof b.vendor !== 'string' ||
    typeof b.reference !== 'string' ||
    env.store.vendorInstruction(b.vendor, b.reference)
  )
    return next(req);
  const invented: VendorInstruction = { vendor: b.vendor, reference: b.reference, behaviour: 'ok' };
  env.store.putVendorInstruction(invented);
  try {
    return next(req);
  } finally {
    env.store.vendorInstructions.delete(JSON.stringify([b.vendor, b.reference]));
  }
};

export const uncheckedFaults: FaultDefinition[] = [
  // §4.1 process rule 2: dry runs --------------------------------------------------------------
  fault(
    {
      id: 'process.dry-run-unsupported',
      spec: '§4.1 (dry_run: boolean, optional), process rule 2',
      subtle: false,
      description: 'dry_run: true is refused as an unsupported field (a validation error on dry_run).',
    },
    {
      around: {
        processAccount: (req, _env, next) =>
          body<ProcessBody>(req.body).dry_run === true
            ? validationError([{ attr: 'dry_run', code: 'unsupported', detail: 'Dry runs are not supported.' }])
            : next(req),
      },
    },
  ),
  fault(
    {
      id: 'process.dry-run-skips-checks',
      spec: '§4.1 process rules 1 and 2 (the full creation runs), §2.2',
      subtle: true,
      description: 'A dry run for a staged account answers "would succeed" without checking the team or the supplier.',
    },
    {
      around: {
        processAccount: (req, env, next) => {
          const b = body<ProcessBody>(req.body);
          const process = env.store.process(b.import_supplier_code ?? '', b.external_account_number ?? '');
          return b.dry_run === true && process && !process.account ? env.choices.dryRunWouldSucceed() : next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'process.dry-run-imported-without-numbers',
      spec: '§4.1 process rule 3',
      subtle: true,
      description: 'A dry run for an imported account answers 400 without the external and service account numbers.',
    },
    {
      around: {
        processAccount: async (req, _env, next) => {
          const r = await next(req);
          if (body<ProcessBody>(req.body).dry_run !== true || r.status !== 400) return r;
          const {
            external_account_number: _e,
            service_account_number: _s,
            ...rest
          } = body<Record<string, unknown>>(r.body);
          return { ...r, body: rest };
        },
      },
    },
  ),
  fault(
    {
      id: 'process.complete-allowed',
      spec: '§2.2 (Complete: accounts that try to migrate get an error)',
      subtle: true,
      description: 'An account staged before its supplier was marked Complete can still be processed.',
    },
    {
      checks: (spec) => ({
        refusesProcessingFor: (status) => status !== 'Complete' && spec.refusesProcessingFor(status),
      }),
    },
  ),

  // §2.7 payment instructions on what does not exist --------------------------------------------
  fault(
    {
      id: 'payments.unknown-reference-stored',
      spec: '§2.7 (the service checks that the instruction exists)',
      subtle: false,
      description: 'An account payment instruction the vendor does not have is stored with 201.',
    },
    { around: { createPaymentInstruction: vendorKnowsEverything } },
  ),
  fault(
    {
      id: 'payments.staged-account-accepted',
      spec: '§1, §4.2 (data is added to an imported account)',
      subtle: true,
      description: 'A payment instruction for an account that is staged but not imported is accepted with 201.',
    },
    {
      around: {
        createPaymentInstruction: (req, env, next) => {
          const b = body<InstructionBody>(req.body);
          const process = env.store.process(b.import_supplier ?? '', b.external_account_number ?? '');
          return process && !process.account
            ? reply(201, { service_account_number: '', reference: b.reference })
            : next(req);
        },
      },
    },
  ),
  fault(
    {
      id: 'payments.unknown-business-accepted',
      spec: '§1, §4.4 (after a business exists, a payment instruction can be added)',
      subtle: false,
      description: 'A business payment instruction for a business that does not exist is accepted with 201.',
    },
    {
      around: {
        createBusinessPaymentInstruction: (req, env, next) => {
          const b = body<InstructionBody>(req.body);
          return env.store.business(b.import_supplier_code ?? '', b.external_business_identifier ?? '')
            ? next(req)
            : reply(201, { reference: b.reference, external_business_identifier: b.external_business_identifier });
        },
      },
    },
  ),

  // §7.2 bad input never gets a 5xx -------------------------------------------------------------
  fault(
    {
      id: 'errors.process-500-without-team',
      spec: '§7.2 (400: validation error on any endpoint)',
      subtle: false,
      description: 'A process request without operations_team_name answers 500.',
    },
    {
      around: {
        processAccount: (req, _env, next) =>
          req.body && typeof req.body === 'object' && !('operations_team_name' in req.body)
            ? reply(500, { detail: 'Internal server error.' })
            : next(req),
      },
    },
  ),
  fault(
    {
      id: 'errors.transactions-500-on-non-list',
      spec: '§7.2 (400: validation error on any endpoint)',
      subtle: true,
      description: 'A transactions request whose transactions is not a list answers 500.',
    },
    {
      around: {
        createTransactions: (req, _env, next) => {
          const b = req.body as { transactions?: unknown } | null;
          return b && typeof b === 'object' && 'transactions' in b && !Array.isArray(b.transactions)
            ? reply(500, { detail: 'Internal server error.' })
            : next(req);
        },
      },
    },
  ),

  // §5.1 the token mutation ----------------------------------------------------------------------
  fault(
    {
      id: 'auth.unknown-api-key-token',
      spec: '§5.1 (authenticated with the API key issued by the operator)',
      subtle: false,
      description: 'ObtainServiceToken issues a working token for an API key the operator never issued.',
    },
    { checks: () => ({ apiKeyMustBeIssued: false }) },
  ),

  // §2.3 types and enums -----------------------------------------------------------------------
  fault(
    {
      id: 'conventions.enum-case-insensitive',
      spec: '§2.3 supply point, §2.4 type',
      subtle: true,
      description: 'Enumerated values are read case-insensitively: gas is taken for GAS.',
    },
    leniently(['supply_type', 'type', 'billing_document_type'], (v) => (typeof v === 'string' ? v.toUpperCase() : v)),
  ),
  fault(
    {
      id: 'conventions.integer-fractions-accepted',
      spec: '§2.3 agreement and reading (integers)',
      subtle: true,
      description: 'Numbers with a fraction are rounded where an integer is due.',
    },
    leniently(['estimated_monthly_fee_in_cents', 'source', 'contractual_max_power'], (v) =>
      typeof v === 'number' ? Math.round(v) : v,
    ),
  ),
  fault(
    {
      id: 'conventions.boolean-anything-accepted',
      spec: '§2.3 (unknown_occupier, is_pinned: boolean)',
      subtle: true,
      description: 'Any value is taken for a boolean by its truthiness.',
    },
    leniently(['unknown_occupier', 'is_pinned'], (v) => (typeof v === 'boolean' ? v : Boolean(v))),
  ),
  fault(
    {
      id: 'conventions.boolean-strings-accepted',
      spec: '§2.3 (unknown_occupier, is_pinned: boolean)',
      subtle: true,
      description: 'The strings "true" and "false" are taken for booleans.',
      level: 'SHOULD',
      why: 'Many frameworks read these strings as booleans; refusing them is a reading of the boolean type, not a statement.',
    },
    leniently(['unknown_occupier', 'is_pinned'], (v) => (v === 'true' ? true : v === 'false' ? false : v)),
  ),
];
