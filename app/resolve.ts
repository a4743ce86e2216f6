/**
 * Where every setting comes from: command-line flags override environment variables, which
 * override the config file, which overrides the defaults of the schema.
 */
import type { Level } from '../core/engine/rule.js';
import type { RunOptions } from '../core/engine/run.js';
import { dirname, resolve as resolvePath } from 'node:path';
import {
  checkClientIdentity,
  checkHeaders,
  ClientIdentityError,
  parseHeader,
  type TransportOptions,
} from '../core/http/transport.js';
import { urlShown } from '../core/http/redact.js';
import { ConfigError } from '../core/config/errors.js';
import { InputFileError, readInputFile } from '../core/config/input-file.js';
import { loadConfig } from '../core/config/load.js';
import { placeholdersIn } from '../core/config/starter.js';
import { loadPayloadTemplates } from '../core/config/payloads.js';
import {
  type ConformanceConfig,
  REPORT_FORMATS,
  type ReportFormat,
  RunConfig,
  ReportConfig,
  AuthConfig,
  AccountConfig,
  TlsConfig,
} from '../core/config/schema.js';

/** The run command's flags, as parsed (strings; validated here). */
export interface RunFlags {
  'base-url'?: string;
  config?: string;
  rule?: string[];
  section?: string[];
  level?: string[];
  tag?: string[];
  bail?: boolean;
  seed?: string;
  path?: string;
  'num-runs'?: string;
  concurrency?: string;
  timeout?: string;
  'rate-limit'?: string;
  retries?: string;
  'max-time'?: string;
  'report-dir'?: string;
  reporter?: string[];
  strict?: boolean;
  'expected-failures'?: string;
  'strict-baseline'?: boolean;
  'id-prefix'?: string;
  shard?: string;
  'allow-skip'?: string[];
  partial?: boolean;
  'full-transcripts'?: boolean;
  token?: string;
  header?: string[];
  'ca-cert'?: string;
  insecure?: boolean;
  'client-cert'?: string;
  'client-key'?: string;
  'client-key-passphrase-env'?: string;
  har?: string;
}

export interface ResolvedRun {
  options: Omit<RunOptions, 'baseline' | 'onEvent' | 'replayCommand'>;
  /** What the user should read before the first request (a starter placeholder still configured). */
  warnings: string[];
  report: { dir: string; formats: ReportFormat[]; har?: string };
  expectedFailures?: string;
  /** --strict-baseline / run.strict_baseline: baseline entries that pass now fail the run. */
  strictBaseline?: boolean;
  configFile?: string;
}

function int(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value.trim())) throw new ConfigError(`--${flag} must be a whole number, got "${value}".`);
  const n = Number(value);
  if (n < min || n > max) throw new ConfigError(`--${flag} must be between ${min} and ${max}, got ${n}.`);
  return n;
}

/** --concurrency: a whole number of rules at once, or "auto" (core/engine/width.ts). */
function concurrencyOf(value: string | undefined): number | 'auto' | undefined {
  if (value?.trim() === 'auto') return 'auto';
  if (value !== undefined && !/^-?\d+$/.test(value.trim()))
    throw new ConfigError(`--concurrency must be a whole number or "auto", got "${value}".`);
  return int(value, 'concurrency', 1, 256);
}

function url(value: string, where: string): string {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http(s)');
    return value.replace(/\/+$/, '');
  } catch {
    // Never echo credentials written into it (`ftp://user:secret@host`).
    throw new ConfigError(`${where} must be an http(s) URL, got ${urlShown(value)}.`);
  }
}

