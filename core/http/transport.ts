/**
 * How the runner reaches a target beyond a plain connection, for staging servers: extra headers a
 * gateway wants on every request (`--header`, config `headers:`), TLS trust (`--ca-cert`, `--insecure`)
 * and the standard proxy variables (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, read by undici's
 * EnvHttpProxyAgent). One dispatcher carries all of it, so the rules' requests and the
 * ObtainServiceToken mutation (§5.1) travel the same way.
 */
import { rootCertificates } from 'node:tls';
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';

export interface TransportOptions {
  /** Sent with every request to the target (names as given; values are treated as secrets). */
  headers?: Record<string, string>;
  /** PEM text of extra certificate authorities to trust (besides the system's). */
  caCert?: string;
  /** Accept any server certificate (never for production; named in the console). */
  insecure?: boolean;
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

/** Parses `Name: value` as given to `--header`; throws a message naming the problem. */
export function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(':');
  const name = colon > 0 ? text.slice(0, colon).trim() : '';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new Error(`must look like 'Name: value', got "${text}"`);
  return [name, text.slice(colon + 1).trim()];
}

/** Checks header names and values before a run starts. */
export function checkHeaders(headers: Record<string, string>, where: string): void {
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new Error(`${where}: "${name}" is not a valid header name`);
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
 * Agent; both with the TLS trust asked for, for the target and for a TLS connection through a proxy.
 */
export function createDispatcher(
  options: TransportOptions,
  pool: Agent.Options = {},
  env: NodeJS.ProcessEnv = process.env,
): Dispatcher {
  // Giving `ca` replaces node's bundled roots; an extra CA must add to them.
  const tls = {
    ...(options.caCert ? { ca: [...rootCertificates, options.caCert] } : {}),
    ...(options.insecure ? { rejectUnauthorized: false } : {}),
  };
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
