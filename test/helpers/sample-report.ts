/**
 * Realistic reports for the renderer tests, built through buildReport so they have exactly the shape
 * a run produces: every verdict at every level, a baselined failure, a property counterexample,
 * transcripts whose secrets are already redacted, and server-controlled text that tries to break
 * out of every output format.
 */
import type { Baseline } from '../../core/engine/baseline.js';
import type { NotImplementedEntry } from '../../core/engine/not-implemented.js';
import type { Ending, RuleResult } from '../../core/engine/result.js';
import { type Level, type Rule, declaredFacts } from '../../core/engine/rule.js';
import type { Exchange } from '../../core/http/exchange.js';
import { REDACTED } from '../../core/http/redact.js';
import { buildReport } from '../../core/report/build.js';
import type { Report } from '../../core/report/schema.js';
import type { EndpointId } from '../../core/spec/index.js';

/** The token a run would have used; a report only ever carries REDACTED in its place. */
export const RAW_SECRET = 'SECRET-TOKEN-123';

/** A response body an implementation under test could send: markup, CDATA end, quotes, table pipes, control characters. */
export const HOSTILE_BODY =
  '{"detail":"<script>alert(1)</script> ]]> \\"quotes\\" |pipes| line1\\nline2 ñandú ✓ 日本 \u0000 \u001b[31m"}';

/** A one-line reason that quotes the hostile body, as failure messages do. */
export const HOSTILE_REASON =
  'expected status 400, got 201: body said <script>alert(1)</script> ]]> "quotes" |pipes| ñandú\nsecond line \u0000\u001b[31m';

export const URLS = {
  stage: '/v1/data-import/account-import-process/create-or-update/',
  validate: '/v1/data-import/validate-account/',
  notes: '/v1/data-import/notes/create/',
  pending: '/v1/data-import/pending-account-import-processes/SUPPLIER_ONGOING/',
};

export const REPLAY = {
  stage: "npx conformance --base-url https://staging.example.com --rule 'conventions.date.impossible-day' --seed 4242",
  property:
    "npx conformance --base-url https://staging.example.com --rule 'properties.account.single-defect-refused' --seed 4242 --path 3:1:0",
};

const authHeaders = { authorization: `Token ${REDACTED}`, 'content-type': 'application/json' };

function exchange(
  seq: number,
  step: string | undefined,
  method: string,
  url: string,
  response?: Exchange['response'],
  body?: string,
): Exchange {
  return {
    seq,
    ...(step ? { step } : {}),
    request: { method, url, headers: authHeaders, ...(body !== undefined ? { body } : {}) },
    ...(response ? { response } : { error: { kind: 'timeout', message: 'no response within 10 s' } }),
    duration_ms: 12,
  };
}

const json = (status: number, body: string): Exchange['response'] => ({
  status,
  headers: { 'content-type': 'application/json' },
  body,
  bytes: Buffer.byteLength(body),
});

export interface Case {
  rule: Partial<Rule> & { id: string; level: Level; spec: string; endpoints: EndpointId[] };
  outcome: Ending & Partial<Pick<RuleResult, 'observations' | 'transcript' | 'counterexample' | 'duration_ms'>>;
  replay?: string;
}

function rule(c: Case['rule']): Rule {
  return {
    title: `Title of ${c.id}`,
    ...(c.level === 'MUST' ? {} : { why: 'a strong reading, not a statement of the spec' }),
    ...c,
    check: async () => undefined,
  };
}

/** The result the engine would have returned for the case (replayed when it failed). */
function result(c: Case): RuleResult {
  return {
    ...declaredFacts(rule(c.rule)),
    observations: [],
    transcript: [],
    duration_ms: 25,
    ...c.outcome,
    ...(c.replay ? { replay: c.replay } : {}),
  } as RuleResult;
}

