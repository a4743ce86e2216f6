/**
 * What stands between the runner and a staging server, on loopback: a front that forwards to a real
 * (reference) server — over TLS with a certificate from a CA made here (asking for a client
 * certificate that CA signed, for mutual TLS), and/or checking a gateway header — and a forward
 * proxy (CONNECT) like the ones HTTPS_PROXY points at.
 */
import { createServer as createHttpServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import { generate } from 'selfsigned';

/** A certificate authority: its certificate and the key it signs with. */
async function makeCa(name: string): Promise<{ private: string; cert: string }> {
  return generate([{ name: 'commonName', value: name }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
}

/** A client certificate `ca` signed, with its key (encrypted with `passphrase` when given). */
async function makeClientCertificate(
  ca: { private: string; cert: string },
  name: string,
  passphrase?: string,
): Promise<{ cert: string; key: string }> {
  const client = await generate([{ name: 'commonName', value: name }], {
    keySize: 2048,
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    ...(passphrase ? { passphrase } : {}),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', clientAuth: true },
    ],
  });
  return { cert: client.cert, key: client.private };
}

/**
 * For mutual TLS: a CA with a server certificate for 127.0.0.1 and a client certificate it signed
 * (plain, and with a key encrypted by `passphrase`), and a client certificate another CA signed.
 */
export async function makeMutualTlsMaterial(passphrase: string) {
  const ca = await makeCa('Conformance Test CA');
  const other = await makeCa('Another Test CA');
  const [server, client, encryptedClient, otherClient] = await Promise.all([
    makeServerCertificate(ca),
    makeClientCertificate(ca, 'conformance client'),
    makeClientCertificate(ca, 'conformance client (encrypted key)', passphrase),
    makeClientCertificate(other, 'client of another CA'),
  ]);
  return { caCert: ca.cert, ...server, client, encryptedClient, otherClient };
}

/** A certificate authority and a server certificate for 127.0.0.1 it signed. */
export async function makeTlsMaterial(): Promise<{ caCert: string; key: string; cert: string }> {
  const ca = await makeCa('Conformance Test CA');
  return { caCert: ca.cert, ...(await makeServerCertificate(ca)) };
}

async function makeServerCertificate(ca: { private: string; cert: string }): Promise<{ key: string; cert: string }> {
  const server = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  return { key: server.private, cert: server.cert };
}

export interface Front {
  url: string;
  /** Every request seen: method, path and headers. */
  seen: { method: string; path: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

/**
 * Forwards every request to `upstream`. `gate` may refuse a request (e.g. a missing gateway key) by
 * returning a status; TLS when `tls` is given.
 */
export async function startFront(
  upstream: string,
  options: {
    /** `clientCa`: ask every client for a certificate that CA signed, and refuse the handshake without one. */
    tls?: { key: string; cert: string; clientCa?: string };
    gate?: (req: IncomingMessage) => number | undefined;
  } = {},
): Promise<Front> {
  const seen: Front['seen'] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    const refused = options.gate?.(req);
    if (refused) {
      res
        .writeHead(refused, { 'content-type': 'application/json' })
        .end(JSON.stringify({ detail: 'gateway refused the request' }));
      return;
    }
    const up = request(
      new URL(req.url ?? '/', upstream),
      { method: req.method, headers: { ...req.headers, host: new URL(upstream).host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  };
  const server = options.tls
    ? createHttpsServer(
        {
          key: options.tls.key,
          cert: options.tls.cert,
          ...(options.tls.clientCa ? { ca: options.tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}),
        },
        handler,
      )
    : createHttpServer(handler);
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface ForwardProxy {
  url: string;
  /** Every tunnel asked for (host:port) and every request forwarded in absolute form (URL). */
  seen: string[];
  close(): Promise<void>;
}

/** A forward proxy: CONNECT tunnels and absolute-form http requests, as corporate proxies do. */
export async function startForwardProxy(): Promise<ForwardProxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    seen.push(req.url ?? '');
    const target = new URL(req.url ?? '');
    const up = request(target, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = netConnect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
