/**
 * The embedded reference server on a thread of its own (app/embedded.ts starts it). Given the run's
 * secrets, it builds the embedded seed and answers with its URL once listening; sent anything after,
 * it closes and says so.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startReferenceServer } from '../reference/index.js';
import { embeddedSeed } from './embedded.js';

const seed = await embeddedSeed(workerData.secrets as { token: string; apiKey: string });
const server = await startReferenceServer({ port: 0, host: '127.0.0.1', seed });
parentPort!.once('message', async () => {
  await server.close();
  parentPort!.postMessage({ closed: true });
});
parentPort!.postMessage({ url: server.url });