const CASES: Case[] = [
  {
    rule: {
      id: 'migration.validate.accepts-valid',
      level: 'MUST',
      spec: '§4.1',
      endpoints: ['validateAccount'],
      title: 'Validating a valid account payload answers 200',
    },
    outcome: {
      verdict: 'pass',
      transcript: [
        exchange(
          1,
          'validate a complete account',
          'POST',
          URLS.validate,
          json(200, '{"import_supplier":"SUPPLIER_ONGOING"}'),
          '{"import_supplier":"SUPPLIER_ONGOING"}',
        ),
      ],
    },
  },
  {
    rule: {
      id: 'conventions.date.impossible-day',
      level: 'MUST',
      spec: '§4.1, §2.3',
      endpoints: ['stageAccount'],
      title: 'Staging an account with an impossible date is refused with 400',
    },
    outcome: {
      verdict: 'fail',
      reason: HOSTILE_REASON,
      failure: { message: HOSTILE_REASON, expected: 400, actual: 201, path: 'status', exchange_seq: 2 },
      transcript: [
        exchange(
          1,
          'validate first',
          'POST',
          URLS.validate,
          json(200, '{"ok":true}'),
          '{"supply_addresses":[{"customer_at_supply_address_from_date":"2023-02-30"}]}',
        ),
        exchange(
          2,
          'stage the account',
          'POST',
          `${URLS.stage}?token=${REDACTED}`,
          json(201, HOSTILE_BODY),
          '{"supply_addresses":[{"customer_at_supply_address_from_date":"2023-02-30"}]}',
        ),
      ],
    },
    replay: REPLAY.stage,
  },
  {
    rule: {
      id: 'notes.dedup.same-body-and-created-at',
      level: 'MUST',
      spec: '§4.2 notes rule 2',
      endpoints: ['createNotes'],
      title: 'A note with the same body and created_at is not created again',
    },
    outcome: {
      verdict: 'fail',
      reason: 'the second note was created again (NOTE_CREATION_SUCCESS)',
      failure: {
        message: 'the second note was created again (NOTE_CREATION_SUCCESS)',
        expected: [{ status: 'NOTE_ALREADY_EXISTS' }],
        actual: [{ status: 'NOTE_CREATION_SUCCESS' }],
        path: 'body[0].status',
      },
      transcript: [
        exchange(
          1,
          'create the note twice',
          'POST',
          URLS.notes,
          json(201, '[{"status":"NOTE_CREATION_SUCCESS"}]'),
          '[{"body":"hello"}]',
        ),
      ],
    },
    replay: "npx conformance --rule 'notes.dedup.same-body-and-created-at' --seed 4242",
  },
  {
    rule: {
      id: 'properties.account.single-defect-refused',
      level: 'MUST',
      spec: '§7.1',
      endpoints: ['validateAccount'],
      property: true,
      title: 'Every single-defect payload is refused with an errors item pointing at the defect',
    },
    outcome: {
      verdict: 'fail',
      reason: 'attr was "customers.email", expected "customers.0.email"',
      failure: {
        message: 'attr was "customers.email", expected "customers.0.email"',
        expected: 'customers.0.email',
        actual: 'customers.email',
        path: 'body.errors[0].attr',
      },
      counterexample: { seed: 4242, path: '3:1:0', value: { customers: [{ email: 'not-an-email' }] }, shrinks: 12 },
      transcript: [
        exchange(
          1,
          undefined,
          'POST',
          URLS.validate,
          json(400, '{"errors":[{"attr":"customers.email","code":"invalid"}]}'),
          '{"customers":[{"email":"not-an-email"}]}',
        ),
      ],
    },
    replay: REPLAY.property,
  },
  {
    rule: {
      id: 'migration.validate.echoes-data',
      level: 'SHOULD',
      spec: '§4.1',
      endpoints: ['validateAccount'],
      title: 'The validated data names the same supplier',
    },
    outcome: {
      verdict: 'fail',
      reason: `the error body echoed the credentials: Token ${REDACTED}`,
      failure: {
        message: `the error body echoed the credentials: Token ${REDACTED}`,
        expected: 'SUPPLIER_ONGOING',
        actual: 'supplier_ongoing',
        path: 'body.import_supplier',
      },
      transcript: [
        exchange(
          1,
          'validate',
          'POST',
          URLS.validate,
          json(200, `{"import_supplier":"supplier_ongoing","echo":"Token ${REDACTED}"}`),
          '{}',
        ),
      ],
    },
    replay: "npx conformance --rule 'migration.validate.echoes-data' --seed 4242",
  },
  {
    rule: {
      id: 'status.404-without-process',
      level: 'INFO',
      spec: '§4.3',
      endpoints: ['accountTransferStatus'],
      title: 'What the status of an unknown account looks like',
    },
    outcome: {
      verdict: 'pass',
      observations: ['the status of an unknown account is 404 with an HTML body', 'no Retry-After header'],
    },
  },
  {
    rule: {
      id: 'limits.concurrency.429-then-retry',
      level: 'MUST',
      spec: '§8, §4.1 process rule 4',
      endpoints: ['processAccount'],
      title: 'Processing beyond the concurrency limit answers 429',
    },
    outcome: {
      verdict: 'skip',
      reason: 'needs the §8 concurrency limit, enabled by the operator: set fixtures.concurrency_limit',
      skip_key: 'fixtures.concurrency_limit',
    },
  },
  {
    rule: {
      id: 'payments.account.persistent-trouble',
      level: 'SHOULD',
      spec: '§2.7, §4.2',
      endpoints: ['createPaymentInstruction'],
      title: 'Persistent vendor trouble answers 400',
    },
    outcome: {
      verdict: 'skip',
      reason: 'needs a reference the vendor has persistent trouble with',
      skip_key: 'fixtures.payment_instruction.references.persistent_failure',
    },
  },
  {
    rule: {
      id: 'races.process.one-account',
      level: 'INFO',
      spec: '§8',
      endpoints: ['processAccount'],
      title: 'Whether a 429 carries Retry-After',
    },
    outcome: { verdict: 'skip', reason: 'needs the §8 concurrency limit', skip_key: 'fixtures.concurrency_limit' },
  },
  {
    rule: {
      id: 'status.listing-imported-excludes-pending',
      level: 'MUST',
      spec: '§4.3, §3',
      endpoints: ['pendingAccountImportProcesses'],
      title: 'The pending listing does not show imported accounts',
    },
    outcome: {
      verdict: 'error',
      error_kind: 'exchange',
      reason: 'timeout: no response within 10 s',
      transcript: [exchange(1, 'list pending accounts', 'GET', URLS.pending)],
    },
    replay: "npx conformance --rule 'status.listing-imported-excludes-pending' --seed 4242",
  },
  {
    rule: {
      id: 'auth.api-key.unknown-key-no-token',
      level: 'INFO',
      spec: '§5.2',
      endpoints: ['validateAccount'],
      title: 'How long a service token lives',
    },
    outcome: { verdict: 'error', error_kind: 'precondition', reason: 'precondition: could not obtain a token' },
    replay: "npx conformance --rule 'auth.api-key.unknown-key-no-token' --seed 4242",
  },
  {
    rule: {
      id: 'auth.401.create-notes',
      level: 'MUST',
      spec: '§5.3, §7.2',
      endpoints: ['validateAccount', 'stageAccount'],
      title: 'A request without a token is refused with 401',
    },
    outcome: { verdict: 'pass' },
  },
  {
    rule: {
      id: 'business.invalid.refused',
      level: 'SHOULD',
      spec: '§4.4, §2.8',
      endpoints: ['createBusiness'],
      title: 'An undocumented field in a business is refused',
    },
    outcome: { verdict: 'pass' },
  },
];

