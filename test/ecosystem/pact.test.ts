/**
 * `conformance pact export | verify`: a Pact V4 contract built with @pact-foundation/pact from the
 * spec model and the fixtures, verified against the reference server — clean when faithful, failing
 * when a fault breaks a documented response — and a clear message when the library is missing.
 * Pact starts native mock servers and a verifier: everything stays on 127.0.0.1, timeouts are generous.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../reference/index.js';
import { createPactCommand } from '../../app/cli/pact.js';
import { exportContract } from '../../app/ecosystem/pact/export.js';
import {
  CONSUMER,
  CONTRACT_FILE,
  INVALID_ACCOUNT_DEFECT,
  NOT_IN_CONTRACT,
  PROVIDER,
  contractInteractions,
} from '../../app/ecosystem/pact/interactions.js';
import {
  PACT_INSTALL_COMMAND,
  PactUnavailableError,
  loadPact,
  type PactLibrary,
} from '../../app/ecosystem/pact/library.js';
import { STATES } from '../../app/ecosystem/pact/states.js';
import type { VerifyResult } from '../../app/ecosystem/pact/verify.js';
import { embeddedFixtures } from '../../app/embedded.js';
import { type EndpointSpec, model } from '../../core/spec/index.js';
import { runCli } from '../helpers/cli.js';
import { fullConfig } from '../helpers/config.js';

const SLOW = 60_000;
const execFileAsync = promisify(execFile);

interface PactFile {
  consumer: { name: string };
  provider: { name: string };
  metadata: { pactSpecification: { version: string } };
  interactions: {
    type: string;
    description: string;
    providerStates?: { name: string; params?: Record<string, unknown> }[];
    request: {
      method: string;
      path: string;
      headers?: Record<string, string[]>;
      body?: { content: unknown };
      generators?: Record<string, unknown>;
    };
    response: {
      status: number;
      body?: { content: unknown };
      matchingRules?: { body?: Record<string, { matchers: { match: string }[] }> };
    };
  }[];
}

let pact: PactLibrary;
let contractFile: string;
let contract: PactFile;

beforeAll(async () => {
  pact = await loadPact();
  const dir = mkdtempSync(join(tmpdir(), 'pact-export-'));
  contractFile = (await exportContract({ dir, pact })).file;
  contract = JSON.parse(readFileSync(contractFile, 'utf8')) as PactFile;
}, SLOW);

/** The endpoint an interaction's request is for (paths in the file are the examples). */
function endpointOf(method: string, path: string): EndpointSpec {
  const found = Object.values(model.endpoints).find(
    (e) => e.method === method && new RegExp(`^${e.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(path),
  );
  if (!found) throw new Error(`no endpoint for ${method} ${path}`);
  return found;
}

describe('pact export', () => {
  it('writes one Pact V4 contract between import-supplier and data-import-service', () => {
    expect(contractFile.endsWith(CONTRACT_FILE)).toBe(true);
    expect(contract.metadata.pactSpecification.version).toBe('4.0');
    expect(contract.consumer.name).toBe(CONSUMER);
    expect(contract.provider.name).toBe(PROVIDER);
    expect(contract.interactions).toHaveLength(contractInteractions(pact.MatchersV3).length);
    expect(new Set(contract.interactions.map((i) => i.description)).size).toBe(contract.interactions.length);
    for (const i of contract.interactions) expect(i.type).toBe('Synchronous/HTTP');
  });

  it('has an interaction for every documented case a provider state can set up, each with its states', () => {
    const cases = contract.interactions.map(
      (i) => `${endpointOf(i.request.method, i.request.path).id} ${i.response.status}`,
    );
    for (const expected of [
      'stageAccount 201',
      'stageAccount 200',
      'stageAccount 400',
      'validateAccount 200',
      'validateAccount 400',
      'processAccount 201',
      'processAccount 400',
      'createNotes 201',
      'createNotes 404',
      'createTransactions 201',
      'createTransactions 400',
      'createHistoricalBillingDocuments 201',
      'createHistoricalStatements 201',
      'createPaymentInstruction 201',
      'createPaymentInstruction 400',
      'createPaymentInstruction 500',
      'createBusinessPaymentInstruction 201',
      'createBusinessPaymentInstruction 401',
      'accountTransferStatus 200',
      'accountTransferStatus 404',
      'allAccountImportProcesses 200',
      'pendingAccountImportProcesses 200',
      'importedAccountImportProcesses 200',
      'createBusiness 201',
    ])
      expect(cases).toContain(expected);
    expect(cases.join()).not.toMatch(/createAgreements|createSupplyPoints/);
    const known = new Set(STATES.map((s) => s.name));
    for (const i of contract.interactions) {
      if (i.response.status === 401) {
        expect(i.providerStates ?? []).toEqual([]);
        expect(i.request.headers?.Authorization).toBeUndefined();
        continue;
      }
      expect(i.providerStates?.length, i.description).toBeGreaterThan(0);
      for (const s of i.providerStates!) expect(known.has(s.name as never), s.name).toBe(true);
      expect(i.request.headers?.Authorization?.[0], i.description).toBe('Token ACCESS_TOKEN');
    }
    const already = contract.interactions.find((i) => i.description.includes('already imported'))!;
    expect(Object.keys(already.response.matchingRules?.body ?? {})).toEqual(
      expect.arrayContaining(['$.external_account_number', '$.service_account_number']),
    );
  });

  it('covers every endpoint of the model, or says why it leaves the whole endpoint out', () => {
    // Derived from the model, not retyped: an endpoint added to the model with no interaction fails here.
    const inContract = new Set(contract.interactions.map((i) => endpointOf(i.request.method, i.request.path).id));
    const leftOut = new Set(NOT_IN_CONTRACT.filter((n) => n.case === undefined).map((n) => n.endpoint));
    const missing = Object.values(model.endpoints)
      .map((e) => e.id)
      .filter((id) => !inContract.has(id) && !leftOut.has(id));
    expect(missing).toEqual([]);
    for (const id of leftOut) expect(inContract.has(id), `${id} is left out, yet in the contract`).toBe(false);
  });

  it('injects the identifiers the provider creates from provider state', () => {
    const stage = contract.interactions.find((i) => i.description.startsWith('stage: the first'))!;
    const generators = (stage.request.generators as { body: Record<string, { type: string; expression: string }> })
      .body;
    expect(generators['$.external_account_number']).toEqual({
      type: 'ProviderState',
      expression: '${external_account_number}',
    });
    expect(generators['$.import_supplier'].expression).toBe('${import_supplier}');
    expect(Object.keys(generators)).toEqual(
      expect.arrayContaining(['$.ledgers[0].ledger_code', '$.customers[0].email']),
    );
    const status = contract.interactions.find((i) => i.description.startsWith('status: an imported'))!;
    expect(status.request.generators).toMatchObject({
      path: {
        type: 'ProviderState',
        expression: expect.stringContaining('${import_supplier}/${external_account_number}/'),
      },
    });
  });

  it('sends the canonical fixtures as request bodies, valid in the spec model (but for the one deliberate defect)', () => {
    let checked = 0;
    for (const i of contract.interactions) {
      const endpoint = endpointOf(i.request.method, i.request.path);
      if (!endpoint.body || i.request.body === undefined) continue;
      const parsed = endpoint.body.safeParse(i.request.body.content);
      if (i.description.includes('invalid')) {
        expect(parsed.success).toBe(false);
        expect(parsed.error!.issues.map((x) => x.path.join('.'))).toEqual([INVALID_ACCOUNT_DEFECT.path]);
      } else {
        expect(parsed.success, `${i.description}: ${parsed.error?.message}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(15);
  });

  it('matches responses by type, format and documented values, never message wording', () => {
    for (const i of contract.interactions) {
      for (const [path, rule] of Object.entries(i.response.matchingRules?.body ?? {})) {
        if (/\.(detail|error_detail)$/.test(path))
          expect(
            rule.matchers.map((m) => m.match),
            `${i.description} ${path}`,
          ).toEqual(['type']);
      }
      if (i.response.body)
        expect(Object.keys(i.response.matchingRules?.body ?? {}).length, i.description).toBeGreaterThan(0);
    }
    const business = contract.interactions.find((i) => i.description.startsWith('business: '))!;
    expect(business.response.matchingRules?.body?.['$.service_business_id'].matchers[0].match).toBe('integer');
  });
});

