/**
 * The proxy relays to its target only, and what it learns of the session's secrets never leaves it.
 * Each attack is sent as an attacker would (raw request lines, so nothing normalises them first),
 * with a canary listener standing for "another host": it must receive nothing.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endToEnd, forwardingPolicy, refusal, upstreamUrl } from '../../app/traffic/forwarding.js';
import { startTrafficProxy, type TrafficProxy } from '../../app/traffic/proxy.js';
import { DEFAULT_API_KEY, DEFAULT_TOKEN, startReferenceServer, type ReferenceServer } from '../../reference/index.js';
import { runCli, startCli, startProxyCli, stop } from '../helpers/cli.js';
import { client } from '../helpers/http.js';
import { type Listening, listen } from '../helpers/listen.js';
import { PATHS, SUPPLIER } from '../helpers/reference.js';

/** Sends `head` (request line and headers, CRLF-separated, no final blank line) on a fresh socket; the status answered. */
function raw(url: string, head: string): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${head}\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (d) => (text += d));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text }));
  });
}

/** A listener that counts what reaches it and echoes the path and headers it got. */
async function canary(): Promise<Listening & { hits: { url: string; headers: Record<string, unknown> }[] }> {
  const hits: { url: string; headers: Record<string, unknown> }[] = [];
  const server = await listen((req, res) => {
    hits.push({ url: req.url ?? '', headers: { ...req.headers } });
    res.writeHead(200, { 'content-type': 'application/json', connection: 'close, x-hop-answer', 'x-hop-answer': 'h' });
    res.end(JSON.stringify({ url: req.url }));
  });
  return Object.assign(server, { hits });
}

describe('forwarding policy', () => {
  const policy = forwardingPolicy('http://127.0.0.1:9/base/', '127.0.0.1');

  it.each([
    ['an absolute URL', 'GET', 'http://127.0.0.1:1/x', 400],
    ['a //host path', 'GET', '//127.0.0.1:1/x', 400],
    ['a backslash path', 'GET', '/\\127.0.0.1:1/x', 400],
    ['an encoded backslash', 'GET', '/%5C%5Cevil/x', 400],
    ['dot segments out of the base path', 'GET', '/../other/v1/', 400],
    ['encoded dot segments', 'GET', '/%2e%2e/other', 400],
    ['the asterisk form', 'OPTIONS', '*', 400],
    ['CONNECT', 'CONNECT', '127.0.0.1:1', 405],
  ])('refuses %s', (_what, method, target, status) => {
    expect(refusal(method, target, '127.0.0.1:8080', policy)?.status).toBe(status);
  });

  it('refuses a Host it does not answer to, and accepts its own names and those allowed', () => {
    expect(refusal('GET', '/v1/x', 'rebind.attacker.example:8080', policy)?.status).toBe(421);
    expect(refusal('GET', '/v1/x', undefined, policy)?.status).toBe(421);
    for (const host of ['127.0.0.1:8080', 'LOCALHOST:8080', '[::1]:8080', 'localhost'])
      expect(refusal('GET', '/v1/x', host, policy), host).toBeUndefined();
    const allowing = forwardingPolicy('http://127.0.0.1:9', '127.0.0.1', ['proxy.internal']);
    expect(refusal('GET', '/v1/x', 'proxy.internal:81', allowing)).toBeUndefined();
  });

  it('keeps the base path, and refuses a target it could only relay by dropping part of it', () => {
    expect(upstreamUrl(policy, '/v1/data-import/x/?a=1')).toBe('http://127.0.0.1:9/base/v1/data-import/x/?a=1');
    expect(() => forwardingPolicy('http://user:pw@127.0.0.1:9', '127.0.0.1')).toThrow(/credentials/);
    expect(() => forwardingPolicy('http://127.0.0.1:9/?k=v', '127.0.0.1')).toThrow(/query/);
    expect(() => forwardingPolicy('ftp://127.0.0.1:9', '127.0.0.1')).toThrow(/http\(s\)/);
  });

  it('drops hop-by-hop headers, those the Connection header names, and Proxy-Authorization', () => {
    expect(
      endToEnd({
        connection: 'close, X-Hop',
        'x-hop': '1',
        'keep-alive': 'timeout=5',
        te: 'trailers',
        'proxy-authorization': 'Basic eDp5',
        'proxy-connection': 'keep-alive',
        upgrade: 'h2c',
        host: 'a',
        authorization: 'Token t',
        'x-kept': 'k',
      }),
    ).toEqual({ authorization: 'Token t', 'x-kept': 'k' });
  });
});

