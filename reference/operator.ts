/**
 * The operator API: what the spec leaves to the service operator, under its own prefix and its own
 * key (`X-Operator-Key`), never reachable with a data-import token. Documented in reference/README.md.
 */
import { z } from 'zod';
import { refusal, reply, type Reply } from './reply.js';
import {
  AccountKeySeed,
  SeedDocument,
  SettingsPatch,
  SupplierSeed,
  VendorInstructionSeed,
  applySeed,
  applySettings,
} from './seed.js';
import type { Handler, ServerEnv } from './handlers/shared.js';
import { isReply } from './handlers/shared.js';
import type { Settings, Supplier } from './store.js';
import { validate, validationError } from './validation.js';

export const OPERATOR_PREFIX = '/_operator/';
export const OPERATOR_KEY_HEADER = 'x-operator-key';

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> | Reply {
  const result = validate(schema, body);
  return result.ok ? result.data : validationError(result.errors);
}

const supplierView = (s: Supplier) => ({ code: s.code, status: s.status, document_root: s.documentRoot });
const settingsView = (s: Settings) => ({
  concurrency_limit: s.concurrencyLimit,
  processing_delay_ms: s.processingDelayMs,
  token_ttl_seconds: s.tokenTtlSeconds,
  response_delay_ms: s.responseDelayMs,
  account_types: s.accountTypes,
  business_types: s.businessTypes,
});

// No defaults here: a patch must leave what it does not name unchanged.
const SupplierPatch = z.strictObject({
  status: SupplierSeed.shape.status.optional(),
  document_root: z.string().optional(),
});

const state: Handler = (_req, env) => {
  const { store } = env;
  return reply(200, {
    suppliers: [...store.suppliers.values()].map(supplierView),
    operations_teams: [...store.operationsTeams],
    vendor_instructions: [...store.vendorInstructions.values()],
    settings: settingsView(store.settings),
    counts: {
      import_processes: store.processes.size,
      accounts: [...store.processes.values()].filter((p) => p.account).length,
      businesses: store.businesses.length,
      tokens: store.tokens.size,
    },
    processing: store.processing,
    storage: {
      limits: {
        max_accounts_per_supplier: store.limits.maxAccountsPerSupplier,
        max_bytes_per_supplier: store.limits.maxBytesPerSupplier,
        max_bytes_total: store.limits.maxBytesTotal,
      },
      bytes_total: store.storage.totalBytes,
      by_supplier: Object.fromEntries(
        [...new Set([...store.suppliers.keys(), ...store.storage.suppliers()])].map((code) => [
          code,
          { accounts: store.processCount(code), bytes: store.storage.bytesOf(code) },
        ]),
      ),
    },
  });
};

const setup: Handler = (req, env) => {
  const seed = parse(SeedDocument, req.body);
  if (isReply(seed)) return seed;
  applySeed(env.store, seed);
  return reply(200, { applied: true });
};

const reset: Handler = (req, env) => {
  const seed = req.body === undefined ? {} : parse(SeedDocument, req.body);
  if (isReply(seed)) return seed;
  env.store.reset();
  applySeed(env.store, seed);
  return reply(200, { reset: true });
};

const putSupplier: Handler = (req, env) => {
  const patch = parse(SupplierPatch, req.body);
  if (isReply(patch)) return patch;
  const code = req.params.code;
  const existing = env.store.suppliers.get(code);
  if (!existing && patch.status === undefined) return refusal(400, 'status_required', 'A new supplier needs a status.');
  const supplier = {
    code,
    status: patch.status ?? existing!.status,
    documentRoot: patch.document_root ?? existing?.documentRoot ?? '',
  };
  env.store.suppliers.set(code, supplier);
  return reply(existing ? 200 : 201, supplierView(supplier));
};

const addTeam: Handler = (req, env) => {
  const body = parse(z.strictObject({ name: z.string().min(1) }), req.body);
  if (isReply(body)) return body;
  env.store.operationsTeams.add(body.name);
  return reply(201, body);
};

const addSkipped: Handler = (req, env) => {
  const body = parse(AccountKeySeed, req.body);
  if (isReply(body)) return body;
  env.store.markSkipped(body.import_supplier, body.external_account_number);
  return reply(201, body);
};

const putVendorInstruction: Handler = (req, env) => {
  const body = parse(VendorInstructionSeed.omit({ vendor: true, reference: true }).strict(), req.body);
  if (isReply(body)) return body;
  const instruction = { vendor: req.params.vendor, reference: req.params.reference, ...body };
  env.store.putVendorInstruction(instruction);
  return reply(200, instruction);
};

const patchSettings: Handler = (req, env) => {
  const patch = parse(SettingsPatch, req.body);
  if (isReply(patch)) return patch;
  applySettings(env.store, patch);
  return reply(200, settingsView(env.store.settings));
};

const addToken: Handler = (req, env) => {
  const body = parse(z.strictObject({ token: z.string().min(1) }), req.body);
  if (isReply(body)) return body;
  env.store.tokens.set(body.token, { expiresAt: null });
  return reply(201, { added: true });
};

const addApiKey: Handler = (req, env) => {
  const body = parse(z.strictObject({ api_key: z.string().min(1) }), req.body);
  if (isReply(body)) return body;
  env.store.apiKeys.add(body.api_key);
  return reply(201, { added: true });
};

export interface OperatorRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  path: string;
  summary: string;
  handler: Handler;
}

export const operatorRoutes: OperatorRoute[] = [
  {
    method: 'GET',
    path: '/_operator/state',
    summary:
      'suppliers, teams, vendor instructions, settings, counts, and stored accounts and bytes against the limits',
    handler: state,
  },
  {
    method: 'POST',
    path: '/_operator/setup',
    summary:
      'merge a seed document (suppliers, operations_teams, skipped_accounts, vendor_instructions, api_keys, tokens, settings)',
    handler: setup,
  },
  {
    method: 'POST',
    path: '/_operator/reset',
    summary: 'forget everything, then apply the seed document in the body, if any',
    handler: reset,
  },
  {
    method: 'PUT',
    path: '/_operator/suppliers/{code}',
    summary: 'create or change an import supplier: {status, document_root}',
    handler: putSupplier,
  },
  {
    method: 'POST',
    path: '/_operator/operations-teams',
    summary: 'create an operations team: {name}',
    handler: addTeam,
  },
  {
    method: 'POST',
    path: '/_operator/skipped-accounts',
    summary: 'mark an account to be skipped: {import_supplier, external_account_number}',
    handler: addSkipped,
  },
  {
    method: 'PUT',
    path: '/_operator/vendor-instructions/{vendor}/{reference}',
    summary: 'define an upstream instruction: {type?, behaviour: ok | persistent_failure | intermittent_failure}',
    handler: putVendorInstruction,
  },
  {
    method: 'PATCH',
    path: '/_operator/settings',
    summary:
      'change {concurrency_limit, processing_delay_ms, token_ttl_seconds, response_delay_ms, account_types, business_types}',
    handler: patchSettings,
  },
  { method: 'POST', path: '/_operator/tokens', summary: 'add a static data-import token: {token}', handler: addToken },
  {
    method: 'POST',
    path: '/_operator/api-keys',
    summary: 'add an organisation API key for ObtainServiceToken: {api_key}',
    handler: addApiKey,
  },
];

/** `GET /_operator/`: the operator API describes itself. */
export const operatorIndex: Handler = () =>
  reply(200, {
    authentication: `header ${OPERATOR_KEY_HEADER}: <operator key>`,
    routes: operatorRoutes.map(({ method, path, summary }) => ({ method, path, summary })),
  });

export type { ServerEnv };