describe('pact verify', () => {
  let faithful: ReferenceServer;
  beforeAll(async () => {
    faithful = await startReferenceServer({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await faithful?.close();
  });

  /**
   * verifyContract in a child process: the Pact verifier is native code that prints its report
   * straight to the process's stdout, where the test runner cannot hold it back; the child's output is
   * captured and dropped, and the result comes back through a file.
   */
  const verify = async (
    server: ReferenceServer,
    fixtures?: Awaited<ReturnType<typeof embeddedFixtures>>,
  ): Promise<VerifyResult> => {
    const resultFile = join(mkdtempSync(join(tmpdir(), 'pact-verify-')), 'result.json');
    const script = `
      import { writeFileSync } from 'node:fs';
      import { verifyContract } from ${JSON.stringify(new URL('../../dist/app/ecosystem/pact/verify.js', import.meta.url).href)};
      import { loadPact } from ${JSON.stringify(new URL('../../dist/app/ecosystem/pact/library.js', import.meta.url).href)};
      const options = JSON.parse(process.env.VERIFY_OPTIONS);
      writeFileSync(process.env.VERIFY_RESULT, JSON.stringify(await verifyContract({ ...options, pact: await loadPact() })));`;
    const options = {
      contractFile,
      baseUrl: server.url,
      auth: { token: 'reference-token' },
      fixtures: fixtures ?? (await embeddedFixtures()),
    };
    await execFileAsync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, VERIFY_OPTIONS: JSON.stringify(options), VERIFY_RESULT: resultFile },
      maxBuffer: 64 * 1024 * 1024,
      timeout: SLOW,
    });
    return JSON.parse(readFileSync(resultFile, 'utf8')) as VerifyResult;
  };

  it(
    'passes against the faithful reference server',
    async () => {
      const result = await verify(faithful);
      expect(result.stateErrors).toEqual([]);
      expect(result.outcomes.filter((o) => o.verdict !== 'pass')).toEqual([]);
      expect(result.outcomes).toHaveLength(contract.interactions.length);
      expect(result.passed).toBe(true);
    },
    SLOW,
  );

  it.each([
    ['business.id-as-string', 'business: a business with all its contracts', /service_business_id.*integer/],
    ['migration.stage.always-201', 'stage: staging an already staged account again', /expected 200 but was 201/],
    [
      'notes.results-without-created-at',
      'notes: new notes for an imported account',
      /missing the following keys: created_at/,
    ],
    ['status.staged-null-number', 'status: a staged account that is not created yet', /service_account_number/],
    [
      'payments.intermittent-as-400',
      'payment instruction: intermittent trouble at the upstream vendor',
      /expected 500 but was 400/,
    ],
  ])(
    'fails against the reference server with the fault %s',
    async (fault, description, reason) => {
      const server = await startReferenceServer({ port: 0, host: '127.0.0.1', faults: [fault] });
      try {
        const result = await verify(server);
        expect(result.passed).toBe(false);
        const failed = result.outcomes.filter((o) => o.verdict === 'fail');
        expect(failed.map((o) => o.description)).toContain(description);
        expect(failed.find((o) => o.description === description)!.reason).toMatch(reason);
      } finally {
        await server.close();
      }
    },
    SLOW,
  );

  it(
    'charges a provider state that cannot be set up to its interaction as an error, not a failure',
    async () => {
      const fixtures = await embeddedFixtures();
      fixtures.operations_team = 'No such team';
      const result = await verify(faithful, fixtures);
      const status = result.outcomes.find((o) => o.description === 'status: an imported account')!;
      expect(status.verdict).toBe('error');
      expect(status.reason).toMatch(
        /provider state "an imported account exists" could not be set up: could not process the account: POST .* answered 400/,
      );
      expect(result.outcomes.find((o) => o.description.startsWith('stage: the first'))!.verdict).toBe('pass');
      expect(result.passed).toBe(false);
    },
    SLOW,
  );

  it(
    'leaves out, and names the config key of, interactions whose fixtures are not configured',
    async () => {
      const fixtures = await embeddedFixtures();
      delete fixtures.import_suppliers!.paused;
      delete fixtures.payment_instruction!.references.persistent_failure;
      const result = await verify(faithful, fixtures);
      const skipped = result.outcomes.filter((o) => o.verdict === 'skip');
      expect(skipped.map((o) => o.key).sort()).toEqual([
        'fixtures.import_suppliers.paused',
        'fixtures.payment_instruction.references.persistent_failure',
      ]);
      expect(skipped[0].reason).toMatch(/provider state ".+" needs .+: set fixtures\./);
      expect(result.outcomes.filter((o) => o.verdict === 'fail')).toEqual([]);
      expect(result.passed).toBe(true);
    },
    SLOW,
  );
});