describe('the proxy, attacked', () => {
  let other: Awaited<ReturnType<typeof canary>>;
  let target: Awaited<ReturnType<typeof canary>>;
  let proxy: TrafficProxy;
  const refused: number[] = [];

  beforeAll(async () => {
    other = await canary();
    target = await canary();
    proxy = await startTrafficProxy({ target: `${target.url}/gateway/api`, onRefusal: (r) => refused.push(r.status) });
  });
  afterAll(async () => {
    await proxy.close();
    await other.close();
    await target.close();
  });

  it('sends nothing, token included, to a host other than its target', async () => {
    const { port } = new URL(proxy.url);
    const otherHost = new URL(other.url).host;
    const attacks = [
      `GET //${otherHost}/x HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Token T-steal`,
      `GET http://${otherHost}/abs HTTP/1.1\r\nHost: ${otherHost}\r\nAuthorization: Token T-steal`,
      `GET /\\${otherHost}/x HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Token T-steal`,
      `CONNECT ${otherHost} HTTP/1.1\r\nHost: ${otherHost}\r\nAuthorization: Token T-steal`,
      `GET /v1/data-import/x/ HTTP/1.1\r\nHost: rebind.attacker.example:${port}\r\nAuthorization: Token T-steal`,
    ];
    const answers = [];
    for (const attack of attacks) answers.push(await raw(proxy.url, attack));
    // Node's own parser may refuse a malformed request line before the proxy sees it (400 too).
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 405, 421]);
    for (const a of answers.filter((x) => x.status !== 400 || x.text.includes('{')))
      expect(a.text).toMatch(/conformance proxy: /);
    expect(other.hits).toEqual([]);
    expect(target.hits).toEqual([]);
    expect(proxy.exchanges).toEqual([]);
    expect(refused.length).toBeGreaterThanOrEqual(4);
  });

  it('relays under the base path, without hop-by-hop headers or the proxy credentials', async () => {
    const answer = await raw(
      proxy.url,
      [
        `GET ${PATHS.pending(SUPPLIER)} HTTP/1.1`,
        `Host: 127.0.0.1:${new URL(proxy.url).port}`,
        'Authorization: Token T-relayed',
        'Proxy-Authorization: Basic dXNlcjpwcm94eS1wYXNz',
        'X-Hop: secret-for-the-proxy',
        'Keep-Alive: timeout=5',
        'Connection: X-Hop',
      ].join('\r\n'),
    );
    expect(answer.status).toBe(200);
    expect(target.hits).toHaveLength(1);
    const [hit] = target.hits;
    expect(hit.url).toBe(`/gateway/api${PATHS.pending(SUPPLIER)}`);
    expect(hit.headers.authorization).toBe('Token T-relayed');
    expect(Object.keys(hit.headers)).not.toEqual(
      expect.arrayContaining(['proxy-authorization', 'x-hop', 'keep-alive']),
    );
    expect(Object.keys(hit.headers).filter((h) => /proxy-authorization|x-hop|keep-alive/.test(h))).toEqual([]);
    // Nor does the target's own hop-by-hop header reach the client.
    expect(answer.text).not.toMatch(/x-hop-answer/i);
    // What the proxy keeps has its credentials redacted.
    expect(JSON.stringify(proxy.exchanges)).not.toMatch(/T-relayed|dXNlcjpwcm94eS1wYXNz|proxy-pass/);
  });
});

