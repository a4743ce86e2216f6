/**
 * `pact verify`: replays the contract against an implementation with the Pact Verifier. Each
 * provider state is set up through the runner's own setup steps (core/engine/given.ts) with the
 * configured fixtures (docs/design.md §5), with fresh namespaced identifiers (docs/design.md §6); the
 * configured token is put on every request that carries one (§5.2). Interactions whose states need
 * a fixture that is not configured are left out and reported with the config key to set.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenSource } from '../../../core/auth/token-source.js';
import { type AuthSettings, AuthError, authorizationHeader } from '../../../core/auth/token.js';
import type { FixturesConfig } from '../../../core/config/schema.js';
import { Api } from '../../../core/engine/api.js';
import { type Connection, UnreachableError, connect } from '../../../core/engine/connection.js';
import { Given } from '../../../core/engine/given.js';
import { IdRegistry, Ids, newRunId } from '../../../core/engine/ids.js';
import { missingNeed } from '../../../core/engine/needs.js';
import type { PayloadTemplatesInput } from '../../../core/engine/templates.js';
import type { Verdict } from '../../../core/engine/verdict.js';
import { Transcript } from '../../../core/http/client.js';
import { startEmbeddedTarget } from '../../embedded.js';
import { exportContract } from './export.js';
import { PROVIDER } from './interactions.js';
import { type PactLibrary, type StateHandler, quietPact } from './library.js';
import { STATES, type StateContext, stateByName } from './states.js';

export interface InteractionOutcome {
  description: string;
  /** `error`: a provider state could not be set up, so the interaction could not be judged. */
  verdict: Verdict;
  /** Why it failed (Pact's mismatches), could not be judged, or was skipped. */
  reason?: string;
  /** For a skip: the config key that would enable it. */
  key?: string;
}

export interface VerifyResult {
  baseUrl: string;
  embedded: boolean;
  contractFile: string;
  runId: string;
  passed: boolean;
  outcomes: InteractionOutcome[];
  /** Provider states that could not be set up (the interactions using them fail). */
  stateErrors: { state: string; message: string }[];
  /** States the contract names that the suite does not know. */
  unknownStates: string[];
  /** Pact's own report, as it printed it. */
  pactOutput: string[];
}

/** The target could not be reached, or refused the credentials, before anything was verified. */
export class TargetUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetUnavailableError';
  }
}

export interface VerifyOptions {
  pact: PactLibrary;
  /** The implementation under test; unset starts the embedded reference server. */
  baseUrl?: string;
  auth?: Partial<AuthSettings>;
  fixtures?: FixturesConfig;
  /** Payload templates per request kind (`payloads:`). */
  payloads?: PayloadTemplatesInput;
  /** The contract to verify; unset exports the suite's contract to a temporary directory first. */
  contractFile?: string;
  contractPath?: string;
  idPrefix?: string;
  timeoutMs?: number;
  /** Pact's log level (default error); the verification report is printed whatever it is. */
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error';
}

interface PactInteraction {
  description: string;
  providerStates?: { name: string; params?: Record<string, unknown> }[];
}

interface PactReport {
  result?: boolean;
  output?: string[];
  errors?: { interaction?: string; mismatch?: unknown }[];
  interactionResults?: { description: string; result: string }[];
}

/** Mismatches as one line each, without the verifier's colours. */
function describeMismatch(mismatch: unknown): string {
  const strip = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
  if (mismatch && typeof mismatch === 'object') {
    const m = mismatch as {
      type?: string;
      message?: string;
      mismatches?: { description?: string; mismatch?: string; path?: string; type?: string }[];
    };
    if (Array.isArray(m.mismatches) && m.mismatches.length) {
      return m.mismatches
        .map((x) =>
          strip(
            `${x.type === 'StatusMismatch' ? 'status: ' : x.path ? `${x.path}: ` : ''}${x.mismatch ?? x.description ?? JSON.stringify(x)}`,
          ),
        )
        .sort()
        .join('; ');
    }
    if (m.message) return strip(m.message);
  }
  return strip(typeof mismatch === 'string' ? mismatch : JSON.stringify(mismatch));
}

