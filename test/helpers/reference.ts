/** Starts a reference server for one test file and offers the steps most tests need. */
import { afterAll, beforeAll, expect } from 'vitest';
import { startReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../reference/index.js';
import { client, unique, type Call } from './http.js';

export const SUPPLIER = 'SUPPLIER_ONGOING';
export const OTHER_SUPPLIER = 'SUPPLIER_OTHER';
export const TEAM = 'Migrations';

export const PATHS = {
  validate: '/v1/data-import/validate-account/',
  stage: '/v1/data-import/account-import-process/create-or-update/',
  process: '/v1/data-import/account-import-process/process/',
  notes: '/v1/data-import/notes/create/',
  agreements: '/v1/data-import/agreements/create/',
  supplyPoints: '/v1/data-import/supply-points/create/',
  transactions: '/v1/data-import/transactions/create/',
  billingDocuments: '/v1/data-import/historical-billing-documents/create/',
  statements: '/v1/data-import/historical-statements/create/',
  paymentInstruction: '/v1/data-import/payment-instruction/create/',
  status: (supplier: string, ext: string) =>
    `/v1/data-import/account-transfer-status/${encodeURIComponent(supplier)}/${encodeURIComponent(ext)}/`,
  all: (supplier: string) => `/v1/data-import/all-account-import-processes/${encodeURIComponent(supplier)}/`,
  pending: (supplier: string) => `/v1/data-import/pending-account-import-processes/${encodeURIComponent(supplier)}/`,
  imported: (supplier: string) => `/v1/data-import/imported-account-import-processes/${encodeURIComponent(supplier)}/`,
  business: '/v1/data-import/business/',
  businessPaymentInstruction: '/v1/data-import/business-payment-instruction/create/',
};

export interface Harness {
  server: ReferenceServer;
  call: Call;
  operator(method: string, path: string, body?: unknown): ReturnType<Call>;
}

/** Registers beforeAll/afterAll hooks; the returned object is filled in once the server is up. */
export function useReferenceServer(options: ReferenceServerOptions = {}): Harness {
  const harness = {} as Harness;
  beforeAll(async () => {
    harness.server = await startReferenceServer(options);
    harness.call = client(harness.server.url);
    const operatorCall = client(harness.server.url, null);
    harness.operator = (method, path, body) =>
      operatorCall(method, path, { body, headers: { 'x-operator-key': harness.server.operatorKey } });
  });
  afterAll(async () => {
    await harness.server?.close();
  });
  return harness;
}

/** A small valid account payload with one ledger, so transactions have an open statement period. */
export function account(ext = unique('EXT'), extra: Record<string, unknown> = {}) {
  return {
    import_supplier: SUPPLIER,
    external_account_number: ext,
    ledgers: [{ ledger_code: `${ext}-L1`, last_statement_closing_date: '2024-05-31' }],
    ...extra,
  };
}

export async function stage(call: Call, payload: Record<string, unknown>): Promise<void> {
  const res = await call('POST', PATHS.stage, { body: payload });
  expect(res.status, res.text).toBeOneOf([200, 201]);
}

export async function processAccount(
  call: Call,
  ext: string,
  extra: Record<string, unknown> = {},
  supplier = SUPPLIER,
) {
  return call('POST', PATHS.process, {
    body: { external_account_number: ext, import_supplier_code: supplier, operations_team_name: TEAM, ...extra },
  });
}

/** Stages and processes an account; returns its external and service account numbers. */
export async function importAccount(call: Call, payload: Record<string, unknown> = account()) {
  await stage(call, payload);
  const res = await processAccount(
    call,
    payload.external_account_number as string,
    {},
    payload.import_supplier as string,
  );
  expect(res.status, res.text).toBe(201);
  return { ext: payload.external_account_number as string, number: res.body.service_account_number as string, payload };
}

/** A reference server seeded as the embedded one, with `faults`, and a folder whose config aims at it. */
export interface ConfiguredTarget {
  server: ReferenceServer;
  /** A temporary folder holding `conformance.config.yaml` for the server (the run token configured). */
  dir: string;
}

/** Registers beforeAll/afterAll hooks for a `ConfiguredTarget`; filled in once the server is up. */
export function useConfiguredTarget(faults: string[], prefix: string): ConfiguredTarget {
  const target = {} as ConfiguredTarget;
  beforeAll(async () => {
    const [{ embeddedSeed }, { DEFAULT_TOKEN }, { fullConfig }, fs, os, path] = await Promise.all([
      import('../../app/embedded.js'),
      import('../../reference/index.js'),
      import('./config.js'),
      import('node:fs'),
      import('node:os'),
      import('node:path'),
    ]);
    target.server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }), faults });
    target.dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    fs.writeFileSync(
      path.join(target.dir, 'conformance.config.yaml'),
      fullConfig(target.server.url, `  token: ${DEFAULT_TOKEN}`),
    );
  });
  afterAll(() => target.server?.close());
  return target;
}
