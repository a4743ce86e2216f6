/**
 * How the runner reaches a target beyond a plain connection, for staging servers: extra headers a
 * gateway wants on every request (`--header`, config `headers:`), TLS trust (`--ca-cert`, `--insecure`),
 * a client certificate for a server behind mutual TLS (`--client-cert`, `--client-key`) and the
 * standard proxy variables (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, read by undici's
 * EnvHttpProxyAgent). One dispatcher carries all of it, so the rules' requests and the
 * ObtainServiceToken mutation (§5.1) travel the same way.
 */
import { type ConnectionOptions, createSecureContext, rootCertificates } from 'node:tls';
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';

export interface TransportOptions {
  /** Sent with every request to the target (names as given; values are treated as secrets). */
  headers?: Record<string, string>;
  /** PEM text of extra certificate authorities to trust (besides the system's). */
  caCert?: string;
  /** Accept any server certificate (never for production; named in the console). */
  insecure?: boolean;
  /** The client certificate (PEM, with its chain) a server behind mutual TLS asks for; with `clientKey`. */
  clientCert?: string;
  /** PEM text of the client certificate's private key: a secret, never shown, never sent. */
  clientKey?: string;
  /** The key's passphrase when it is encrypted: a secret, never shown. */
  clientKeyPassphrase?: string;
}

/**
 * What the redactor learns of the client identity: the passphrase, the key, and each line of the key's
 * base64 body (a leak would more likely be a piece of it than the whole file). None is ever sent;
 * registered so that a mistake elsewhere still cannot print them.
 */
export function clientSecrets(options: TransportOptions | undefined): string[] {
  const key = options?.clientKey;
  const lines = key
    ? key.split(/\r?\n/).filter((l) => l.length >= 16 && !l.startsWith('-----') && !l.includes(':'))
    : [];
  return [...(key ? [key] : []), ...lines, ...(options?.clientKeyPassphrase ? [options.clientKeyPassphrase] : [])];
}

/** True when the transport needs an agent of its own (TLS settings or a proxy) rather than a plain pool. */
export function needsAgent(options: TransportOptions, env: NodeJS.ProcessEnv = process.env): boolean {
  return !!(options.caCert || options.insecure || options.clientCert || proxyConfigured(env));
}

/**
 * The TLS options of every connection to the target: the run's client, the token mutation and the
 * proxy's upstream all take these, so they trust and present the same certificates.
 */
export function tlsOptions(options: TransportOptions): ConnectionOptions {
  return {
    // Giving `ca` replaces node's bundled roots; an extra CA must add to them.
    ...(options.caCert ? { ca: [...rootCertificates, options.caCert] } : {}),
    ...(options.insecure ? { rejectUnauthorized: false } : {}),
    ...(options.clientCert && options.clientKey ? { cert: options.clientCert, key: options.clientKey } : {}),
    ...(options.clientKeyPassphrase !== undefined ? { passphrase: options.clientKeyPassphrase } : {}),
  };
}

/** Why a client certificate and key cannot be used, found before the first request: which file, and what. */
export class ClientIdentityError extends Error {
  constructor(
    readonly about: 'cert' | 'key' | 'pair',
    readonly problem: string,
  ) {
    super(`${about}: ${problem}`);
  }
}

/**
 * Loads the client certificate and key as a TLS connection would, so a wrong passphrase, a key of
 * another certificate or a file that holds something else is said before the run. The messages name
 * the problem in words: never the key's bytes, never the passphrase (OpenSSL's own text is not passed on).
 */
