/**
 * The embedded default target: `npx conformance` with no base URL starts the reference server on a
 * free loopback port with the default seed, and configures every fixture so that no rule is
 * skipped for lack of one — including the §8 concurrency limit, which needs processing to take a
 * little time to be observable.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FixturesConfig } from '../core/config/schema.js';
import type { PayloadTemplatesInput } from '../core/config/payloads.js';
import type { EmbeddedTarget } from '../core/engine/connection.js';

/**
 * Processing slow enough for IN_PROGRESS and 429 to be observable (suites/limits.ts needs the burst's
 * accounts seen IN_PROGRESS together), fast enough not to matter. Eight at once, not four: a default
 * run makes some 480 process calls, each holding a slot for its 15 ms, and with four slots the rules
 * waiting for one left both threads idle for the last second of the run.
 */
export const EMBEDDED_LIMIT = { concurrencyLimit: 8, processingDelayMs: 15 };

/**
 * The fixtures that match the reference server's default seed (reference/seed.ts) with the embedded
 * settings: every precondition of docs/design.md §5 is configured.
 */
export async function embeddedFixtures(): Promise<NonNullable<FixturesConfig>> {
  // The seed's module, not the server's: the runner's thread never loads the server's code.
  const { DEFAULT_FIXTURES: f } = await import('../reference/seed.js');
  return {
    import_suppliers: { ...f.import_suppliers },
    operations_team: f.operations_team,
    skipped_account: f.skipped_account,
    paused_supplier_staged_account: f.paused_supplier_staged_account,
    complete_supplier_staged_account: f.complete_supplier_staged_account,
    payment_instruction: {
      vendor: f.payment_instruction.vendor,
      type: f.payment_instruction.type,
      references: { ...f.payment_instruction.references, valid: [...f.payment_instruction.references.valid] },
    },
    concurrency_limit: EMBEDDED_LIMIT.concurrencyLimit,
  };
}

/** The reference server's shapes for the two payloads §4.2 does not show (reference/README.md). */
export function embeddedPayloads(): PayloadTemplatesInput {
  return {
    agreements: {
      import_supplier: '{{import_supplier}}',
      external_account_number: '{{external_account_number}}',
      supply_point_identifier: '{{supply_point_identifier}}',
      agreements: [{ tariff_code: '2.0TD', effective_from: '2025-01-01', effective_to: '2025-12-31' }],
    },
    supply_points: {
      import_supplier: '{{import_supplier}}',
      external_account_number: '{{external_account_number}}',
      supply_points: [
        { identifier: '{{new_supply_point_identifier}}', supply_type: 'ELECTRICITY', supply_start_date: '2025-01-01' },
      ],
    },
  };
}

/** The reference server's seed with the embedded settings, for secrets of the caller's choosing. */
export async function embeddedSeed(secrets: { token?: string; apiKey?: string }) {
  const { defaultSeed } = await import('../reference/seed.js');
  const seed = defaultSeed(secrets);
  seed.settings = {
    concurrency_limit: EMBEDDED_LIMIT.concurrencyLimit,
    processing_delay_ms: EMBEDDED_LIMIT.processingDelayMs,
  };
  return seed;
}

/** The embedded server's thread, beside this module once built (dist/app, or the bundle's dist/cli). */
const SERVER_THREAD = new URL('./embedded-server.js', import.meta.url);

/** The secrets of the embedded server: made afresh for each run, never printed (redacted like any). */
interface EmbeddedSecrets {
  token: string;
  apiKey: string;
}

const freshSecrets = (): EmbeddedSecrets => ({
  token: randomBytes(16).toString('hex'),
  apiKey: randomBytes(16).toString('hex'),
});

type Started = { url: string; close(): Promise<void> };

