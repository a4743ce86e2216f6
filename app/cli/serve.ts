/** `conformance serve`: the reference server as a standalone mock. */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { ReferenceServerOptions } from '../../reference/index.js';
import type { Command } from './usage.js';
import { EXIT, UsageError, intFlag, parseCommandLine } from './usage.js';
import { dotPath } from '../../core/spec/paths.js';

const help = `Usage: conformance serve [options]

Starts the reference server: a faithful in-memory implementation of the whole data-import
interface (spec/data-import-interface.md §2-§9), with an operator API to set up what the spec leaves to the
service operator. Prints its URL and credentials, then serves until interrupted.

Options:
  --port N               port to listen on; 0 picks a free one (default 0)
  --host ADDR            address to listen on (default 127.0.0.1)
  --seed default|none|FILE
                         operator setup to start with: the default ready set, nothing, or a
                         seed document (JSON or YAML; see reference/README.md) (default: default)
  --token TOKEN          also accept this static data-import token
  --api-key KEY          also accept this API key in the ObtainServiceToken mutation
  --operator-key KEY     key for the operator API (default: random, printed)
  --concurrency-limit N  enable the §8 process concurrency limit at N
  --processing-delay MS  time creating an account takes (makes IN_PROGRESS and 429 observable)
  --latency MS           delay added before every response
  --fault ID             switch on a fault of the catalogue (repeatable; see "conformance faults")
  --variant              make the other legal choice wherever the spec leaves freedom
                         (other error codes and bodies, extra fields, 200 for statements, …);
                         the same as --profile variant
  --profile NAME         a variant profile: variant, or demanding (requires fields beyond those
                         shown, its own account_type and business_type values, looks the account
                         up first, §8 limit 1 with slow processing); see docs/freedoms.md
  --json                 print one JSON line {url, operator_key, token, api_key} instead of text
  --verbose              log every request
  --help                 show this help

Example:
  npx conformance serve --port 8080
  curl -H 'Authorization: Token reference-token' http://127.0.0.1:8080/v1/data-import/all-account-import-processes/SUPPLIER_ONGOING/`;

const options = {
  port: { type: 'string' },
  host: { type: 'string' },
  seed: { type: 'string' },
  token: { type: 'string' },
  'api-key': { type: 'string' },
  'operator-key': { type: 'string' },
  'concurrency-limit': { type: 'string' },
  'processing-delay': { type: 'string' },
  latency: { type: 'string' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  fault: { type: 'string', multiple: true },
  variant: { type: 'boolean' },
  profile: { type: 'string' },
} as const;

function loadSeed(value: string | undefined): unknown {
  if (value === undefined || value === 'default') return 'default';
  if (value === 'none') return false;
  let text: string;
  try {
    text = readFileSync(value, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--seed: cannot read "${value}": ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
      'serve',
    );
  }
  try {
    return parseYaml(text) as unknown; // YAML is a superset of JSON
  } catch (error) {
    throw new UsageError(`--seed: "${value}" is neither JSON nor YAML: ${(error as Error).message}`, 'serve');
  }
}

async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, options, 'serve');
  const port = intFlag(values.port, 'port', 0, 65535, 'serve') ?? 0;
  const concurrencyLimit = intFlag(values['concurrency-limit'], 'concurrency-limit', 1, 10_000, 'serve');
  const processingDelay = intFlag(values['processing-delay'], 'processing-delay', 0, 60_000, 'serve');
  const latency = intFlag(values.latency, 'latency', 0, 60_000, 'serve');
  const seedInput = loadSeed(values.seed);

  const {
    startReferenceServer,
    SeedDocument,
    DEFAULT_TOKEN,
    DEFAULT_API_KEY,
    GRAPHQL_PATH,
    OPERATOR_PREFIX,
    OPERATOR_KEY_HEADER,
    faultById,
    VARIANT_PROFILES,
    profileById,
    applySettings,
    SettingsPatch,
  } = await import('./serve-deps.js');
  if (values.variant && values.profile && values.profile !== 'variant')
    throw new UsageError('--variant is --profile variant; give one of them.', 'serve');
  const profileId = values.profile ?? (values.variant ? 'variant' : undefined);
  const profile = profileId === undefined ? undefined : profileById(profileId);
  if (profileId !== undefined && !profile)
    throw new UsageError(
      `--profile: unknown profile "${profileId}" (one of ${VARIANT_PROFILES.map((p) => p.id).join(', ')}).`,
      'serve',
    );
  for (const id of values.fault ?? [])
    if (!faultById(id)) throw new UsageError(`--fault: unknown fault "${id}" (see "conformance faults").`, 'serve');
  let seed = seedInput as ReferenceServerOptions['seed'];
  if (typeof seedInput === 'object' && seedInput !== null) {
    const parsed = SeedDocument.safeParse(seedInput);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new UsageError(`--seed: ${dotPath(first.path, '(document)')}: ${first.message}`, 'serve');
    }
    seed = parsed.data;
  }

  const server = await startReferenceServer({
    port,
    host: values.host ?? '127.0.0.1',
    seed,
    operatorKey: values['operator-key'],
    faults: values.fault,
    ...(profile ? { choices: profile.choices } : {}),
    onRequest: values.verbose
      ? (e) => console.error(`${e.method} ${e.path} -> ${e.status} (${e.ms.toFixed(1)} ms)`)
      : undefined,
  }).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `cannot listen on ${values.host ?? '127.0.0.1'}:${port}: ${error.code ?? error.message}`,
      'serve',
    );
  });
  const { store } = server;
  if (values.token) store.tokens.set(values.token, { expiresAt: null });
  if (values['api-key']) store.apiKeys.add(values['api-key']);
  // The profile's operator settings first; the flags below override them.
  if (profile?.settings) applySettings(store, SettingsPatch.parse(profile.settings));
  if (concurrencyLimit !== undefined) store.settings.concurrencyLimit = concurrencyLimit;
  if (processingDelay !== undefined) store.settings.processingDelayMs = processingDelay;
  if (latency !== undefined) store.settings.responseDelayMs = latency;

  const token = values.token ?? (seed === 'default' ? DEFAULT_TOKEN : undefined);
  const apiKey = values['api-key'] ?? (seed === 'default' ? DEFAULT_API_KEY : undefined);
  if (values.json) {
    console.log(
      JSON.stringify({
        url: server.url,
        operator_key: server.operatorKey,
        token: token ?? null,
        api_key: apiKey ?? null,
      }),
    );
  } else {
    console.log(`Reference server for the data-import interface listening on ${server.url}`);
    if (token) console.log(`  data-import token : ${token}   (send "Authorization: Token ${token}")`);
    if (apiKey)
      console.log(
        `  API key          : ${apiKey}   (ObtainServiceToken mutation at ${server.url}${profile?.choices.graphql.path ?? GRAPHQL_PATH})`,
      );
    console.log(
      `  operator API     : ${server.url}${OPERATOR_PREFIX}   (send "${OPERATOR_KEY_HEADER}: ${server.operatorKey}")`,
    );
    console.log(
      `  seed             : ${seed === 'default' ? 'default ready set (see reference/README.md)' : seed === false ? 'none' : values.seed}`,
    );
    if (profile)
      console.log(
        `  mode             : variant profile ${profile.id} (other legal choices where the spec leaves freedom: ${profile.summary})`,
      );
    if (values.fault?.length)
      console.log(`  faults           : ${values.fault.join(', ')} — this server is deliberately broken`);
    console.log('Press Ctrl+C to stop.');
  }

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  return EXIT.OK;
}

export const serveCommand: Command = { help, run };
