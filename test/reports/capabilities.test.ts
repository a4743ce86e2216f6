/**
 * The capability matrix is read from evidence: each cell state from the rules that earn it, a failure
 * charged to the endpoint whose answer broke the rule, and "not implemented" over any passing rule —
 * first on hand-made results, then on runs against the reference server behind a proxy that answers
 * 501 for two endpoints, or with one process fault switched on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgainstReference } from '../../app/against-reference.js';
import { runConformance } from '../../app/conformance.js';
import { embeddedFixtures, embeddedPayloads, embeddedSeed } from '../../app/embedded.js';
import type { RuleResult } from '../../core/engine/result.js';
import type { Exchange } from '../../core/http/exchange.js';
import { capabilityMatrix } from '../../core/report/capabilities.js';
import type { Report } from '../../core/report/schema.js';
import { DEFAULT_TOKEN, type ReferenceServer, startReferenceServer } from '../../reference/index.js';
import { startProxy } from '../helpers/proxy.js';

const STAGE = '/v1/data-import/account-import-process/create-or-update/';
const PROCESS = '/v1/data-import/account-import-process/process/';
const NOTES = '/v1/data-import/notes/create/';

const sent = (seq: number, method: string, url: string, status: number): Exchange => ({
  seq,
  request: { method, url, headers: {} },
  response: { status, headers: {}, bytes: 0 },
  duration_ms: 1,
});

const base = {
  title: 't',
  spec: '§4.1',
  sections: ['§4.1'],
  level: 'MUST' as const,
  tags: [] as string[],
  property: false,
  observations: [],
  duration_ms: 1,
};

function passed(id: string, endpoints: string[], tags: string[] = []): RuleResult {
  return { ...base, id, endpoints, tags, verdict: 'pass', transcript: [] };
}

function failed(id: string, endpoints: string[], transcript: Exchange[], exchange_seq?: number): RuleResult {
  return {
    ...base,
    id,
    endpoints,
    verdict: 'fail',
    reason: 'broke it',
    failure: { message: 'broke it', ...(exchange_seq !== undefined ? { exchange_seq } : {}) },
    transcript,
  };
}

function errored(id: string, endpoints: string[]): RuleResult {
  return { ...base, id, endpoints, verdict: 'error', reason: 'reset', error_kind: 'exchange', transcript: [] };
}

const statusIn = (cells: ReturnType<typeof capabilityMatrix>, endpoint: string) =>
  cells.find((c) => c.endpoint === endpoint)?.status;

describe('each cell state, from the rules that earn it', () => {
  it('conforms: a behaviour rule passed there', () => {
    const cells = capabilityMatrix([passed('migration.stage.first-201', ['stageAccount'])], []);
    expect(statusIn(cells, 'stageAccount')).toBe('conforms');
  });

  it('not checked, not conforms, when only the §5 token rule passed there', () => {
    const cells = capabilityMatrix([passed('auth.401.create-agreements', ['createAgreements'], ['auth'])], []);
    expect(statusIn(cells, 'createAgreements')).toBe('not checked');
    // The pass is still counted: the cell says what ran, the status what it shows.
    expect(cells.find((c) => c.endpoint === 'createAgreements')?.counts.pass).toBe(1);
  });

  it('not checked: no rule judged it', () => {
    expect(statusIn(capabilityMatrix([], []), 'createBusiness')).toBe('not checked');
  });

  it('could not be checked: its rules ended in error', () => {
    const cells = capabilityMatrix([errored('notes.create.201', ['createNotes'])], []);
    expect(statusIn(cells, 'createNotes')).toBe('could not be checked');
  });

  it('not implemented wins over a passing 401 rule and a passing behaviour rule', () => {
    const cells = capabilityMatrix(
      [
        passed('auth.401.create-supply-points', ['createSupplyPoints'], ['auth']),
        passed('additions.supply-points.created', ['createSupplyPoints']),
      ],
      ['createSupplyPoints'],
    );
    expect(statusIn(cells, 'createSupplyPoints')).toBe('not implemented');
  });

  it('deviates: only the endpoint whose answer broke the rule, not every endpoint the rule touched', () => {
    const transcript = [sent(1, 'POST', STAGE, 201), sent(2, 'POST', NOTES, 201), sent(3, 'POST', PROCESS, 201)];
    const cells = capabilityMatrix(
      [
        failed('stateful.state-machine', ['stageAccount', 'processAccount', 'createNotes'], transcript, 3),
        passed('migration.stage.first-201', ['stageAccount']),
        passed('notes.create.201', ['createNotes']),
      ],
      [],
    );
    expect(statusIn(cells, 'processAccount')).toBe('deviates');
    expect(statusIn(cells, 'stageAccount')).toBe('conforms');
    expect(statusIn(cells, 'createNotes')).toBe('conforms');
    expect(cells.find((c) => c.endpoint === 'stageAccount')?.counts).toEqual({ pass: 1, fail: 0, skip: 0, error: 0 });
  });

  it('a base URL with a path of its own still names the endpoint that broke the rule', () => {
    const transcript = [sent(1, 'POST', `/gateway${STAGE}`, 201), sent(2, 'POST', `/gateway${PROCESS}?x=1`, 201)];
    const cells = capabilityMatrix([failed('r', ['stageAccount', 'processAccount'], transcript, 2)], []);
    expect([statusIn(cells, 'processAccount'), statusIn(cells, 'stageAccount')]).toEqual(['deviates', 'not checked']);
  });

  it('a failure whose exchange is unknown, or a probe the rule does not judge, is charged to every endpoint it judges', () => {
    const probe = [sent(1, 'POST', STAGE, 201), sent(2, 'GET', '/v1/data-import/account-transfer-status/S/A/', 200)];
    const cells = capabilityMatrix(
      [failed('a', ['validateAccount', 'createTransactions'], [], undefined), failed('b', ['stageAccount'], probe, 2)],
      [],
    );
    expect(statusIn(cells, 'validateAccount')).toBe('deviates');
    expect(statusIn(cells, 'createTransactions')).toBe('deviates');
    expect(statusIn(cells, 'stageAccount')).toBe('deviates');
    expect(statusIn(cells, 'accountTransferStatus')).toBe('not checked');
  });

  it('a failing §5 rule is a deviation: refusing without a token is behaviour the spec requires', () => {
    const cells = capabilityMatrix(
      [
        failed('auth.401.create-notes', ['createNotes'], [sent(1, 'POST', NOTES, 201)], 1),
        passed('notes.create.201', ['createNotes']),
      ],
      [],
    );
    expect(statusIn(cells, 'createNotes')).toBe('deviates');
  });
});

describe('the matrix of real runs', () => {
  let server: ReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer({ seed: await embeddedSeed({ token: DEFAULT_TOKEN }) });
  });
  afterAll(() => server.close());

  /** A mock that checks the token first (so the 401 rules pass) and answers 501 for agreements and supply points. */
  async function runAgainstMock(rules: string[]): Promise<Report> {
    const proxy = await startProxy(server.url, (req) => {
      if (!/\/(agreements|supply-points)\/create\/$/.test(req.path)) return undefined;
      const authorised = req.headers.authorization === `Token ${DEFAULT_TOKEN}`;
      return {
        status: authorised ? 501 : 401,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ detail: authorised ? 'Not implemented.' : 'Invalid token.' }),
      };
    });
    try {
      return await runConformance({
        baseUrl: proxy.url,
        auth: { token: DEFAULT_TOKEN },
        fixtures: await embeddedFixtures(),
        payloads: embeddedPayloads(),
        seed: 5,
        numRuns: 2,
        selection: { rules },
      });
    } finally {
      await proxy.close();
    }
  }

  const statusOf = (report: Report, endpoint: string) => statusIn(report.capabilities, endpoint);

  it('endpoints answering 501 read "not implemented" though their 401 rules passed', async () => {
    const report = await runAgainstMock([
      'auth.401.create-agreements',
      'auth.401.create-supply-points',
      'additions.agreements.*',
      'additions.supply-points.*',
      'migration.stage.first-201',
    ]);
    for (const id of ['auth.401.create-agreements', 'auth.401.create-supply-points'])
      expect([id, report.rules.find((r) => r.id === id)?.verdict]).toEqual([id, 'pass']);
    expect(statusOf(report, 'createAgreements')).toBe('not implemented');
    expect(statusOf(report, 'createSupplyPoints')).toBe('not implemented');
    expect(statusOf(report, 'stageAccount')).toBe('conforms');
  });

  it('an endpoint only a 401 rule reached is "not checked", never "conforms"', async () => {
    const report = await runAgainstMock(['auth.401.create-agreements']);
    expect(report.rules.map((r) => [r.id, r.verdict])).toEqual([['auth.401.create-agreements', 'pass']]);
    expect(statusOf(report, 'createAgreements')).toBe('not checked');
  });

  it('one process fault makes the process endpoint deviate, and no other', async () => {
    const { report } = await runAgainstReference(
      { fault: 'migration.process.team-unchecked' },
      {
        seed: 7,
        selection: { rules: ['migration.process.*', 'refused.process.*', 'stateful.*', 'migration.stage.*'] },
      },
    );
    const failing = report.rules.filter((r) => r.verdict === 'fail');
    // The failures touch staging and the listings on the way; only the process answer broke them.
    expect(failing.length).toBeGreaterThan(0);
    expect(new Set(failing.flatMap((r) => r.endpoints)).size).toBeGreaterThan(1);
    expect(report.capabilities.filter((c) => c.status === 'deviates').map((c) => c.endpoint)).toEqual([
      'processAccount',
    ]);
    expect(statusOf(report, 'stageAccount')).toBe('conforms');
  });
});
