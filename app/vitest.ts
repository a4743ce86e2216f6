/**
 * The suite inside a server team's own vitest run: one vitest test per rule, over one session.
 *
 *   // conformance.test.ts
 *   import { conformanceSuite } from 'data-import-conformance/vitest';
 *   conformanceSuite({ baseUrl: process.env.API_URL, auth: { token: process.env.API_TOKEN }, fixtures: { … } });
 *
 * MUST failures and errors fail their test; SHOULD failures do too with `strict`, and otherwise
 * pass with a warning; INFO rules pass and print what they observed; skipped rules are skipped.
 * A rule that ends in error only because an exchange got no answer is run again (`retries`, default
 * 1), as the CLI does; one that passes only then passes with a `flaky` annotation and
 * `task.meta.conformance.flaky`, so a server team's CI can see it was not a clean pass.
 */
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { RuleResult } from '../core/engine/result.js';
import { type RunOptions, runWithRetries } from '../core/engine/run.js';
import { RUN_DEFAULTS } from '../core/engine/options.js';
import { selectRules } from '../core/engine/select.js';
import type { Session } from '../core/engine/session.js';
import { openSession } from './conformance.js';
import { allRules } from '../suites/index.js';
import { failingExchange } from '../core/report/curl.js';

declare module 'vitest' {
  interface TaskMeta {
    /** Set on a rule's test when it ran more than once (a transient error): how often, and whether it was flaky. */
    conformance?: { attempts: number; flaky?: string };
  }
}

export interface ConformanceSuiteOptions extends RunOptions {
  /** Name of the describe block (default "data-import conformance"). */
  name?: string;
  /** Per-rule test timeout in ms (default 120 s). */
  testTimeout?: number;
  /**
   * Runs in beforeAll, for what is only known once the test file runs (a target it starts
   * itself); what it returns is merged into the options. Rules are chosen from `selection`, which
   * must be given directly: vitest collects the tests before any hook runs.
   */
  setup?: () => Partial<RunOptions> | Promise<Partial<RunOptions>>;
  /** Runs in afterAll, after the session closed. */
  teardown?: () => void | Promise<void>;
}

function failureMessage(result: RuleResult, replay: string): string {
  const lines = [`[${result.level}] ${result.id} (${result.spec}): ${result.reason ?? result.verdict}`];
  if (result.failure?.path)
    lines.push(
      `  at ${result.failure.path}: expected ${JSON.stringify(result.failure.expected)}, got ${JSON.stringify(result.failure.actual)}`,
    );
  const failing = failingExchange(result);
  if (failing)
    lines.push(
      `  ${failing.request.method} ${failing.request.url} -> ${failing.response?.status ?? failing.error?.message}`,
    );
  lines.push(`  replay: ${replay}`);
  return lines.join('\n');
}

/** Declares the suite: one test per selected rule, all over one session opened in beforeAll. */
export function conformanceSuite(options: ConformanceSuiteOptions = {}): void {
  const { rules, unmatched } = selectRules(options.rules ?? allRules, options.selection ?? {});
  if (unmatched.length) throw new Error(`conformanceSuite: nothing matches ${unmatched.join(', ')}`);
  describe(options.name ?? 'data-import conformance', () => {
    let session: Session | undefined;
    let strict = false;
    beforeAll(async () => {
      const resolved = { ...options, ...(await options.setup?.()) };
      strict = resolved.strict ?? false;
      session = await openSession(resolved);
    }, 120_000);
    afterAll(async () => {
      await session?.close();
      await options.teardown?.();
    });
    for (const rule of rules) {
      test(
        `${rule.id} [${rule.level} ${rule.spec}] ${rule.title}`,
        async (context) => {
          if (!session) throw new Error('the conformance session did not open (see the beforeAll error)');
          const result = await runWithRetries(session, rule, options.retries ?? RUN_DEFAULTS.retries, () => true);
          if (result.attempts !== undefined || result.flaky !== undefined)
            context.task.meta.conformance = {
              attempts: result.attempts ?? 1,
              ...(result.flaky ? { flaky: result.flaky } : {}),
            };
          if (result.flaky) await context.annotate(`flaky: ${result.flaky}`, 'warning');
          if (result.verdict === 'skip') return context.skip(result.reason);
          for (const note of result.observations) console.info(`${rule.id}: ${note}`);
          if (result.verdict === 'pass') return;
          const message = failureMessage(result, session.replay(result));
          if (rule.level === 'INFO' || (rule.level === 'SHOULD' && !strict)) {
            console.warn(message);
            return;
          }
          throw new Error(message);
        },
        options.testTimeout ?? 120_000,
      );
    }
  });
}
