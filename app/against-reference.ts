/**
 * The suite against a reference server started for the purpose: faithful, a variant profile, choices
 * of one's own, or with a fault switched on. The mutation run, the golden test and the no-false-
 * failure tests all stand on this one helper, so they judge the server the same way a user would
 * configure a run against it (fixtures, templates, the contract link, the mutation).
 */
import type { RunOptions } from '../core/engine/options.js';
import type { Report } from '../core/report/schema.js';
import {
  type Choices,
  DEFAULT_API_KEY,
  DEFAULT_TOKEN,
  type ReferenceServer,
  type VariantProfile,
  faithfulChoices,
  profileById,
  startReferenceServer,
} from '../reference/index.js';
import { runConformance } from './conformance.js';
import { embeddedFixtures, embeddedPayloads, embeddedSeed } from './embedded.js';

/** How long a run against a reference server keeps retrying a process call the §8 limit refused. */
export const REFERENCE_PROCESS_RETRY_MS = 30_000;

export interface ReferenceTarget {
  /** A variant profile (reference/profiles.ts) by id. */
  profile?: string;
  /** Choices of one's own, over the faithful ones (when no profile is named). */
  choices?: Partial<Choices>;
  /** Operator settings over the embedded ones (the §8 limit, processing time). */
  settings?: { concurrency_limit?: number; processing_delay_ms?: number };
  /** A fault of the catalogue to switch on (several: a server that breaks, or reads, more than one place so). */
  fault?: string | string[];
  /** false: the profile's payload templates are withheld, so a profile that needs them refuses setup. */
  templates?: boolean;
  /** false: no payload templates at all, not even the embedded shapes of agreements and supply points. */
  embeddedPayloads?: boolean;
  /** How the run authenticates: through the §5.1 mutation (the default, as the embedded run) or the seeded token. */
  auth?: 'api_key' | 'token';
}

export interface AgainstReference {
  report: Report;
  profile?: VariantProfile;
}

/**
 * Starts the server `target` describes, runs the suite against it with `options` and closes it.
 * `before` talks to the server first (e.g. to leave data a rule must tolerate).
 */
export async function runAgainstReference(
  target: ReferenceTarget,
  options: RunOptions = {},
  before?: (server: ReferenceServer) => Promise<void>,
): Promise<AgainstReference> {
  const profile = target.profile ? profileById(target.profile) : undefined;
  if (target.profile && !profile) throw new Error(`unknown variant profile ${target.profile}`);
  const settings = { ...profile?.settings, ...target.settings };
  const seed = await embeddedSeed({ token: DEFAULT_TOKEN });
  seed.settings = { ...seed.settings, ...settings };
  const server = await startReferenceServer({
    seed,
    choices: profile?.choices ?? { ...faithfulChoices, ...target.choices },
    ...profile?.server,
    ...(target.fault ? { faults: [target.fault].flat() } : {}),
  });
  try {
    await before?.(server);
    const fixtures = await embeddedFixtures();
    if (typeof settings.concurrency_limit === 'number') fixtures.concurrency_limit = settings.concurrency_limit;
    // A profile puts what the spec leaves to configuration elsewhere, or accepts only payloads of its
    // own: the run is told so, as a user would (payload templates, the contract link, the mutation).
    const payloads =
      target.embeddedPayloads === false
        ? undefined
        : { ...embeddedPayloads(), ...(target.templates === false ? {} : profile?.run.payloads?.()) };
    const report = await runConformance({
      baseUrl: server.url,
      // Through the §5.1 mutation with the seeded API key by default, as in the embedded run, so the
      // rules on the mutation run too.
      auth: target.auth === 'token' ? { token: DEFAULT_TOKEN } : { apiKey: DEFAULT_API_KEY, ...profile?.run.auth },
      fixtures,
      ...(payloads ? { payloads } : {}),
      ...(profile?.run.contractPath ? { contractPath: profile.run.contractPath } : {}),
      // Process calls retry a §8 429 for 30 s, or the profile's own budget: the server frees a slot
      // as soon as a process call ends (milliseconds), so 30 s is far beyond what a loaded machine
      // adds, while a fault that never frees one is caught in 30 s rather than after each rule's
      // whole time limit. A short fixed budget (3 s) turned load into rules not judged.
      processRetryBudgetMs: profile?.processRetryBudgetMs ?? REFERENCE_PROCESS_RETRY_MS,
      ...options,
    });
    return { report, profile };
  } finally {
    await server.close();
  }
}