describe('conformance pact (CLI)', () => {
  let faithfulServer: ReferenceServer;
  let faithfulUrl: string;
  beforeAll(async () => {
    faithfulServer = await startReferenceServer({ port: 0, host: '127.0.0.1' });
    faithfulUrl = faithfulServer.url;
  });
  afterAll(async () => {
    await faithfulServer?.close();
  });

  it(
    'exports the contract and verifies the embedded reference server',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pact-cli-'));
      const exported = await runCli(['pact', 'export', '--out', 'contracts'], { cwd: dir, timeoutMs: SLOW });
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout).toMatch(
        /Wrote the Pact V4 contract between import-supplier and data-import-service \(\d+ interactions\)/,
      );
      expect(exported.stdout).toMatch(/not in the contract: createAgreements/);
      expect(existsSync(join(dir, 'contracts', CONTRACT_FILE))).toBe(true);

      const verified = await runCli(['pact', 'verify', '--pact', join('contracts', CONTRACT_FILE)], {
        cwd: dir,
        timeoutMs: SLOW,
      });
      expect(verified.code, verified.stdout + verified.stderr).toBe(0);
      expect(verified.stdout).toMatch(/embedded reference server/);
      expect(verified.stdout).toMatch(/\d+ passed, 0 failed, 0 could not be set up, 0 skipped/);
    },
    SLOW * 2,
  );

  it(
    'verifies a target given by --config, and exits 1 when it breaks the contract',
    async () => {
      const server = await startReferenceServer({ port: 0, host: '127.0.0.1', faults: ['business.id-as-string'] });
      try {
        const dir = mkdtempSync(join(tmpdir(), 'pact-cfg-'));
        writeFileSync(join(dir, 'conformance.config.yaml'), fullConfig(server.url, '  token: ${REFERENCE_TOKEN}'));
        const res = await runCli(['pact', 'verify', '--config', 'conformance.config.yaml', '--pact', contractFile], {
          cwd: dir,
          env: { REFERENCE_TOKEN: 'reference-token' },
          timeoutMs: SLOW,
        });
        expect(res.code, res.stdout + res.stderr).toBe(1);
        expect(res.stdout).toMatch(/FAIL {3}business: a business with all its contracts/);
        expect(res.stdout).toMatch(/1 failed, 0 could not be set up, 0 skipped/);
        expect(res.stdout + res.stderr).not.toContain('reference-token');
      } finally {
        await server.close();
      }
    },
    SLOW,
  );

  it(
    'with --base-url and no fixtures, verifies what needs none and names the keys for the rest',
    async () => {
      const res = await runCli(['pact', 'verify', '--base-url', faithfulUrl, '--pact', contractFile], {
        cwd: mkdtempSync(join(tmpdir(), 'pact-nocfg-')),
        env: { CONFORMANCE_TOKEN: 'reference-token' },
        timeoutMs: SLOW,
      });
      expect(res.code, res.stdout + res.stderr).toBe(0);
      expect(res.stdout).toMatch(/PASS {3}authentication: a request without a token/);
      expect(res.stdout).toMatch(
        /SKIP {3}stage: the first staging of a valid account payload\n\s+provider state "the supplier is ongoing" needs an Ongoing import supplier: set fixtures\.import_suppliers\.ongoing/,
      );
      // What needs no fixture is what needs no provider state (the 401s): counted from the contract.
      const stateless = contract.interactions.filter((i) => !i.providerStates?.length).length;
      expect(stateless).toBeGreaterThan(0);
      expect(res.stdout).toMatch(new RegExp(`\\b${stateless} passed, 0 failed, 0 could not be set up, \\d+ skipped`));
    },
    SLOW,
  );

  it(
    'exits 3 when the target is unreachable',
    async () => {
      const res = await runCli(['pact', 'verify', '--base-url', 'http://127.0.0.1:9', '--pact', contractFile], {
        env: { CONFORMANCE_TOKEN: 'x-token' },
        timeoutMs: SLOW,
      });
      expect(res.code, res.stdout + res.stderr).toBe(3);
      expect(res.stderr).toMatch(/unreachable/);
    },
    SLOW,
  );

  it(
    'exits 3 when the target refuses the token, without printing it',
    async () => {
      const res = await runCli(['pact', 'verify', '--base-url', faithfulUrl, '--pact', contractFile], {
        cwd: mkdtempSync(join(tmpdir(), 'pact-refused-')),
        env: { CONFORMANCE_TOKEN: 'not-the-token-4711' },
        timeoutMs: SLOW,
      });
      expect(res.code, res.stdout + res.stderr).toBe(3);
      expect(res.stderr).toMatch(/refused the token: GET \S+ answered 401/);
      expect(res.stdout + res.stderr).not.toContain('not-the-token-4711');
    },
    SLOW,
  );

  it(
    'exits 2 naming the missing credentials when there are none',
    async () => {
      const res = await runCli(['pact', 'verify', '--base-url', faithfulUrl, '--pact', contractFile], {
        cwd: mkdtempSync(join(tmpdir(), 'pact-nocreds-')),
        env: { CONFORMANCE_TOKEN: '', CONFORMANCE_API_KEY: '' },
        timeoutMs: SLOW,
      });
      expect(res.code, res.stdout + res.stderr).toBe(2);
      expect(res.stderr).toMatch(/No credentials for the target: set auth\.token or auth\.api_key/);
    },
    SLOW,
  );

  it('exits 2 with a usage error for a missing or unknown subcommand', async () => {
    const res = await runCli(['pact', 'publish']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/Unknown pact command "publish"/);
  });
});