function isLoopback(baseUrl: string): boolean {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

export function resolveRun(flags: RunFlags, cwd: string, env: NodeJS.ProcessEnv): ResolvedRun {
  const { file, config } = loadConfig(cwd, flags.config, env);
  const c: ConformanceConfig = config;
  const run = RunConfig.parse(c.run ?? {});
  const report = ReportConfig.parse(c.report ?? {});
  const auth = AuthConfig.parse(c.auth ?? {});
  const account = AccountConfig.parse(c.account ?? {});

  const rawBase = flags['base-url'] ?? (env.CONFORMANCE_BASE_URL || undefined) ?? c.base_url;
  const baseUrl =
    rawBase === undefined
      ? undefined
      : url(
          rawBase,
          flags['base-url'] !== undefined
            ? '--base-url'
            : env.CONFORMANCE_BASE_URL
              ? 'CONFORMANCE_BASE_URL'
              : 'base_url',
        );

  const levels = (flags.level ?? []).map((l) => l.toUpperCase());
  for (const l of levels)
    if (!['MUST', 'SHOULD', 'INFO'].includes(l))
      throw new ConfigError(`--level must be MUST, SHOULD or INFO, got "${l}".`);
  const reporters = flags.reporter?.flatMap((r) => r.split(',')).map((r) => r.trim());
  for (const r of reporters ?? [])
    if (!(REPORT_FORMATS as readonly string[]).includes(r))
      throw new ConfigError(`--reporter must be one of ${REPORT_FORMATS.join(', ')}, got "${r}".`);

  let shard: { index: number; total: number } | undefined;
  if (flags.shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(flags.shard.trim());
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
      throw new ConfigError(`--shard must be i/n with 1 <= i <= n, e.g. 2/4; got "${flags.shard}".`);
    shard = { index: Number(m[1]), total: Number(m[2]) };
  }
  if (flags.path !== undefined && flags.seed === undefined && run.seed === undefined)
    throw new ConfigError('--path replays one case of a property and needs the --seed it was found with.');
  if (flags.path !== undefined && !/^\d+(:\d+)*$/.test(flags.path))
    throw new ConfigError(`--path must look like 12:0:3 (as printed with a counterexample), got "${flags.path}".`);
  const idPrefix = flags['id-prefix'] ?? run.id_prefix;
  if (!/^[A-Za-z][A-Za-z0-9]{0,7}$/.test(idPrefix))
    throw new ConfigError(`--id-prefix must be 1-8 letters or digits starting with a letter, got "${idPrefix}".`);
  const rateLimitText = flags['rate-limit'];
  const rateLimit = rateLimitText === undefined ? run.rate_limit : Number(rateLimitText);
  if (rateLimit !== undefined && !(rateLimit > 0))
    throw new ConfigError(`--rate-limit must be a positive number of requests per second, got "${rateLimitText}".`);

  const maxTimeText = flags['max-time'];
  if (
    maxTimeText !== undefined &&
    !(/^\d+(\.\d+)?$/.test(maxTimeText.trim()) && Number(maxTimeText) > 0 && Number(maxTimeText) <= 7 * 24 * 3600)
  ) {
    throw new ConfigError(`--max-time must be a positive number of seconds (at most a week), got "${maxTimeText}".`);
  }
  const maxTimeS = maxTimeText === undefined ? run.max_time_s : Number(maxTimeText);
  const expectedFailures = flags['expected-failures'] ?? run.expected_failures;
  const strictBaseline = flags['strict-baseline'] ?? run.strict_baseline ?? false;
  // Strictness about a baseline there is not would gate nothing: most likely a forgotten flag.
  if (strictBaseline && expectedFailures === undefined)
    throw new ConfigError(
      `${flags['strict-baseline'] !== undefined ? '--strict-baseline' : 'run.strict_baseline'} needs a baseline: give --expected-failures FILE (run.expected_failures).`,
    );
  const transport = resolveTransport(flags, c, file, cwd, env);

  // The embedded target brings its own fixtures; only a real target is judged with the configured ones.
  // On loopback the placeholders may be right (they are what `conformance serve` seeds) when the user
  // named the file; a file found by default (the shipped preset) is said before the first request
  // wherever the target is, since a supplier's mock on this machine knows none of them.
  const foundByDefault = file !== undefined && flags.config === undefined;
  const placeholders =
    baseUrl === undefined || (isLoopback(baseUrl) && !foundByDefault) ? [] : placeholdersIn(c.fixtures ?? {});
  const warnings = placeholders.length
    ? [
        `the config${file ? ` (${file}${foundByDefault ? ', used because no --config was given' : ''})` : ''} still holds starter placeholders (${placeholders.map(({ key, value }) => `${key}: ${value}`).join(', ')}): they name what the reference server (conformance serve) seeds; against any other target set them to values of that target, or rules judge suppliers and accounts that do not exist.`,
      ]
    : [];
  if (transport?.clientCert && baseUrl !== undefined && new URL(baseUrl).protocol === 'http:')
    warnings.push(
      'a client certificate is configured (--client-cert / tls.client_cert) but the base URL is plain http://: there is no TLS handshake to present it in.',
    );
  return {
    configFile: file,
    warnings,
    options: {
      baseUrl,
      auth: {
        token: flags.token || env.CONFORMANCE_TOKEN || auth.token,
        apiKey: env.CONFORMANCE_API_KEY || auth.api_key,
        graphqlUrl: auth.graphql_url,
        mutation: auth.mutation,
        tokenPath: auth.token_path,
      },
      fixtures: c.fixtures ?? {},
      payloads: loadPayloadTemplates(c.payloads ?? {}, file ? dirname(file) : cwd),
      contractPath: account.business_contract_identifier_path,
      ...(c.limits ? { limits: c.limits } : {}),
      concurrency: concurrencyOf(flags.concurrency) ?? run.concurrency,
      seed: int(flags.seed, 'seed', -(2 ** 31), 2 ** 31 - 1) ?? run.seed,
      numRuns: int(flags['num-runs'], 'num-runs', 1, 100_000) ?? run.num_runs,
      timeoutMs: int(flags.timeout, 'timeout', 100, 600_000) ?? run.timeout_ms,
      idPrefix,
      rateLimit,
      retries: int(flags.retries, 'retries', 0, 5) ?? run.retries,
      ...(maxTimeS !== undefined ? { maxTimeMs: Math.round(maxTimeS * 1000) } : {}),
      ...(transport ? { transport } : {}),
      selection: {
        ...(flags.rule?.length ? { rules: flags.rule } : {}),
        ...(flags.section?.length ? { sections: flags.section } : {}),
        ...(levels.length ? { levels: levels as Level[] } : {}),
        ...(flags.tag?.length ? { tags: flags.tag } : {}),
        ...(shard ? { shard } : {}),
      },
      bail: flags.bail ?? false,
      allowSkip: [...(run.allow_skip ?? []), ...(flags['allow-skip'] ?? [])],
      partial: flags.partial ?? run.partial ?? false,
      fullTranscripts: flags['full-transcripts'] ?? false,
      strict: flags.strict ?? false,
      replayPath: flags.path,
    },
    report: {
      dir: flags['report-dir'] ?? report.dir,
      formats: (reporters as ReportFormat[] | undefined) ?? report.formats,
      ...((flags.har ?? report.har) !== undefined ? { har: flags.har ?? report.har } : {}),
    },
    expectedFailures,
    ...(strictBaseline ? { strictBaseline } : {}),
  };
}

/**
 * The lines of CONFORMANCE_HEADERS, one `Name: value` each (blank lines skipped), numbered from 1.
 * A variable rather than flags so that a CI job can hand over gateway keys without putting them on a
 * command line, where the process list shows them (the GitHub Action's `headers` input).
 */
function headerLines(text: string): [number, string][] {
  return text
    .split(/\r?\n/)
    .map((line, i): [number, string] => [i + 1, line])
    .filter(([, line]) => line.trim() !== '');
}

/**
 * Extra headers (config `headers:`, then the lines of CONFORMANCE_HEADERS, then each --header, a later
 * one replacing an earlier one of the same name) and TLS (resolveTls).
 */
function resolveTransport(
  flags: RunFlags,
  c: ConformanceConfig,
  file: string | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv,
): TransportOptions | undefined {
  const headers: Record<string, string> = {};
  /** Where each header was given, to blame it on. */
  const givenIn: Record<string, string> = {};
  const put = ([name, value]: [string, string], where: string) => {
    headers[name.toLowerCase()] = value;
    givenIn[name.toLowerCase()] = where;
  };
  for (const [name, value] of Object.entries(c.headers ?? {})) put([name, value], 'headers');
  for (const [i, text] of headerLines(env.CONFORMANCE_HEADERS ?? '')) {
    try {
      put(parseHeader(text), 'CONFORMANCE_HEADERS');
    } catch (error) {
      throw new ConfigError(`CONFORMANCE_HEADERS, line ${i}: ${(error as Error).message}.`);
    }
  }
  for (const [i, text] of (flags.header ?? []).entries()) {
    try {
      put(parseHeader(text), '--header');
    } catch (error) {
      const which = (flags.header?.length ?? 0) > 1 ? ` (number ${i + 1} of ${flags.header?.length})` : '';
      throw new ConfigError(`--header${which} ${(error as Error).message}.`);
    }
  }
  for (const [name, value] of Object.entries(headers)) {
    try {
      checkHeaders({ [name]: value }, givenIn[name]);
    } catch (error) {
      throw new ConfigError(`${(error as Error).message}.`);
    }
  }
  const tls = resolveTls(flags, TlsConfig.parse(c.tls ?? {}), file ? dirname(file) : cwd, cwd, env);
  if (!Object.keys(headers).length && !Object.keys(tls).length) return undefined;
  return { ...(Object.keys(headers).length ? { headers } : {}), ...tls };
}

/**
 * The largest CA, certificate or key file read. A PEM certificate is 1-2 KB and a private key a few
 * KB; the whole Mozilla root bundle (curl's cacert.pem, some 140 roots) is about 220 KB. 1 MiB is
 * four times that, so no real file comes near it, while /dev/zero or a mistyped path to a large
 * file is refused before it is read.
 */
export const MAX_PEM_BYTES = 1024 * 1024;

/** The TLS flags, as parsed; each overrides its `tls:` key of the config. */
export type TlsFlags = Pick<
  RunFlags,
  'ca-cert' | 'insecure' | 'client-cert' | 'client-key' | 'client-key-passphrase-env'
>;

/**
 * TLS for every connection to the target, resolved once: the CA to trust too (--ca-cert /
 * tls.ca_cert), --insecure, and the client certificate for mutual TLS (--client-cert / tls.client_cert,
 * --client-key / tls.client_key, the key's passphrase from the environment variable
 * --client-key-passphrase-env / tls.client_key_passphrase_env names). Files are read and the
 * certificate and key loaded here, so a missing file, a key of another certificate or a wrong
 * passphrase is a usage error before anything is sent. Paths from flags are relative to the working
 * directory, those from the config to the config file (`configDir`).
 */
export function resolveTls(
  flags: TlsFlags,
  tls: Partial<TlsConfig>,
  configDir: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Omit<TransportOptions, 'headers'> {
  /** A file named by a flag or a config key, as text, and the name to blame it on. */
  const read = (flag: keyof TlsFlags, key: string, configured: string | undefined) => {
    const given = flags[flag] as string | undefined;
    const path =
      given !== undefined
        ? resolvePath(cwd, given)
        : configured !== undefined
          ? resolvePath(configDir, configured)
          : undefined;
    const where = given !== undefined ? `--${flag}` : `tls.${key}`;
    if (path === undefined) return undefined;
    try {
      return { text: readInputFile(path, MAX_PEM_BYTES, 'a PEM certificate or key'), path, where };
    } catch (error) {
      if (error instanceof InputFileError) throw new ConfigError(`${where}: ${error.message}.`);
      throw error;
    }
  };
  const ca = read('ca-cert', 'ca_cert', tls.ca_cert);
  if (ca && !ca.text.includes('-----BEGIN CERTIFICATE-----'))
    throw new ConfigError(`${ca.where}: ${ca.path} holds no PEM certificate (-----BEGIN CERTIFICATE-----).`);
  const cert = read('client-cert', 'client_cert', tls.client_cert);
  const key = read('client-key', 'client_key', tls.client_key);
  const passphraseVariable = flags['client-key-passphrase-env'] ?? tls.client_key_passphrase_env;
  const passphraseWhere =
    flags['client-key-passphrase-env'] !== undefined ? '--client-key-passphrase-env' : 'tls.client_key_passphrase_env';
  if (cert && !key)
    throw new ConfigError(`${cert.where}: a client certificate needs its key too (--client-key / tls.client_key).`);
  if (key && !cert)
    throw new ConfigError(`${key.where}: a client key needs its certificate too (--client-cert / tls.client_cert).`);
  if (passphraseVariable !== undefined && !key)
    throw new ConfigError(
      `${passphraseWhere}: a passphrase is for a client key; give the key and its certificate too (--client-key, --client-cert).`,
    );
  let passphrase: string | undefined;
  if (passphraseVariable !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(passphraseVariable))
      throw new ConfigError(
        `${passphraseWhere} takes the name of an environment variable (letters, digits, _; what was given is not shown, in case it is the passphrase itself, which is never given on the command line).`,
      );
    passphrase = env[passphraseVariable];
    if (passphrase === undefined || passphrase === '')
      throw new ConfigError(
        `${passphraseWhere}: the environment variable it names is not set (it should hold the client key's passphrase; the name is not shown, in case the passphrase itself was given instead of a variable's name).`,
      );
  }
  if (cert && key) {
    try {
      checkClientIdentity(cert.text, key.text, passphrase);
    } catch (error) {
      if (!(error instanceof ClientIdentityError)) throw error;
      const { about, problem } = error;
      const fromVariable =
        about === 'key' && passphraseVariable !== undefined
          ? ` (passphrase from ${passphraseWhere} ${passphraseVariable})`
          : '';
      const askVariable = /no passphrase/.test(problem)
        ? ': name the environment variable holding it with --client-key-passphrase-env (or tls.client_key_passphrase_env)'
        : '';
      const named =
        about === 'cert'
          ? `${cert.where}: ${cert.path}: ${problem}`
          : about === 'key'
            ? `${key.where}: ${key.path}: ${problem}${fromVariable}${askVariable}`
            : `${key.where}: ${key.path}: ${problem} (${cert.where} ${cert.path})`;
      throw new ConfigError(`${named}.`);
    }
  }
  const insecure = flags.insecure ?? tls.insecure;
  return {
    ...(ca ? { caCert: ca.text } : {}),
    ...(insecure ? { insecure } : {}),
    ...(cert && key ? { clientCert: cert.text, clientKey: key.text } : {}),
    ...(passphrase !== undefined ? { clientKeyPassphrase: passphrase } : {}),
  };
}