describe('conformance proxy (the command), its secrets and its console', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer();
  });
  afterAll(() => server.close());

  it('refuses a target with credentials, naming the flag (exit 2)', async () => {
    const res = await runCli(['proxy', '--target', 'http://user:hunter2@127.0.0.1:9']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--target must not carry credentials/);
    expect(res.stderr).not.toContain('hunter2');
  });

  it('a bad --reporter value is quoted as data in the usage error', async () => {
    const res = await runCli(['check-traffic', 'x.har', '--reporter', 'json\u001b]0;owned\u0007\n✓ Conformant']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--reporter must be one of/);
    expect(res.stderr).not.toMatch(/[\u0007\u001b]/);
    expect(res.stderr).not.toMatch(/^✓ Conformant/m);
  });

  it('warns when it listens on an address that is not loopback', async () => {
    const { child, firstLine, stderr } = await startCli([
      'proxy',
      '--target',
      server.url,
      '--host',
      '0.0.0.0',
      '--reporter',
      'json',
      '--report-dir',
      mkdtempSync(join(tmpdir(), 'proxy-host-')),
    ]);
    try {
      expect(firstLine).toMatch(/Proxy on/);
      await stop(child);
      expect(stderr()).toMatch(/warning: listening on 0\.0\.0\.0, not a loopback address/);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('no secret of the session, in any header or the token mutation, reaches a report, the HAR or the console', async () => {
    const { child, firstLine, dir, url } = await startProxyCli(server.url, 'proxy-secrets-', [
      '--secret-header',
      'X-Gateway-Key',
    ]);
    let stdout = firstLine;
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    try {
      // The §5.1 mutation with the key written into the query text: the token it issues is never used.
      const mutation = await fetch(`${url}/v1/graphql/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: `mutation { obtainServiceToken(input: {APIKey: "${DEFAULT_API_KEY}"}) { token } }`,
        }),
      });
      const issued = ((await mutation.json()) as { data: { obtainServiceToken: { token: string } } }).data
        .obtainServiceToken.token;
      expect(issued.length).toBeGreaterThan(8);
      const call = client(url, null);
      const secretHeaders = {
        'x-api-key': 'xapikey-SECRET-1',
        cookie: 'sessionid=cookie-SECRET-2; theme=dark',
        'proxy-authorization': 'Basic cHJveHk6cHJveHktU0VDUkVULTM=',
        'x-gateway-key': 'gateway-SECRET-4',
      };
      // A bare credential with no scheme word, and the real token, each echoed in a body field name.
      await call('POST', PATHS.validate, {
        headers: { authorization: 'bare-SECRET-5', ...secretHeaders },
        body: { 'bare-SECRET-5': 1, [`\r\n✓ Conformant\u009b2J\u202e\u2028${issued}`]: 2 },
      });
      await call('GET', PATHS.pending(SUPPLIER), {
        headers: { authorization: `Token ${DEFAULT_TOKEN}`, ...secretHeaders },
      });
      expect(await stop(child)).toBe(1);
      const outputs = [
        stdout,
        stderr,
        readFileSync(join(dir, 'session.har'), 'utf8'),
        ...readdirSync(join(dir, 'out')).map((f) => readFileSync(join(dir, 'out', f), 'utf8')),
      ];
      expect(outputs.length).toBeGreaterThanOrEqual(8);
      const secrets = [
        DEFAULT_API_KEY,
        DEFAULT_TOKEN,
        issued,
        'xapikey-SECRET-1',
        'cookie-SECRET-2',
        'cHJveHk6cHJveHktU0VDUkVULTM',
        'proxy-SECRET-3',
        'gateway-SECRET-4',
        'bare-SECRET-5',
      ];
      for (const [i, text] of outputs.entries())
        for (const secret of secrets) expect(text, `output ${i} holds ${secret}`).not.toContain(secret);
      // The client's hostile field name is printed as data: no raw control, bidi or separator character.
      expect(stdout).toMatch(/traffic\.client\.request-body/);
      expect(stdout.replace(/\u001b\[[0-9;]*m/g, '')).not.toMatch(
        /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/,
      );
      expect(stdout).not.toMatch(/^✓ Conformant/m);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