const BASELINE: Baseline = {
  file: 'expected-failures.yaml',
  entries: [
    { rule: 'notes.dedup.same-body-and-created-at', comment: 'TICKET-17: dedup ignores created_at until release 2.4' },
    { rule: 'migration.validate.accepts-valid', comment: 'TICKET-9: fixed in 2.3' },
    { rule: 'retired.rule.that-no-longer-exists', comment: 'TICKET-3' },
  ],
};

const STARTED = new Date('2025-03-04T10:00:00.000Z');

export function build(
  cases: Case[],
  overrides: {
    strict?: boolean;
    baseline?: Baseline;
    allowSkip?: string[];
    partial?: boolean;
    notImplemented?: NotImplementedEntry[];
    /** The run ended before any rule: the preflight's reason. */
    aborted?: string;
  } = {},
): Report {
  return buildReport({
    ...(overrides.aborted ? { aborted: overrides.aborted } : {}),
    allowSkip: overrides.allowSkip,
    ...(overrides.partial ? { partial: true } : {}),
    ...(overrides.notImplemented ? { notImplemented: overrides.notImplemented } : {}),
    tool: { name: 'data-import-conformance', version: '0.1.0' },
    run: {
      id: 'k3x9q2',
      seed: 4242,
      numRuns: 25,
      concurrency: 8,
      timeoutMs: 10_000,
      strict: overrides.strict ?? false,
      startedAt: STARTED,
      finishedAt: new Date(STARTED.getTime() + 83_456),
      selection: {},
      bailed: false,
    },
    target: { baseUrl: 'https://staging.example.com', embedded: false, auth: 'token' },
    results: cases.map(result),
    ...(overrides.baseline ? { baseline: overrides.baseline } : {}),
    created: {
      external_account_numbers: ['cf-k3x9q2-A1', 'cf-k3x9q2-A4'],
      business_identifiers: ['cf-k3x9q2-B2'],
      contract_identifiers: ['cf-k3x9q2-C3'],
      other: 17,
    },
    http: { requests: 42, failures: 1, token_renewals: 0, token_refused_mid_run: 0 },
  });
}

