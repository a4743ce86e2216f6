/**
 * The embedded reference server on a thread of its own (app/embedded.ts starts it). Sent its seed,
 * it answers with its URL once listening; sent anything after, it closes and says so.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startReferenceServer } from '../reference/index.js';
import type { SeedDocument } from '../reference/seed.js';

const server = await startReferenceServer({ port: 0, host: '127.0.0.1', seed: workerData.seed as SeedDocument });
parentPort!.once('message', async () => {
  await server.close();
  parentPort!.postMessage({ closed: true });
});
parentPort!.postMessage({ url: server.url });