describe('when @pact-foundation/pact is missing', () => {
  it('loadPact says so, with the install command', async () => {
    const error = await loadPact('@pact-foundation/not-installed-for-this-test').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PactUnavailableError);
    expect((error as Error).message).toMatch(/not installed/);
    expect((error as Error).message).toContain(PACT_INSTALL_COMMAND);
    expect(PACT_INSTALL_COMMAND).toBe('npm install @pact-foundation/pact@^16');
  });

  it.each([['export'], ['verify']])('pact %s prints the message and exits 2', async (sub) => {
    const command = createPactCommand(() => loadPact('@pact-foundation/not-installed-for-this-test'));
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args.join(' ')));
    try {
      expect(await command.run([sub])).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(errors.join('\n')).toContain('npm install @pact-foundation/pact@^16');
  });

  it('nothing but the loader names the package: the core runner never imports it', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (
          path.endsWith('.ts') &&
          path !== join('src', 'ecosystem', 'pact', 'library.ts') &&
          readFileSync(join(root, path), 'utf8').includes("'@pact-foundation/pact")
        )
          offenders.push(path);
      }
    };
    for (const dir of ['src', 'reference', 'suites', 'reports', 'generators'])
      if (existsSync(join(root, dir))) walk(dir);
    expect(offenders).toEqual([]);
  });
});
