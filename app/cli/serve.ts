/** `conformance serve`: the reference server as a standalone mock. */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { parse as parseYaml } from 'yaml';
import type { ReferenceServerOptions } from '../../reference/index.js';
import type { Command } from './usage.js';
import { EXIT, UsageError, intFlag, parseCommandLine } from './usage.js';
import { dotPath } from '../../core/spec/paths.js';
import { InputFileError, readInputFile } from '../../core/config/input-file.js';

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
  --token-ttl SECONDS    tokens issued through ObtainServiceToken expire after SECONDS (§5:
                         lifetime not shown; default: never)
  --utc-offset +HH:MM    the server's zone: the current time it writes (a note's defaulted
                         created_at, account_created_at) is its local time in the §2.1 ...Z form
                         (§4.2 notes rule 3; default +00:00; a negative one as
                         --utc-offset=-05:00)
  --max-accounts N       most accounts (import processes) kept per supplier (default 100000)
  --max-supplier-bytes SIZE
                         most stored JSON per supplier, e.g. 64MiB (default 64MiB)
  --max-total-bytes SIZE most stored JSON in all (default 128MiB); past a limit a write is
                         refused with 400 storage_limit_exceeded (see reference/README.md);
                         resident memory stays under 300 MB + 4 x this cap: bodies over 1 MiB
                         are read and handled a body limit's worth at a time, the rest queued
  --fault ID             switch on a fault of the catalogue (repeatable; see "conformance faults")
  --variant              make the other legal choice wherever the spec leaves freedom
                         (other error codes and bodies, extra fields, 200 for statements, …);
                         the same as --profile variant
  --profile NAME         a variant profile: variant, or demanding (requires fields beyond those
                         shown, its own account_type and business_type values, looks the account
                         up first, §8 limit 1 with slow processing), paginated, rate-limited,
                         limited (255-character strings, 32-bit integers, 100 items a list,
                         256 KiB bodies), local-clock (2-second tokens, a UTC+1 clock), or
                         limited-local-clock (both); see docs/freedoms.md
  --json                 print one JSON line {url, operator_key, token, api_key} instead of text
  --verbose              log every request
  --help                 show this help

It stops on SIGINT, SIGTERM or SIGHUP, and when the process that started it exits (so killing
"npx conformance serve" stops the server too). Binding a non-loopback --host while the public
default token or API key is accepted prints a warning.

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
  'token-ttl': { type: 'string' },
  'utc-offset': { type: 'string' },
  'max-accounts': { type: 'string' },
  'max-supplier-bytes': { type: 'string' },
  'max-total-bytes': { type: 'string' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  fault: { type: 'string', multiple: true },
  variant: { type: 'boolean' },
  profile: { type: 'string' },
} as const;

/** `--utc-offset`: `+HH:MM` or `-HH:MM` on the quarter-hour grid of zones in use, within ±14 h; minutes east of UTC. */
function offsetFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(value);
  const minutes = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : Number.NaN;
  if (!m || Number(m[3]) % 15 !== 0 || Math.abs(minutes) > 14 * 60)
    throw new UsageError(
      `--utc-offset: "${value}" is not an offset of a zone in use (+HH:MM or -HH:MM, quarter hours, within ±14:00).`,
      'serve',
    );
  return minutes;
}

/** A seed document is read whole before it is checked: bounded, like every file a user names. */
export const MAX_SEED_BYTES = 64 * 1024 * 1024;

function loadSeed(value: string | undefined): unknown {
  if (value === undefined || value === 'default') return 'default';
  if (value === 'none') return false;
  let text: string;
  try {
    text = readInputFile(value, MAX_SEED_BYTES, 'a seed document');
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    throw new UsageError(`--seed: ${error.message}.`, 'serve');
  }
  try {
    return parseYaml(text) as unknown; // YAML is a superset of JSON
  } catch (error) {
    throw new UsageError(`--seed: "${value}" is neither JSON nor YAML: ${(error as Error).message}`, 'serve');
  }
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  k: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
};

/** A size in bytes: a whole number with an optional unit (KiB, MiB, GiB; K, M, G are the same). */
function sizeFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+)\s*([kmg](?:ib?)?)?$/i.exec(value.trim());
  const unit = SIZE_UNITS[(m?.[2] ?? '').toLowerCase().replace(/^([kmg])i$/, '$1ib')];
  if (!m || unit === undefined)
    throw new UsageError(`--${flag} must be a size such as 1048576, 512KiB, 64MiB or 1GiB, got "${value}".`, 'serve');
  const bytes = Number(m[1]) * unit;
  if (bytes < 1 || !Number.isSafeInteger(bytes)) throw new UsageError(`--${flag} must be at least 1 byte.`, 'serve');
  return bytes;
}

/** Reachable only from this machine: 127.0.0.0/8, ::1, localhost. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1' || /^::ffff:127\.\d+\.\d+\.\d+$/.test(h);
}

/** The parent pid of `pid`, from /proc (Linux); undefined when it cannot be read (gone, or no /proc). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** npm (exec, npx, run) starts commands through `sh -c`, which outlives a SIGKILLed npm. */
function startedByNpmShell(parent: number): boolean {
  if (process.env.npm_command === undefined) return false;
  try {
    return ['sh', 'dash', 'bash', 'zsh'].includes(readFileSync(`/proc/${parent}/comm`, 'utf8').trim());
  } catch {
    return false;
  }
}

