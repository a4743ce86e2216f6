/**
 * Why a server behind mutual TLS sent no answer: the client certificate. undici reports such a
 * refusal as "other side closed" or a reset (in TLS 1.3 the server judges the client's certificate
 * after the client has finished its side of the handshake, and undici drops the alert that follows),
 * which reads like a network blip. When the target did not answer, one TLS connection of its own, with
 * the run's TLS settings, tells the cases apart by the alert the server sends or by when it closes.
 */
import { isIP } from 'node:net';
import { type ConnectionOptions, connect } from 'node:tls';
import { type TransportOptions, tlsOptions } from './transport.js';

/** How a probe connection went. */
type Probe =
  | { kind: 'alert'; code: string }
  /** Closed, or reset, without an alert and before any answer; `handshaken` once the client's side was done. */
  | { kind: 'closed'; handshaken: boolean }
  /** The server answered: the handshake was taken, the trouble is elsewhere. */
  | { kind: 'answered' }
  /** Anything else (refused, a server certificate not trusted, no answer in time): not the client certificate. */
  | { kind: 'other' };

/** Alerts a server sends about the client's certificate (RFC 8446 §6.2), as Node names them in error codes. */
const CERTIFICATE_ALERTS =
  /_ALERT_(BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_UNKNOWN|UNSUPPORTED_CERTIFICATE|CERTIFICATE_EXPIRED|CERTIFICATE_REVOKED|ACCESS_DENIED)$/;
const CERTIFICATE_REQUIRED = /_ALERT_CERTIFICATE_REQUIRED$/;
const HANDSHAKE_FAILURE = /_ALERT_HANDSHAKE_FAILURE$/;

/** An alert's name in words: ERR_SSL_TLSV1_ALERT_UNKNOWN_CA → "unknown ca". */
const alertWords = (code: string) =>
  code
    .replace(/^.*_ALERT_/, '')
    .toLowerCase()
    .replace(/_/g, ' ');

const WHERE = '--client-cert / tls.client_cert';

/**
 * Opens one TLS connection to the target and, once the handshake is done, asks `HEAD` of the base
 * path without credentials (an answer of any status says the server took the handshake). Never
 * longer than `timeoutMs`.
 */
function probe(target: URL, tls: ConnectionOptions, timeoutMs: number): Promise<Probe> {
  return new Promise<Probe>((resolve) => {
    const host = target.hostname.replace(/^\[|\]$/g, '');
    let handshaken = false;
    let settled = false;
    const socket = connect({
      host,
      port: Number(target.port || 443),
      // SNI takes a host name only (RFC 6066 §3).
      ...(isIP(host) ? {} : { servername: host }),
      ALPNProtocols: ['http/1.1'],
      ...tls,
    });
    const done = (outcome: Probe) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => done({ kind: 'other' }), timeoutMs);
    socket.on('secureConnect', () => {
      handshaken = true;
      const path = target.pathname.replace(/\/+$/, '') || '/';
      socket.write(`HEAD ${path} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n\r\n`);
    });
    socket.on('data', () => done({ kind: 'answered' }));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? '';
      if (/^ERR_SSL_.*_ALERT_/.test(code)) done({ kind: 'alert', code });
      else if (code === 'ECONNRESET' || code === 'EPIPE') done({ kind: 'closed', handshaken });
      else done({ kind: 'other' });
    });
    socket.on('close', () => done({ kind: 'closed', handshaken }));
  });
}

/** Whether an outcome shows a server that wants a client certificate it was not given. */
const asksForCertificate = (p: Probe) =>
  p.kind === 'alert' &&
  (CERTIFICATE_REQUIRED.test(p.code) || CERTIFICATE_ALERTS.test(p.code) || HANDSHAKE_FAILURE.test(p.code));

/**
 * The cause, in one clause, when the target refused the TLS handshake over the client certificate
 * (none given, or one it does not take); undefined when the probe shows some other trouble. The target
 * must be https and reached directly (a proxy's tunnel is not probed).
 */
export async function clientCertificateRefusal(
  baseUrl: string,
  transport: TransportOptions,
  timeoutMs: number,
): Promise<string | undefined> {
  const target = new URL(baseUrl);
  if (target.protocol !== 'https:') return undefined;
  const presented = !!(transport.clientCert && transport.clientKey);
  const first = await probe(target, tlsOptions(transport), timeoutMs);
  if (first.kind === 'alert') {
    const words = alertWords(first.code);
    if (CERTIFICATE_REQUIRED.test(first.code))
      return presented
        ? `the server asked for a client certificate and did not take the one given (alert: ${words}; ${WHERE})`
        : `the server asked for a client certificate and none was given (${WHERE})`;
    if (CERTIFICATE_ALERTS.test(first.code))
      return presented
        ? `the server refused the client certificate (alert: ${words}; ${WHERE})`
        : `the server asked for a client certificate and none was given (alert: ${words}; ${WHERE})`;
    if (HANDSHAKE_FAILURE.test(first.code) && !presented)
      return `the server refused the handshake without a client certificate (alert: ${words}): it most likely asks for one (${WHERE})`;
  }
  if (!presented || first.kind === 'answered' || first.kind === 'other') return undefined;
  // A server that closes on a certificate it does not take (node's own does, with no alert) is told
  // from one that closes on everyone by a second handshake without the certificate.
  const withoutCertificate = {
    ...transport,
    clientCert: undefined,
    clientKey: undefined,
    clientKeyPassphrase: undefined,
  };
  const bare = await probe(target, tlsOptions(withoutCertificate), timeoutMs);
  if (!asksForCertificate(bare)) return undefined;
  const how = first.kind === 'alert' ? `alert: ${alertWords(first.code)}` : 'it closed the connection in the handshake';
  return `the server refused the client certificate (${how}; without one it answers alert: ${alertWords((bare as { code: string }).code)}; ${WHERE})`;
}
