/**
 * `pact export`: writes the Pact V4 contract by running each interaction as a consumer test against
 * Pact's own mock server — the way Pact records a contract: the consumer sends the example request,
 * the mock answers with the example response, and Pact writes the interaction to the file.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'undici';
import { model } from '../../../core/spec/index.js';
import {
  CONSUMER,
  CONTRACT_FILE,
  type ContractInteraction,
  NOT_IN_CONTRACT,
  PROVIDER,
  contractInteractions,
} from './interactions.js';
import type { MockServer, PactLibrary, PactMatchers, PactV4Instance } from './library.js';
import { quietPact } from './library.js';

export interface ExportOptions {
  /** Directory the contract is written to. */
  dir: string;
  pact: PactLibrary;
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  /** The interactions to record: the suite's contract unless given. */
  interactions?: (M: PactMatchers) => ContractInteraction[];
}

export interface ExportResult {
  file: string;
  interactions: number;
  notInContract: typeof NOT_IN_CONTRACT;
}

/** Example token the contract shows; a verifier replaces it with a real one. */
export const EXAMPLE_AUTHORIZATION = 'Token ACCESS_TOKEN';

async function consumerTest(pact: PactLibrary, interaction: ContractInteraction, mockUrl: string): Promise<void> {
  const M = pact.MatchersV3;
  const { request, response } = interaction;
  const path = M.reify(request.path) as string;
  const query = request.query ? `?${new URLSearchParams(request.query)}` : '';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.authenticated) headers.authorization = EXAMPLE_AUTHORIZATION;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  // One connection per mock server: a kept-alive socket to an earlier mock server on a reused port
  // would be answered by that server, and this interaction would never reach its own.
  const client = new Client(mockUrl);
  try {
    const res = await client.request({
      method: interactionMethod(interaction),
      path: `${path}${query}`,
      headers,
      ...(request.body !== undefined ? { body: JSON.stringify(M.reify(request.body)) } : {}),
    });
    await res.body.arrayBuffer();
    await new Promise((done) => setTimeout(done, SETTLE_MS));
    if (res.statusCode !== response.status)
      throw new Error(
        `${interaction.description}: the mock server answered ${res.statusCode}, the contract says ${response.status}`,
      );
  } finally {
    await client.close();
  }
}

/**
 * Pact's mock server records a match slightly after it answers (pact-reference#535, fixed upstream
 * by pact-core-mock-server#14): a consumer test that returns at once can be reported as "expected
 * but not received". Waiting a moment before returning avoids it; a retry covers a loaded machine.
 */
const SETTLE_MS = 50;

function record(
  pact: PactV4Instance,
  M: PactMatchers,
  interaction: ContractInteraction,
  test: (mock: MockServer) => Promise<void>,
): Promise<unknown> {
  let builder = pact.addInteraction();
  for (const state of interaction.states) builder = builder.given(state.name, state.params);
  builder = builder.uponReceiving(interaction.description).comment(`${interaction.spec}: ${interaction.comment}`);
  const { request, response } = interaction;
  return builder
    .withRequest(interactionMethod(interaction), request.path, (b) => {
      if (request.authenticated) b.headers({ Authorization: M.regex('^Token \\S+$', EXAMPLE_AUTHORIZATION) });
      if (request.query) b.query(request.query);
      if (request.body !== undefined) b.jsonBody(request.body);
    })
    .willRespondWith(response.statusMatcher ?? response.status, (b) => {
      if (response.body !== undefined) b.jsonBody(response.body);
    })
    .executeTest(test);
}

const interactionMethod = (interaction: ContractInteraction): string => model.endpoints[interaction.endpoint].method;

export async function exportContract(options: ExportOptions): Promise<ExportResult> {
  quietPact();
  const dir = resolve(options.dir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, CONTRACT_FILE);
  // Pact merges into an existing file; a fresh export must not keep interactions of an older one.
  rmSync(file, { force: true });

  const { PactV4, MatchersV3: M } = options.pact;
  const interactions = (options.interactions ?? contractInteractions)(M);
  for (const interaction of interactions) {
    // One Pact per interaction: Pact merges each into the file, and a failed attempt writes nothing,
    // so an attempt lost to the mock server's race (see SETTLE_MS) can be made again from scratch.
    for (let attempt = 1; ; attempt++) {
      const pact = new PactV4({
        consumer: CONSUMER,
        provider: PROVIDER,
        dir,
        logLevel: options.logLevel ?? 'error',
        host: '127.0.0.1',
      });
      try {
        await record(pact, M, interaction, (mock) => consumerTest(options.pact, interaction, mock.url));
        break;
      } catch (error) {
        const raced = /expected but not received/.test((error as Error).message);
        if (!raced || attempt >= 3)
          throw new Error(`Pact could not record "${interaction.description}": ${(error as Error).message}`);
      }
    }
  }
  return { file, interactions: interactions.length, notInContract: NOT_IN_CONTRACT };
}
