/**
 * A proxy in front of a real server that lets a test break particular exchanges: rewrite a
 * response, answer something else, reset the connection, or never answer.
 */
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from './listen.js';

export interface Upstream {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Intercept = (
  req: { method: string; path: string; body: string; headers: IncomingMessage['headers'] },
  forward: () => Promise<Upstream>,
) => Promise<Upstream | 'reset' | 'hang' | undefined> | Upstream | 'reset' | 'hang' | undefined;

export interface Proxy {
  url: string;
  close(): Promise<void>;
}

export async function startProxy(target: string, intercept: Intercept): Promise<Proxy> {
  const forward = (req: IncomingMessage, body: string) => () =>
    new Promise<Upstream>((resolve, reject) => {
      const up = request(
        new URL(req.url ?? '/', target),
        { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const headers: Record<string, string> = {};
            for (const [k, v] of Object.entries(res.headers))
              if (v !== undefined && k !== 'content-length' && k !== 'connection' && k !== 'keep-alive')
                headers[k] = String(v);
            resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
          });
        },
      );
      up.on('error', reject);
      up.end(body);
    });

  return listen(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const fwd = forward(req, body);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    let decision: Upstream | 'reset' | 'hang';
    try {
      decision =
        (await intercept({ method: req.method ?? 'GET', path, body, headers: req.headers }, fwd)) ?? (await fwd());
    } catch {
      // The upstream is gone (a test closed it while a slow answer was still pending): drop the
      // connection, as a gateway would, rather than leave an unhandled rejection behind.
      return req.socket.destroy();
    }
    if (decision === 'reset') return req.socket.destroy();
    if (decision === 'hang') return;
    res.writeHead(decision.status, { ...decision.headers, 'content-length': String(Buffer.byteLength(decision.body)) });
    res.end(decision.body);
  });
}

/** Rewrites the JSON body of an upstream response. */
export function rewriteJson(up: Upstream, change: (body: any) => unknown, status = up.status): Upstream {
  return { ...up, status, body: JSON.stringify(change(JSON.parse(up.body))) };
}