/**
 * The server on a thread of its own, so that it answers on the second core while the runner judges
 * on the first: the server's handlers take some 2 s of CPU of a default run, the runner's rules 3.4 s
 * (measured with --cpu-prof), and on one thread they add up. The thread builds its seed from the
 * secrets (embedded-server.ts), so the runner's thread loads none of the server's code. Undefined
 * where the thread's module is not built (the sources run by a test): the caller then starts the
 * server in this thread, where it answers the same.
 */
function onOwnThread(secrets: EmbeddedSecrets): Promise<Started> | undefined {
  if (!existsSync(fileURLToPath(SERVER_THREAD))) return undefined;
  const worker = new Worker(SERVER_THREAD, { workerData: { secrets } });
  // The run's end, not the server's, ends the process: a run that fails before close() must not hang.
  worker.unref();
  // A thread that fails after it listened ends the server, not the run: its requests are then
  // refused, which the rules report as errors (an unheard 'error' event would throw in this thread).
  let ended = false;
  worker.on('error', () => {}).once('exit', () => (ended = true));
  const reply = (want: 'url' | 'closed') =>
    new Promise<{ url?: string }>((resolve, reject) => {
      const onMessage = (message: { url?: string; closed?: boolean }) => {
        if (!(want in message)) return;
        worker.off('message', onMessage).off('error', reject).off('exit', onExit);
        resolve(message);
      };
      const onExit = (code: number) =>
        reject(
          new Error(
            `the embedded reference server's thread ended (exit ${code}) before it ${want === 'url' ? 'listened' : 'closed'}`,
          ),
        );
      worker.on('message', onMessage).once('error', reject).once('exit', onExit);
    });
  return reply('url').then(({ url }) => ({
    url: url!,
    close: async () => {
      if (ended) return;
      const closed = reply('closed');
      worker.postMessage('close');
      await closed;
      await worker.terminate();
    },
  }));
}

/** A server thread started before the run knew it would need one (`prestartEmbeddedTarget`). */
let early: { secrets: EmbeddedSecrets; started: Promise<Started> } | undefined;

/**
 * Starts the server's thread at once, for a run that will most likely aim at it (the CLI calls this
 * when nothing names a base URL, before it loads the suites): the thread loads the server's code on
 * the second core while this one loads the runner's, instead of after it (a default run waited some
 * 180 ms for the thread to listen). `startEmbeddedTarget` takes it; a run that turns out to have a
 * target of its own leaves it unused, and the unreferenced thread ends with the process. Resolves to
 * its URL once it listens (undefined where it cannot start, or runs from the sources).
 */
export function prestartEmbeddedTarget(): Promise<string | undefined> {
  if (!early) {
    const secrets = freshSecrets();
    const started = onOwnThread(secrets);
    if (!started) return Promise.resolve(undefined);
    early = { secrets, started };
  }
  // Its URL once it listens; a thread that cannot start says so when the run takes it
  // (startEmbeddedTarget), not here.
  return early.started.then(
    (server) => server.url,
    () => undefined,
  );
}

/**
 * `ownThread` (the default): the server runs on a thread of its own (onOwnThread), a default run's
 * 12 % faster. A run of many cases passes false: a second JavaScript heap costs it some 20 MB more
 * resident memory, and at that scale memory is what binds (app/cli/memory.ts).
 */
export async function startEmbeddedTarget({ ownThread = true }: { ownThread?: boolean } = {}): Promise<EmbeddedTarget> {
  const taken = ownThread ? early : undefined;
  if (taken) early = undefined;
  const secrets = taken?.secrets ?? freshSecrets();
  const server =
    (await (taken?.started ?? (ownThread ? onOwnThread(secrets) : undefined))) ??
    (await (
      await import('../reference/index.js')
    ).startReferenceServer({
      port: 0,
      host: '127.0.0.1',
      seed: await embeddedSeed(secrets),
    }));
  return {
    baseUrl: server.url,
    apiKey: secrets.apiKey,
    fixtures: await embeddedFixtures(),
    payloads: embeddedPayloads(),
    close: () => server.close(),
  };
}
