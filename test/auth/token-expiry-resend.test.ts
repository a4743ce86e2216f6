/**
 * §5 leaves token lifetime "not shown": a request refused with an expired token is sent again with a
 * new one — and again while each token it was refused with had expired in turn (accepted by the
 * target, then refused: many rules in flight and short lifetimes make it), but never for a new token
 * the target refused before it ever accepted it: that 401 is no expiry, and it stands.
 */
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { TokenSource } from '../../core/auth/token-source.js';
import { Api } from '../../core/engine/api.js';
import { HttpClient } from '../../core/http/client.js';
import { Redactor } from '../../core/http/redact.js';
import { Transcript } from '../../core/http/transcript.js';
import { type Listening, listen } from '../helpers/listen.js';

const STATUS_PATH = '/v1/data-import/account-transfer-status/SUPPLIER/EXT-1/';
let server: Listening | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A target that answers each token as `answer` says (told the run's token source, to accept a token
 * as another rule's request would), and the run's token t0 with an API key that hands out t1, t2, ….
 * Sends one status request through the run's API and returns its answer and the tokens it carried.
 */
async function sendOne(answer: (token: string, tokens: TokenSource) => number) {
  const seen: string[] = [];
  let n = 0;
  const tokens = new TokenSource('t0', async () => `t${++n}`);
  server = await listen((req: IncomingMessage, res) => {
    const token = (req.headers.authorization ?? '').replace(/^Token /, '');
    seen.push(token);
    const status = answer(token, tokens);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(status === 200 ? '{"status":"UNKNOWN"}' : '{"detail":"expired","code":"not_authenticated"}');
  });
  const http = new HttpClient({ baseUrl: server.url, timeoutMs: 10_000, connections: 2, redactor: new Redactor([]) });
  const res = await new Api(http, tokens, new Transcript()).request('GET', STATUS_PATH);
  return { res, seen, tokens };
}

describe('a request whose token expired', () => {
  it('is sent again while each token it met had expired in turn, until one is accepted', async () => {
    // t1 and t2 are accepted by another rule's request, then expire before this request carries them.
    const { res, seen, tokens } = await sendOne((token, source) => {
      if (token === 't3') return 200;
      if (token === 't1' || token === 't2') source.acceptedBy(token);
      return 401;
    });
    expect(res.status).toBe(200);
    expect(seen).toEqual(['t0', 't1', 't2', 't3']);
    expect(tokens.stats.renewals).toBe(3);
    expect(tokens.stats.refusedMidRun).toBe(0);
  });

  it('keeps the 401 when the new token is refused before the target ever accepted it', async () => {
    const { res, seen, tokens } = await sendOne(() => 401);
    expect(res.status).toBe(401);
    expect(seen).toEqual(['t0', 't1']);
    expect(tokens.stats.refusedMidRun).toBe(1);
  });

  it('gives up after a few expiries in a row for one request: tokens that live shorter than a request takes', async () => {
    const { res, seen, tokens } = await sendOne((token, source) => {
      source.acceptedBy(token);
      return 401;
    });
    expect(res.status).toBe(401);
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.length).toBeLessThanOrEqual(6);
    expect(tokens.stopped).toBeUndefined();
  });
});
