/**
 * An endpoint the contract's table has no row for gets its interactions from its driver (§9.2: the
 * interface grows, and a forgotten row would leave it out of the contract). The derivation is run here
 * on real endpoints whose rows are written by hand — notes, transactions, historical statements — and
 * the contract of those derived interactions alone is recorded with Pact and verified against the
 * faithful reference server: a derived request the provider would refuse, or a derived answer it does
 * not give, fails here. Endpoints the derivation cannot serve are named, not guessed at.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportContract } from '../../app/ecosystem/pact/export.js';
import { type ContractInteraction, derivedInteractions } from '../../app/ecosystem/pact/interactions.js';
import { loadPact, type PactLibrary, type PactMatchers } from '../../app/ecosystem/pact/library.js';
import { verifyContract } from '../../app/ecosystem/pact/verify.js';
import { DRIVERS } from '../../core/engine/drivers.js';
import { type EndpointId, model } from '../../core/spec/index.js';

const SLOW = 120_000;

/** Whether an endpoint's body carries the §4.2 account key (import_supplier, external_account_number). */
const keyedAsAdditions = (id: EndpointId) => {
  const shape = (model.endpoints[id].body as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
  return 'import_supplier' in shape && 'external_account_number' in shape;
};
const DERIVED: EndpointId[] = ['createNotes', 'createTransactions', 'createHistoricalStatements'];

const derivedOf = (M: PactMatchers): ContractInteraction[] =>
  DERIVED.flatMap((endpoint) =>
    (derivedInteractions(M, model.endpoints[endpoint]) ?? []).map((i) => ({ ...i, endpoint })),
  );

let pact: PactLibrary;
beforeAll(async () => {
  pact = await loadPact();
});

describe('interactions derived from the driver table', () => {
  it('for an endpoint about an imported account: the valid request, the staged-only 404 and the 401', () => {
    const notes = derivedInteractions(pact.MatchersV3, model.endpoints.createNotes)!;
    expect(notes.map((i) => [i.response.status, i.states.map((s) => s.name), i.request.authenticated])).toEqual([
      [201, ['an imported account exists'], true],
      [404, ['an account is staged'], true],
      [401, [], false],
    ]);
    // The request is the driver's sample, valid in the model, about the provider state's account.
    const body = pact.MatchersV3.reify(notes[0]!.request.body) as Record<string, unknown>;
    expect(model.endpoints.createNotes.body!.safeParse(body).success).toBe(true);
    // Two documented success statuses (§4.2 historical statements): either is matched.
    const statements = derivedInteractions(pact.MatchersV3, model.endpoints.createHistoricalStatements)!;
    expect(statements[0]!.response.statusMatcher).toBeDefined();
  });

  it('derives nothing it cannot: other scopes, a body keyed otherwise, a provider need, a request shaped by its subject', () => {
    const none = Object.values(model.endpoints)
      .filter((e) => derivedInteractions(pact.MatchersV3, e) === undefined)
      .map((e) => e.id);
    for (const id of none) {
      const d = DRIVERS[id];
      const scope = d.accepted.scope ?? d.scope;
      expect(
        model.endpoints[id].method !== 'POST' ||
          !['imported', 'staged'].includes(scope) ||
          !keyedAsAdditions(id) ||
          !!d.accepted.needs?.length ||
          !!d.about ||
          !!d.sampleNeeds?.length,
        id,
      ).toBe(true);
    }
    expect(none).toEqual(
      expect.arrayContaining(['createPaymentInstruction', 'stageAccount', 'processAccount', 'accountTransferStatus']),
    );
  });

  it(
    'recorded with Pact, the derived contract verifies against the faithful reference server',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pact-derived-'));
      const { file, interactions } = await exportContract({ dir, pact, interactions: derivedOf });
      expect(interactions).toBe(derivedOf(pact.MatchersV3).length);
      expect(JSON.parse(readFileSync(file, 'utf8')).interactions).toHaveLength(interactions);
      const result = await verifyContract({ pact, contractFile: file });
      expect(result.outcomes.filter((o) => o.verdict !== 'pass').map((o) => `${o.description}: ${o.reason}`)).toEqual(
        [],
      );
      expect(result.passed).toBe(true);
      expect(result.outcomes).toHaveLength(interactions);
    },
    SLOW,
  );
});