export async function verifyContract(options: VerifyOptions): Promise<VerifyResult> {
  quietPact();
  const timeoutMs = options.timeoutMs ?? 10_000;
  const work = mkdtempSync(join(tmpdir(), 'conformance-pact-'));
  let connection: Connection | undefined;
  try {
    connection = await connect({
      baseUrl: options.baseUrl,
      startEmbedded: startEmbeddedTarget,
      auth: options.auth,
      fixtures: options.fixtures,
      payloads: options.payloads,
      contractPath: options.contractPath,
      timeoutMs,
      connections: 4,
    });
    const { baseUrl, redactor, http, preconditions, embedded } = connection;
    let tokens: TokenSource;
    try {
      tokens = await connection.authenticate();
    } catch (error) {
      if (error instanceof UnreachableError || error instanceof AuthError)
        throw new TargetUnavailableError(error.message);
      throw error;
    }

    const contractFile =
      options.contractFile ?? (await exportContract({ dir: join(work, 'contract'), pact: options.pact })).file;
    const contract = JSON.parse(readFileSync(contractFile, 'utf8')) as { interactions?: PactInteraction[] };
    const all = contract.interactions ?? [];

    // Interactions whose states need a fixture that is not configured cannot be set up: leave them out.
    const outcomes = new Map<string, InteractionOutcome>();
    const unknownStates = new Set<string>();
    const kept = all.filter((interaction) => {
      for (const state of interaction.providerStates ?? []) {
        const definition = stateByName(state.name);
        if (!definition) {
          unknownStates.add(state.name);
          continue;
        }
        const missing = missingNeed(definition.needs, preconditions.config, preconditions.payloads);
        if (missing) {
          outcomes.set(interaction.description, {
            description: interaction.description,
            verdict: 'skip',
            reason: `provider state "${state.name}" needs ${missing.describe}: set ${missing.key}`,
            key: missing.key,
          });
          return false;
        }
      }
      return true;
    });
    const runId = newRunId();
    const registry = new IdRegistry(options.idPrefix ?? 'cf', runId);
    let stateErrors: VerifyResult['stateErrors'] = [];
    const allStateErrors: VerifyResult['stateErrors'] = [];
    const handlers: Record<string, StateHandler> = {};
    for (const definition of STATES) {
      handlers[definition.name] = async (params) => {
        const transcript = new Transcript();
        const api = new Api(http, tokens, transcript);
        const ids = new Ids(registry);
        const ctx: StateContext = {
          api,
          ids,
          preconditions,
          given: new Given({
            api,
            ids,
            preconditions,
            contractPath: options.contractPath ?? 'business.business_contract_identifier',
          }),
        };
        try {
          return await definition.setup(
            ctx,
            (params && typeof params === 'object' ? params : {}) as Record<string, unknown>,
          );
        } catch (error) {
          stateErrors.push({ state: definition.name, message: redactor.text((error as Error).message) });
          throw error;
        }
      };
    }

    // One verifier run per interaction, so that a provider state that cannot be set up is charged
    // to its own interaction as an error (it could not be judged), never as a failure.
    const pactOutput: string[] = [];
    for (const [index, interaction] of kept.entries()) {
      const file = join(work, `interaction-${index + 1}.json`);
      writeFileSync(file, JSON.stringify({ ...contract, interactions: [interaction] }, null, 2));
      stateErrors = [];
      const verifier = new options.pact.Verifier({
        provider: PROVIDER,
        providerBaseUrl: baseUrl,
        pactUrls: [file],
        stateHandlers: handlers,
        // §5.2: every request that carries a token in the contract carries the configured one.
        requestFilter: (req, _res, next) => {
          if (req.headers.authorization !== undefined)
            req.headers.authorization = authorizationHeader(tokens.current());
          next();
        },
        logLevel: options.logLevel ?? 'error',
        timeout: Math.max(30_000, timeoutMs * 3),
      });
      let report: PactReport;
      try {
        report = JSON.parse(await verifier.verifyProvider()) as PactReport;
      } catch (error) {
        try {
          report = JSON.parse((error as Error).message) as PactReport;
        } catch {
          throw new Error(`The Pact verifier could not run: ${redactor.text((error as Error).message)}`);
        }
      }
      for (const line of report.output ?? []) pactOutput.push(redactor.text(line));
      const { description } = interaction;
      if (stateErrors.length) {
        for (const e of stateErrors) allStateErrors.push(e);
        const reason = stateErrors
          .map((e) => `provider state "${e.state}" could not be set up: ${e.message}`)
          .join('; ');
        outcomes.set(description, { description, verdict: 'error', reason });
        continue;
      }
      const mismatches = (report.errors ?? []).map((e) => describeMismatch(e.mismatch));
      const ok = report.result === true && mismatches.length === 0;
      outcomes.set(description, {
        description,
        verdict: ok ? 'pass' : 'fail',
        ...(ok ? {} : { reason: redactor.text(mismatches.join('; ') || 'the verifier reported a failure') }),
      });
    }

    const ordered = all.map((i) => outcomes.get(i.description)!).filter(Boolean);
    return {
      baseUrl: redactor.text(baseUrl),
      embedded,
      contractFile: options.contractFile ?? '(generated from the suite)',
      runId,
      passed: ordered.every((o) => o.verdict === 'pass' || o.verdict === 'skip'),
      outcomes: ordered,
      stateErrors: allStateErrors,
      unknownStates: [...unknownStates],
      pactOutput,
    };
  } finally {
    await connection?.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** A short report of a verification, for the console. */
export function describeVerification(result: VerifyResult): string {
  const count = (v: InteractionOutcome['verdict']) => result.outcomes.filter((o) => o.verdict === v).length;
  const mark = { pass: 'PASS', fail: 'FAIL', error: 'ERROR', skip: 'SKIP' } as const;
  const lines = [
    `Pact verification of ${result.contractFile} against ${result.baseUrl}${result.embedded ? ' (embedded reference server)' : ''}, run ${result.runId}:`,
    ...result.outcomes.map(
      (o) => `  ${mark[o.verdict].padEnd(5)}  ${o.description}${o.reason ? `\n        ${o.reason}` : ''}`,
    ),
  ];
  for (const s of result.unknownStates)
    lines.push(`  provider state "${s}" is not one the suite can set up; its interactions were verified without it`);
  const skippedKeys = [...new Set(result.outcomes.filter((o) => o.key).map((o) => o.key!))];
  if (skippedKeys.length)
    lines.push(
      `  To verify the skipped interactions, configure ${skippedKeys.join(', ')} in the config file (docs/design.md §5 fixtures).`,
    );
  const verdict = result.passed
    ? 'the implementation honours the contract'
    : count('fail')
      ? 'the implementation breaks the contract'
      : 'some interactions could not be set up (see ERROR)';
  lines.push(
    `${count('pass')} passed, ${count('fail')} failed, ${count('error')} could not be set up, ${count('skip')} skipped — ${verdict}.`,
  );
  return lines.join('\n');
}
