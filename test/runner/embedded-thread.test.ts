/**
 * The embedded reference server on a thread of its own (app/embedded.ts): it answers while the
 * runner's thread is busy, which is what makes the default run use the second core; in this thread
 * (`ownThread: false`, a run of many cases) it answers only once the runner's thread is free. The
 * built module is loaded (dist/, as the CLI runs it): from the sources the thread's module is not
 * there and the server is started in this thread.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const EMBEDDED = new URL('../../dist/app/embedded.js', import.meta.url).href;
/** Time left in the block once the request is sent: a loaded runner's other thread answers within it. */
const ANSWER_MS = 1_000;

/**
 * Another process's request of `url`, sent while this thread is blocked: when it went out and when
 * its answer came, and when the block ended. The child starts node meanwhile (tens of milliseconds,
 * more on a loaded machine): a request sent too late in the block is tried again with a longer one.
 */
async function whileBlocked(url: string): Promise<{ status: number; sent: number; answered: number; freed: number }> {
  for (let busy = 1_500; ; busy *= 2) {
    const child = spawn(
      process.execPath,
      [
        '-e',
        `const sent = Date.now();
         fetch(process.argv[1] + '/v1/data-import/accounts/', { signal: AbortSignal.timeout(20000) })
           .then((r) => console.log(JSON.stringify({ status: r.status, sent, answered: Date.now() })))
           .catch((e) => console.log(JSON.stringify({ error: String(e) })));`,
        url,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const closed = new Promise((resolve) => child.on('close', resolve));
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, busy);
    const freed = Date.now();
    await closed;
    const result = { ...JSON.parse(out), freed };
    if (result.sent < freed - ANSWER_MS || busy > 20_000) return result;
  }
}

describe('the embedded reference server', () => {
  it('answers from its own thread while the runner is busy, and stops when closed', async () => {
    const { startEmbeddedTarget } = await import(EMBEDDED);
    const target = await startEmbeddedTarget();
    let closed = false;
    try {
      const { status, sent, answered, freed } = await whileBlocked(target.baseUrl);
      expect(status).toBe(401);
      expect(sent).toBeLessThan(freed - ANSWER_MS);
      expect(answered).toBeLessThan(freed);
      await target.close();
      closed = true;
      await expect(fetch(`${target.baseUrl}/v1/data-import/accounts/`)).rejects.toThrow();
      // A thread that has ended (closed, or failed mid-run) is not waited for again.
      await target.close();
    } finally {
      if (!closed) await target.close();
    }
  });

  it('answers only once the runner is free when started in its thread', async () => {
    const { startEmbeddedTarget } = await import(EMBEDDED);
    const target = await startEmbeddedTarget({ ownThread: false });
    try {
      const { status, sent, answered, freed } = await whileBlocked(target.baseUrl);
      expect(status).toBe(401);
      expect(sent).toBeLessThan(freed - ANSWER_MS);
      expect(answered).toBeGreaterThanOrEqual(freed);
    } finally {
      await target.close();
    }
  });
});
