/**
 * `conformance pact export | verify`: a Pact V4 contract of the interface, for consumer-driven
 * contract testing. Needs the optional dependency @pact-foundation/pact, loaded only here.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { PactLibrary } from '../ecosystem/pact/library.js';
import type { Command } from './usage.js';
import { EXIT, UsageError, parseCommandLine } from './usage.js';

const help = `Usage: conformance pact export [--out DIR]
       conformance pact verify [--base-url URL] [--config FILE] [options]

A Pact V4 contract between the consumer "import-supplier" and the provider
"data-import-service": one interaction per documented success and error case of the spec that a
provider state can set up (agreements and supply points are left out: their payload shape is not
shown, §4.2). Request bodies are the suite's canonical fixtures; responses are matchers derived
from the spec model (types, formats, documented values), never message wording (§7.1). An
endpoint with no interactions written for it gets them from its driver: its valid request, the
staged-only 404 where documented, and the 401.
Uses the optional dependency @pact-foundation/pact, which npm ci installs; after an install
with --omit=optional: npm install @pact-foundation/pact@^16.

export   Writes the contract by running each interaction against Pact's mock server.
  --out DIR              directory for import-supplier-data-import-service.json (default: pacts)

verify   Replays the contract against an implementation with the Pact Verifier. Provider states
         are set up with the suite's own setup steps and configured fixtures (supplier codes by
         status, operations team, payment references), with fresh namespaced identifiers; the
         configured token (or API key exchange) is sent on every request that carries one.
         Without a base URL it verifies the embedded reference server.
  --base-url URL         the implementation under test
  --config FILE          configuration file (default: ./conformance.config.yaml when present)
  --pact FILE            the contract to verify (default: the suite's own, generated afresh)
  --id-prefix P          prefix of every identifier the verification creates (default cf)
  --timeout MS           per-request timeout of the setup steps (default 10000)
  --log-level L          Pact's log level: error (default), warn, info, debug, trace

Exit codes: 0 the contract holds; 1 an interaction failed or a provider state could not be set
up; 2 usage or configuration error, or @pact-foundation/pact missing; 3 target unreachable or
authentication failed.

Examples:
  npx conformance pact export --out pacts/
  npx conformance pact verify --base-url https://staging.example.com --config conformance.config.yaml`;

const options = {
  out: { type: 'string' },
  'base-url': { type: 'string' },
  config: { type: 'string' },
  pact: { type: 'string' },
  'id-prefix': { type: 'string' },
  timeout: { type: 'string' },
  'log-level': { type: 'string' },
} as const;

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

type Loader = () => Promise<PactLibrary>;

async function exportCommand(values: { out?: string; 'log-level'?: LogLevel }, loader: Loader): Promise<number> {
  const pact = await loader();
  const { exportContract } = await import('../ecosystem/pact/export.js');
  const { CONSUMER, PROVIDER } = await import('../ecosystem/pact/interactions.js');
  const result = await exportContract({
    dir: resolve(process.cwd(), values.out ?? 'pacts'),
    pact,
    logLevel: values['log-level'],
  });
  console.log(
    `Wrote the Pact V4 contract between ${CONSUMER} and ${PROVIDER} (${result.interactions} interactions) to ${result.file}`,
  );
  for (const left of result.notInContract)
    console.log(`  not in the contract: ${left.endpoint}${left.case ? ` (${left.case})` : ''} — ${left.reason}`);
  return EXIT.OK;
}

async function verifyCommand(values: Record<string, string | undefined>, loader: Loader): Promise<number> {
  const pact = await loader();
  const [{ resolveRun }, { ConfigError }, { verifyContract, describeVerification, TargetUnavailableError }] =
    await Promise.all([
      import('../resolve.js'),
      import('../../core/config/errors.js'),
      import('../ecosystem/pact/verify.js'),
    ]);
  const contractFile = values.pact === undefined ? undefined : resolve(process.cwd(), values.pact);
  if (contractFile && !existsSync(contractFile)) throw new UsageError(`--pact: ${values.pact} does not exist.`, 'pact');
  try {
    const resolved = resolveRun(
      {
        'base-url': values['base-url'],
        config: values.config,
        timeout: values.timeout,
        'id-prefix': values['id-prefix'],
      },
      process.cwd(),
      process.env,
    );
    const { options: o } = resolved;
    const result = await verifyContract({
      pact,
      baseUrl: o.baseUrl,
      auth: o.auth,
      fixtures: o.fixtures,
      contractPath: o.contractPath,
      idPrefix: o.idPrefix,
      timeoutMs: o.timeoutMs,
      contractFile,
      logLevel: values['log-level'] as LogLevel | undefined,
    });
    console.log(describeVerification(result));
    return result.passed ? EXIT.OK : EXIT.MUST_FAILURES;
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message, 'pact');
    if (error instanceof TargetUnavailableError) {
      console.error(`conformance: ${error.message}`);
      console.error(
        'Nothing was verified. Check the base URL and the credentials (auth.token / auth.api_key, CONFORMANCE_TOKEN / CONFORMANCE_API_KEY).',
      );
      return EXIT.UNREACHABLE;
    }
    throw error;
  }
}

/** The command, with the way it loads @pact-foundation/pact (tests point it elsewhere). */
export function createPactCommand(loader?: Loader): Command {
  const load: Loader = loader ?? (async () => (await import('../ecosystem/pact/library.js')).loadPact());
  return {
    help,
    async run(argv) {
      const { values, positionals } = parseCommandLine(argv, options, 'pact', true);
      const [sub, ...extra] = positionals;
      if (sub !== 'export' && sub !== 'verify')
        throw new UsageError(
          sub === undefined
            ? 'Say what to do: pact export or pact verify.'
            : `Unknown pact command "${sub}": use export or verify.`,
          'pact',
        );
      if (extra.length) throw new UsageError(`Unexpected argument "${extra[0]}".`, 'pact');
      const level = values['log-level'];
      if (level !== undefined && !(LOG_LEVELS as readonly string[]).includes(level))
        throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${level}".`, 'pact');
      const misplaced =
        sub === 'export'
          ? (['base-url', 'config', 'pact', 'id-prefix', 'timeout'] as const).find((k) => values[k] !== undefined)
          : values.out !== undefined
            ? 'out'
            : undefined;
      if (misplaced) throw new UsageError(`--${misplaced} is not an option of pact ${sub}.`, 'pact');
      try {
        return sub === 'export'
          ? await exportCommand({ out: values.out, 'log-level': level as LogLevel | undefined }, load)
          : await verifyCommand(values, load);
      } catch (error) {
        const { PactUnavailableError } = await import('../ecosystem/pact/library.js');
        if (error instanceof PactUnavailableError) {
          console.error(`conformance: ${error.message}`);
          return EXIT.USAGE;
        }
        throw error;
      }
    },
  };
}

export const pactCommand: Command = createPactCommand();