/** Resolves once the server should stop: a signal, or the process that started it went away. */
function stopRequested(): Promise<string> {
  return new Promise((resolve) => {
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const done = (why: string) => {
      for (const signal of signals) process.off(signal, handlers[signal]);
      clearInterval(watch);
      resolve(why);
    };
    const handlers = Object.fromEntries(signals.map((s) => [s, () => done(s)])) as Record<string, () => void>;
    for (const signal of signals) process.once(signal, handlers[signal]);
    // Started through npx / npm exec, the server is a grandchild (npm -> sh -c -> node): killing npm
    // re-parents rather than stops it. A changed parent pid says the parent is gone; under npm's
    // `sh -c`, a changed parent of that shell says npm is gone (Linux, read from /proc). Parent
    // pid 1 at start means there is no parent to watch.
    const parent = process.ppid;
    const grandparent = startedByNpmShell(parent) ? parentOf(parent) : undefined;
    const watch = setInterval(() => {
      if (parent !== 1 && process.ppid !== parent) done('parent exited');
      else if (grandparent !== undefined && grandparent !== 1 && parentOf(parent) !== grandparent)
        done('parent exited');
    }, 500);
    watch.unref();
  });
}

async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, options, 'serve');
  const port = intFlag(values.port, 'port', 0, 65535, 'serve') ?? 0;
  const concurrencyLimit = intFlag(values['concurrency-limit'], 'concurrency-limit', 1, 10_000, 'serve');
  const processingDelay = intFlag(values['processing-delay'], 'processing-delay', 0, 60_000, 'serve');
  const latency = intFlag(values.latency, 'latency', 0, 60_000, 'serve');
  const tokenTtl = intFlag(values['token-ttl'], 'token-ttl', 1, 31_536_000, 'serve');
  const utcOffset = offsetFlag(values['utc-offset']);
  const storageLimits = {
    maxAccountsPerSupplier: intFlag(values['max-accounts'], 'max-accounts', 1, 100_000_000, 'serve'),
    maxBytesPerSupplier: sizeFlag(values['max-supplier-bytes'], 'max-supplier-bytes'),
    maxBytesTotal: sizeFlag(values['max-total-bytes'], 'max-total-bytes'),
  };
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
    faithfulChoices,
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
    storageLimits,
    ...(profile || utcOffset !== undefined
      ? {
          choices: {
            ...(profile?.choices ?? faithfulChoices),
            ...(utcOffset !== undefined ? { localTimeOffsetMinutes: utcOffset } : {}),
          },
          ...profile?.server,
        }
      : {}),
    onRequest: values.verbose
      ? (e) => console.error(`${e.method} ${e.path} -> ${e.status} (${e.ms.toFixed(1)} ms)`)
      : undefined,
  }).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `cannot listen on ${values.host ?? '127.0.0.1'}:${port}: ${error.code ?? error.message}`,
      'serve',
    );
  });
  // Listening for signals before the banner: whoever reads the banner may signal at once.
  const stopping = stopRequested();
  const { store } = server;
  if (values.token) store.tokens.set(values.token, { expiresAt: null });
  if (values['api-key']) store.apiKeys.add(values['api-key']);
  // The profile's operator settings first; the flags below override them.
  if (profile?.settings) applySettings(store, SettingsPatch.parse(profile.settings));
  if (concurrencyLimit !== undefined) store.settings.concurrencyLimit = concurrencyLimit;
  if (processingDelay !== undefined) store.settings.processingDelayMs = processingDelay;
  if (latency !== undefined) store.settings.responseDelayMs = latency;
  if (tokenTtl !== undefined) store.settings.tokenTtlSeconds = tokenTtl;

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

  // The default seed's token and API key are printed in this project's README: fine on loopback,
  // an open door on an address other machines reach.
  const publicSecrets = [
    ...(store.tokens.has(DEFAULT_TOKEN) ? [`token "${DEFAULT_TOKEN}"`] : []),
    ...(store.apiKeys.has(DEFAULT_API_KEY) ? [`API key "${DEFAULT_API_KEY}"`] : []),
  ];
  if (!isLoopback(server.host) && publicSecrets.length > 0)
    console.error(
      `conformance serve: warning: listening on ${server.host}, reachable from other machines, and accepting the public default ${publicSecrets.join(' and ')} (published in this project's README). Anyone who reaches this address can import data. Start with "--seed none" or "--seed FILE" (a seed without them) and give your own with --token TOKEN and --api-key KEY; the operator key is random unless --operator-key sets it.`,
    );

  // Whoever read our output may be gone (a killed npx): a write error must not bring the server down.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  const why = await stopping;
  if (why === 'parent exited') console.error('conformance serve: the process that started it exited; stopping.');
  await server.close();
  return EXIT.OK;
}

export const serveCommand: Command = { help, run };
