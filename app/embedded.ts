/**
 * The embedded default target: `npx conformance` with no base URL starts the reference server on a
 * free loopback port with the default seed, and configures every fixture so that no rule is
 * skipped for lack of one — including the §8 concurrency limit, which needs processing to take a
 * little time to be observable.
 */
import { randomBytes } from 'node:crypto';
import type { FixturesConfig } from '../core/config/schema.js';
import type { PayloadTemplatesInput } from '../core/config/payloads.js';
import type { EmbeddedTarget } from '../core/engine/connection.js';

/** Processing slow enough for IN_PROGRESS and 429 to be observable, fast enough not to matter. */
export const EMBEDDED_LIMIT = { concurrencyLimit: 4, processingDelayMs: 15 };

/**
 * The fixtures that match the reference server's default seed (reference/seed.ts) with the embedded
 * settings: every precondition of docs/design.md §5 is configured.
 */
export async function embeddedFixtures(): Promise<NonNullable<FixturesConfig>> {
  const { DEFAULT_FIXTURES: f } = await import('../reference/index.js');
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
  const { defaultSeed } = await import('../reference/index.js');
  const seed = defaultSeed(secrets);
  seed.settings = {
    concurrency_limit: EMBEDDED_LIMIT.concurrencyLimit,
    processing_delay_ms: EMBEDDED_LIMIT.processingDelayMs,
  };
  return seed;
}

export async function startEmbeddedTarget(): Promise<EmbeddedTarget> {
  const { startReferenceServer } = await import('../reference/index.js');
  const apiKey = randomBytes(16).toString('hex');
  const seed = await embeddedSeed({ token: randomBytes(16).toString('hex'), apiKey });
  const server = await startReferenceServer({ port: 0, host: '127.0.0.1', seed });
  return {
    baseUrl: server.url,
    apiKey,
    fixtures: await embeddedFixtures(),
    payloads: embeddedPayloads(),
    close: () => server.close(),
  };
}
