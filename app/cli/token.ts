/**
 * `conformance token`: obtains a fresh §5 token with the configured organisation API key and prints
 * it alone on stdout, so that a failing exchange's curl command (which sends `$CONFORMANCE_TOKEN`)
 * can be replayed after a run that authenticated with the API key.
 */
import type { Command } from './usage.js';
import { EXIT, UsageError, parseCommandLine } from './usage.js';

const help = `Usage: conformance token [options]

Obtains a token through the ObtainServiceToken mutation (§5) with the configured API key
(CONFORMANCE_API_KEY or auth.api_key), checks that the target takes it, and prints it alone on
stdout. The reports' curl commands send $CONFORMANCE_TOKEN; after a run with an API key:

  export CONFORMANCE_TOKEN=$(npx conformance token --base-url https://staging.example.com)

Options:
  --base-url URL     the implementation (or base_url / CONFORMANCE_BASE_URL)
  --config FILE      the config file (default conformance.config.yaml, if present)
  --header 'N: V'    an extra header on every request (repeatable; or CONFORMANCE_HEADERS, one
                     'Name: value' per line, which keeps a secret value out of the process list)
  --ca-cert FILE     a CA to trust too;  --insecure  accept any certificate
  --client-cert FILE, --client-key FILE
                     a client certificate and its key (PEM), for a server behind mutual TLS
  --client-key-passphrase-env NAME
                     the environment variable holding the key's passphrase (never the passphrase)
  --timeout MS       per request (default 10000)`;

const options = {
  'base-url': { type: 'string' },
  config: { type: 'string' },
  header: { type: 'string', multiple: true },
  'ca-cert': { type: 'string' },
  insecure: { type: 'boolean' },
  'client-cert': { type: 'string' },
  'client-key': { type: 'string' },
  'client-key-passphrase-env': { type: 'string' },
  timeout: { type: 'string' },
} as const;

async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, options, 'token');
  const [{ resolveRun }, { connect, UnreachableError }, { AuthError }, { ConfigError }] = await Promise.all([
    import('../resolve.js'),
    import('../../core/engine/connection.js'),
    import('../../core/auth/token.js'),
    import('../../core/config/errors.js'),
  ]);
  try {
    return await obtain(values, resolveRun, connect);
  } catch (error) {
    // The same exit codes as a run: 2 for the configuration, 3 for a target that refused or is not there.
    if (error instanceof ConfigError) {
      console.error(`conformance: ${error.message}`);
      return EXIT.USAGE;
    }
    if (error instanceof AuthError || error instanceof UnreachableError) {
      console.error(`conformance: ${error.message}`);
      return EXIT.UNREACHABLE;
    }
    throw error;
  }
}

async function obtain(
  values: Parameters<typeof import('../resolve.js').resolveRun>[0],
  resolveRun: typeof import('../resolve.js').resolveRun,
  connect: typeof import('../../core/engine/connection.js').connect,
): Promise<number> {
  const { options: resolved } = resolveRun(values, process.cwd(), process.env);
  if (!resolved.baseUrl)
    throw new UsageError('Name the target: --base-url URL (or base_url / CONFORMANCE_BASE_URL).', 'token');
  if (!resolved.auth?.apiKey)
    throw new UsageError(
      'No API key: set CONFORMANCE_API_KEY (or auth.api_key); with a token already, there is nothing to obtain.',
      'token',
    );
  // Only the key is used, so a configured token cannot be printed back instead of a fresh one.
  const connection = await connect({
    baseUrl: resolved.baseUrl,
    auth: { ...resolved.auth, token: undefined },
    fixtures: resolved.fixtures,
    timeoutMs: resolved.timeoutMs ?? 10_000,
    connections: 1,
    transport: resolved.transport,
  });
  try {
    const tokens = await connection.authenticate();
    process.stdout.write(`${tokens.current()}\n`);
    return EXIT.OK;
  } finally {
    await connection.close();
  }
}

export const tokenCommand: Command = { help, run };