/** Every verdict at every level, with the baseline excusing one MUST failure. */
export function sampleReport(options: { strict?: boolean } = {}): Report {
  return build(CASES, { ...options, baseline: BASELINE });
}

/** A run where every rule passed or was skipped, the skips accepted (--allow-skip). */
export function conformantReport(): Report {
  return build(
    CASES.filter((c) => c.outcome.verdict === 'pass' || c.outcome.verdict === 'skip'),
    { allowSkip: ['**'] },
  );
}

/** The same run without accepting the skips: a MUST rule was not judged, so it is incomplete. */
export function incompleteReport(): Report {
  return build(CASES.filter((c) => c.outcome.verdict === 'pass' || c.outcome.verdict === 'skip'));
}

/** `count` rules, most failing with long reasons and transcripts: the report of a badly broken target. */
export function hugeReport(count: number): Report {
  const long = 'x'.repeat(2_000);
  const cases: Case[] = Array.from({ length: count }, (_, i) => {
    const id = `bulk.rule-${String(i).padStart(5, '0')}`;
    const level: Level = (['MUST', 'SHOULD', 'INFO'] as const)[i % 3];
    const spec = `§4.${(i % 4) + 1}`;
    if (i % 5 === 4)
      return {
        rule: { id, level, spec, endpoints: ['createNotes'] },
        outcome: { verdict: 'skip', reason: `needs key ${i % 7}`, skip_key: `fixtures.key_${i % 7}` },
      };
    return {
      rule: { id, level, spec, endpoints: ['createNotes'] },
      outcome: {
        verdict: 'fail',
        reason: `${long} ${i}`,
        failure: { message: `${long} ${i}` },
        transcript: [exchange(1, 'step', 'POST', URLS.notes, json(500, long), long)],
      },
      replay: `npx conformance --rule '${id}' --seed 4242 ${long}`,
    };
  });
  return build(cases);
}
