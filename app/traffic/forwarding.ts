/**
 * What the proxy may forward, and where: the one target it was started for, never another host. A
 * proxy relays the client's Authorization header, so a request that could steer it elsewhere — an
 * absolute URL, a `//host` path, a backslash a URL parser reads as a slash, CONNECT — or that names
 * a Host the proxy does not answer to (a DNS-rebinding page in a developer's browser) is refused
 * before anything is sent. Headers that belong to one connection (RFC 9110 §7.6.1) and the
 * credentials meant for the proxy itself are never passed on.
 */
import { networkInterfaces } from 'node:os';
import { urlShown } from '../../core/http/redact.js';

/** A target the proxy cannot relay to faithfully: said before it listens, never dropped silently. */
export class ForwardingConfigError extends Error {}

export interface ForwardingPolicy {
  /** The target's origin (`https://staging.example.com:8443`). */
  origin: string;
  /** The target's base path without its trailing slash (`/api`, or empty), put before every request path. */
  basePath: string;
  /** Host names (no port) a request's Host header may name: the proxy's own addresses and those allowed. */
  hosts: ReadonlySet<string>;
}

/** A request the proxy refuses, with the status it answers and what it tells the client. */
export interface Refusal {
  status: 400 | 405 | 421;
  code: string;
  detail: string;
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];
const WILDCARD = new Set(['0.0.0.0', '::', '']);

/** `[::1]:8080` → `::1`; `Example.COM:80` → `example.com`. */
function hostName(authority: string): string {
  const value = authority.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']') >>> 0 || undefined);
  const colon = value.lastIndexOf(':');
  return colon >= 0 && value.indexOf(':') === colon ? value.slice(0, colon) : value;
}

export const isLoopbackHost = (host: string): boolean => {
  const name = hostName(host);
  return name === 'localhost' || name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
};

/**
 * The policy for a proxy to `target` listening on `listenHost`. The target keeps its base path; a
 * target with credentials, a query or a fragment is refused, since the proxy could only drop them.
 */
export function forwardingPolicy(
  target: string,
  listenHost: string,
  allowHosts: readonly string[] = [],
): ForwardingPolicy {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    // Never echo credentials written into it (`http://us er:secret@host` is no URL, and is quoted whole).
    throw new ForwardingConfigError(`--target must be an http(s) URL, got ${urlShown(target)}.`);
  }
  if (!/^https?:$/.test(url.protocol))
    throw new ForwardingConfigError(`--target must be an http(s) URL, got "${url.protocol}".`);
  if (url.username || url.password)
    throw new ForwardingConfigError(
      '--target must not carry credentials (user:password@): the proxy relays the client’s own Authorization header and would have to drop them.',
    );
  if (url.search || url.hash)
    throw new ForwardingConfigError('--target must not carry a query or a fragment: only a base path is kept.');
  const hosts = new Set([...LOOPBACK_NAMES, ...allowHosts.map(hostName)]);
  const listen = hostName(listenHost);
  if (WILDCARD.has(listen))
    for (const addresses of Object.values(networkInterfaces()))
      for (const a of addresses ?? []) hosts.add(a.address.toLowerCase());
  else hosts.add(listen);
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, ''), hosts };
}

const refuse = (status: Refusal['status'], code: string, detail: string): Refusal => ({
  status,
  code,
  detail: `conformance proxy: ${detail}`,
});

/**
 * Why the proxy must not forward this request, or undefined. `target` is the request target as the
 * client sent it (`req.url`); `host` its Host header.
 */
export function refusal(
  method: string,
  target: string,
  host: string | undefined,
  policy: ForwardingPolicy,
): Refusal | undefined {
  if (method.toUpperCase() === 'CONNECT')
    return refuse(405, 'proxy_connect_refused', 'CONNECT is refused: this proxy relays to its --target only.');
  if (!target.startsWith('/') || target.startsWith('//'))
    return refuse(
      400,
      'proxy_origin_form_only',
      'only a path is accepted as the request target (origin-form, RFC 9112 §3.2.1): absolute URLs and //host paths are refused, since this proxy relays to its --target only.',
    );
  const path = target.split('?', 1)[0];
  if (path.includes('\\') || /%5c/i.test(path))
    return refuse(
      400,
      'proxy_backslash_refused',
      'a backslash in the path is refused: URL parsers may read it as a slash.',
    );
  if (host === undefined || !policy.hosts.has(hostName(host)))
    return refuse(
      421,
      'proxy_host_not_allowed',
      'the Host header names no address of this proxy (allow another name with --allow-host).',
    );
  const upstream = upstreamUrl(policy, target);
  if (upstream === undefined)
    return refuse(400, 'proxy_path_escapes_target', 'the path leaves the --target base path (dot segments).');
  return undefined;
}

/** The URL a request target is relayed to: the target's origin and base path, then the path as sent. */
export function upstreamUrl(policy: ForwardingPolicy, target: string): string | undefined {
  let url: URL;
  try {
    url = new URL(`${policy.origin}${policy.basePath}${target}`);
  } catch {
    return undefined;
  }
  // Dot segments (also percent-encoded) are resolved by the parser: what they resolve to must stay
  // on the target, under its base path.
  if (url.origin !== policy.origin) return undefined;
  if (policy.basePath && url.pathname !== policy.basePath && !url.pathname.startsWith(`${policy.basePath}/`))
    return undefined;
  return url.href;
}

/** Headers of one connection (RFC 9110 §7.6.1), the proxy's own credentials, and those recomputed per hop. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/** `headers` without the hop-by-hop ones, including every header the Connection header names. */
export function endToEnd(headers: Record<string, string>): Record<string, string> {
  const named = new Set(
    (headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase()) && !named.has(name.toLowerCase())),
  );
}