export function checkClientIdentity(cert: string, key: string, passphrase: string | undefined): void {
  if (!cert.includes('-----BEGIN CERTIFICATE-----'))
    throw new ClientIdentityError('cert', 'holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key))
    throw new ClientIdentityError('key', 'holds no PEM private key (-----BEGIN ... PRIVATE KEY-----)');
  const encrypted = /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type:\s*4,ENCRYPTED/.test(key);
  if (encrypted && passphrase === undefined)
    throw new ClientIdentityError('key', 'is encrypted, and no passphrase was given');
  try {
    createSecureContext({ cert, key, ...(passphrase !== undefined ? { passphrase } : {}) });
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (code === 'ERR_OSSL_BAD_DECRYPT')
      throw new ClientIdentityError('key', encrypted ? 'the passphrase does not decrypt it' : 'cannot be decrypted');
    if (code === 'ERR_OSSL_X509_KEY_VALUES_MISMATCH')
      throw new ClientIdentityError('pair', "the key is not the client certificate's (key values mismatch)");
    // Which of the two OpenSSL could not read: the certificate is loaded first.
    let certReadable = true;
    try {
      createSecureContext({ cert });
    } catch {
      certReadable = false;
    }
    throw certReadable
      ? new ClientIdentityError('key', `is not a readable private key${code ? ` (${code})` : ''}`)
      : new ClientIdentityError('cert', `is not a readable PEM certificate${code ? ` (${code})` : ''}`);
  }
}

/**
 * Headers the runner sets itself or that carry the protocol: a user header with one of these names
 * would silently change what a rule sends (§5.2 auth rules send no or a bad Authorization on purpose).
 */
export const RESERVED_HEADERS = new Set([
  'authorization',
  'content-type',
  'content-length',
  'host',
  'transfer-encoding',
  'connection',
]);

/** A header name as HTTP allows it (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * `Name=value`, the usual slip for `Name: value`, with a name of hyphenated words (X-Gateway-Key).
 * Only then is the name said back: a name of one word before an `=` may as well be the start of a
 * secret written without its name (base64 ends in `=`, many tokens hold one).
 */
const EQUALS_SLIP = /^\s*([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+)\s*=\s*[^=\s]/;

/**
 * Parses `Name: value` as given to `--header` (or a line of CONFORMANCE_HEADERS); throws a message
 * naming the problem. The message never quotes what was given: a malformed header is most often a
 * secret written the wrong way, and a usage error is printed, logged and pasted into issues.
 */
export function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(':');
  const name = colon > 0 ? text.slice(0, colon).trim() : '';
  if (HEADER_NAME.test(name)) return [name, text.slice(colon + 1).trim()];
  const slip = EQUALS_SLIP.exec(text);
  if (slip)
    throw new Error(
      `must look like 'Name: value', with a colon: ${slip[1]} is followed by '=' (its value is not shown); write '${slip[1]}: …'`,
    );
  throw new Error("must look like 'Name: value' (what was given is not shown, since it may hold a secret)");
}

/** Checks header names and values before a run starts. */
export function checkHeaders(headers: Record<string, string>, where: string): void {
  for (const [name, value] of Object.entries(headers)) {
    // Not quoted: a name that is no header name may be a whole `Name: secret` written as one.
    if (!HEADER_NAME.test(name))
      throw new Error(
        `${where}: a header name holds a character no header name may (letters, digits and !#$%&'*+.^_\`|~- only; the name is not shown, since it may hold a secret)`,
      );
    if (/[\r\n\0]/.test(value)) throw new Error(`${where}: the value of ${name} contains a line break`);
    if (RESERVED_HEADERS.has(name.toLowerCase()))
      throw new Error(
        `${where}: ${name} is set by the runner itself${name.toLowerCase() === 'authorization' ? ' (give the token with --token, CONFORMANCE_TOKEN or auth.token)' : ''}`,
      );
  }
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/** True when the environment names a proxy. */
export function proxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return PROXY_VARIABLES.some((v) => !!env[v]);
}

/**
 * The dispatcher for a run: an EnvHttpProxyAgent when the environment names a proxy (it honours
 * NO_PROXY and, like curl, sends nothing through the proxy for hosts listed there), else a plain
 * Agent; both with the TLS trust and client certificate asked for, for the target and for a TLS
 * connection through a proxy (the client certificate goes to the target, never to the proxy).
 */
export function createDispatcher(
  options: TransportOptions,
  pool: Agent.Options = {},
  env: NodeJS.ProcessEnv = process.env,
): Dispatcher {
  const tls = tlsOptions(options);
  const connect = { ...(pool.connect as object | undefined), ...tls };
  if (!proxyConfigured(env)) return new Agent({ ...pool, connect });
  return new EnvHttpProxyAgent({
    ...pool,
    connect,
    requestTls: tls,
    httpProxy: env.HTTP_PROXY ?? env.http_proxy,
    httpsProxy: env.HTTPS_PROXY ?? env.https_proxy,
    noProxy: env.NO_PROXY ?? env.no_proxy,
  } as ConstructorParameters<typeof EnvHttpProxyAgent>[0]);
}
