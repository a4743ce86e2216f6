/** A kill-matrix worker thread: runs the tasks it is sent, one at a time. */
import { parentPort } from 'node:worker_threads';
import type { Selection } from '../../core/engine/select.js';
import { type Target, runTask } from './task.js';

parentPort!.on('message', async (message: { target: Target; seed: number; numRuns: number; selection?: Selection }) => {
  try {
    parentPort!.postMessage({ ok: true, result: await runTask(message.target, message) });
  } catch (error) {
    parentPort!.postMessage({
      ok: false,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
  }
});
