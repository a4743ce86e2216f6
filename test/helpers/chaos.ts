/**
 * A hostile target for the runner's robustness tests: in front of a real reference server, chosen
 * requests get garbage or truncated JSON, the wrong content type, HTML error pages, empty bodies,
 * 5xx, huge bodies, slow bodies, no answer, a reset, a close mid-body, a redirect to another origin,
 * or 200 to everything. Records every request it sees (method, path, authorization).
 */
import { request } from 'node:http';
import { listen } from './listen.js';

export type Behaviour =
  | 'garbage'
  | 'truncated-json'
  | 'wrong-content-type'
  | 'html-error'
  | 'empty'
  | 'server-error'
  | 'huge'
  | 'slow-body'
  | 'hang'
  | 'reset'
  | 'close-mid-body'
  | 'redirect'
  | 'ok-to-everything';

export const BEHAVIOURS: Behaviour[] = [
  'garbage',
  'truncated-json',
  'wrong-content-type',
  'html-error',
  'empty',
  'server-error',
  'huge',
  'slow-body',
  'hang',
  'reset',
  'close-mid-body',
  'redirect',
  'ok-to-everything',
];

export interface Seen {
  method: string;
  path: string;
  authorization?: string;
}

export interface Chaos {
  url: string;
  seen: Seen[];
  /** Requests that reached the redirect target (must stay empty: redirects are not followed). */
  redirected: Seen[];
  close(): Promise<void>;
}

/** `plan` picks the behaviour of each request (undefined: forward it to the real server). */
export async function startChaos(target: string, plan: (req: Seen) => Behaviour | undefined): Promise<Chaos> {
  const seen: Seen[] = [];
  const redirected: Seen[] = [];
  const elsewhere = await listen((req, res) => {
    redirected.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const front = await listen(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const info: Seen = { method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization };
    seen.push(info);
    const behaviour = plan(info);
    const json = (status: number, text: string, type = 'application/json') =>
      res.writeHead(status, { 'content-type': type, 'content-length': String(Buffer.byteLength(text)) }).end(text);
    switch (behaviour) {
      case undefined: {
        const up = request(
          new URL(req.url ?? '/', target),
          { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
          (upRes) => {
            res.writeHead(upRes.statusCode ?? 502, upRes.headers);
            upRes.pipe(res);
          },
        );
        up.on('error', () => res.destroy());
        return up.end(Buffer.concat(chunks));
      }
      case 'garbage':
        return json(200, '\u0000\u00ff{]}not json at all');
      case 'truncated-json':
        return json(201, '{"import_supplier": "SUPPLIER_ONGOING", "external_account_num');
      case 'wrong-content-type':
        return json(200, 'status=ok&count=1', 'application/x-www-form-urlencoded');
      case 'html-error':
        return json(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html');
      case 'empty':
        return json(200, '');
      case 'server-error':
        return json(503, '{"detail":"maintenance"}');
      case 'huge': {
        // 40 MB of valid-looking JSON: the runner must cap what it reads.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[');
        const chunk = `${'{"external_account_number":"x"},'.repeat(32 * 1024)}`;
        let sent = 0;
        const pump = () => {
          while (sent < 40) {
            sent++;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end('{}]');
        };
        pump();
        res.on('error', () => undefined);
        return;
      }
      case 'slow-body': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => res.write(' '), 200);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case 'hang':
        return; // never answers
      case 'reset':
        return req.socket.destroy();
      case 'close-mid-body':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"status": "UNKNO');
        return void setTimeout(() => req.socket.destroy(), 10);
      case 'redirect':
        return res.writeHead(307, { location: `${elsewhere.url}${req.url}` }).end();
      case 'ok-to-everything':
        return json(200, '{}');
    }
  });
  return {
    url: front.url,
    seen,
    redirected,
    close: async () => {
      await front.close();
      await elsewhere.close();
    },
  };
}
