/**
 * ctrf.json against the official CTRF JSON schema, vendored as ctrf.schema.json: a verbatim copy of
 * dist/ctrf-schema-0.0.json from the `ctrf` npm package 0.3.0 (the CTRF reference implementation,
 * github.com/ctrf-io, MIT License, Copyright (c) 2024 Matthew Poulton-White).
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { renderCtrf } from '../../reports/ctrf.js';
import { conformantReport, hugeReport, RAW_SECRET, REPLAY, sampleReport } from '../helpers/sample-report.js';

const schema = JSON.parse(readFileSync(new URL('./ctrf.schema.json', import.meta.url), 'utf8')) as object;
const ajv = new Ajv({ allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);

interface CtrfTest {
  testId: string;
  name: string;
  status: string;
  duration: number;
  message?: string;
  trace?: string;
  suite: string[];
  labels: Record<string, unknown>;
  extra?: Record<string, unknown>;
}
interface Ctrf {
  reportFormat: string;
  runId: string;
  results: {
    summary: Record<string, unknown> & { extra: Record<string, unknown> };
    tests: CtrfTest[];
    environment: { extra: Record<string, unknown> };
  };
}

const report = sampleReport();
const doc = renderCtrf(report) as Ctrf;
const test = (ruleId: string) => doc.results.tests.find((t) => t.testId === ruleId)!;

describe('renderCtrf', () => {
  it('is valid against the CTRF schema', () => {
    for (const r of [report, conformantReport(), hugeReport(200)]) {
      const valid = validate(JSON.parse(JSON.stringify(renderCtrf(r))));
      expect(validate.errors ?? []).toEqual([]);
      expect(valid).toBe(true);
    }
  });

  it('is checked by a schema that rejects what it does not allow', () => {
    const wrong = structuredClone(doc) as unknown as { results: { tests: { status: string }[] } };
    wrong.results.tests[0].status = 'error';
    expect(validate(wrong)).toBe(false);
  });

  it('counts exactly what report.summary counts', () => {
    const { counts, total } = report.summary;
    expect(doc.results.summary).toMatchObject({
      tests: total,
      passed: counts.pass,
      failed: counts.fail,
      skipped: counts.skip,
      other: counts.error,
      pending: 0,
    });
    const tally = (status: string) => doc.results.tests.filter((t) => t.status === status).length;
    expect([tally('passed'), tally('failed'), tally('skipped'), tally('other')]).toEqual([
      counts.pass,
      counts.fail,
      counts.skip,
      counts.error,
    ]);
    expect(doc.results.tests).toHaveLength(total);
    expect(doc.results.summary).toMatchObject({
      start: Date.parse(report.run.started_at),
      stop: Date.parse(report.run.finished_at),
      duration: 83_456,
    });
    expect(doc.results.summary.extra).toMatchObject({
      conformant: false,
      exit_code: 1,
      must_failures: 3,
      expected_failures: 1,
    });
  });

  it('maps each verdict, with the reason as message and the full failure text as trace', () => {
    for (const rule of report.rules)
      expect(test(rule.id).status).toBe(
        { pass: 'passed', fail: 'failed', skip: 'skipped', error: 'other' }[rule.verdict],
      );
    const error = test('status.listing-imported-excludes-pending');
    expect(error.message).toBe('timeout: no response within 10 s');
    expect(error.trace).toContain('! timeout: no response within 10 s');
    const fail = test('conventions.date.impossible-day');
    expect(fail.name).toBe(
      'conventions.date.impossible-day: Staging an account with an impossible date is refused with 400',
    );
    expect(fail.suite).toEqual(['§4.1 Account migration']);
    expect(fail.message).toMatch(
      /^expected status 400, got 201: body said <script>alert\(1\)<\/script> ]]> "quotes" \|pipes\| ñandú second line/,
    );
    expect(fail.trace).toContain('> POST /v1/data-import/account-import-process/create-or-update/?token=***');
    expect(fail.trace).toContain(`replay: ${REPLAY.stage}`);
    expect(fail.extra).toMatchObject({ replay: REPLAY.stage, failure: { expected: 400, actual: 201, path: 'status' } });
    expect(fail.labels).toEqual({
      rule: fail.testId,
      level: 'MUST',
      spec: '§4.1, §2.3',
      property: false,
      endpoints: ['stageAccount'],
    });
    expect(test('limits.concurrency.429-then-retry').message).toContain('fixtures.concurrency_limit');
    expect(test('properties.account.single-defect-refused').extra!.counterexample).toEqual({
      seed: 4242,
      path: '3:1:0',
      value: { customers: [{ email: 'not-an-email' }] },
      shrinks: 12,
    });
    expect(test('status.404-without-process').extra!.observations).toHaveLength(2);
  });

  it('keeps a baselined failure failed and says it is expected', () => {
    const t = test('notes.dedup.same-body-and-created-at');
    expect(t.status).toBe('failed');
    expect(t.extra!.expected_failure).toEqual({ comment: 'TICKET-17: dedup ignores created_at until release 2.4' });
  });

  it('marks flaky a rule run again whole, and one with a part tried again in place', () => {
    const base = conformantReport();
    const [first, second, third] = base.rules;
    const rules = [
      { ...first, attempts: 2, flaky: 'first run not judged: socket hang up' },
      { ...second, flaky: 'case 3 run again after it was not judged: socket hang up' },
      third,
    ];
    const tests = (renderCtrf({ ...base, rules } as typeof base) as Ctrf).results.tests as (CtrfTest & {
      flaky?: boolean;
      retries?: number;
    })[];
    const byId = (id: string) => tests.find((t) => t.testId === id)!;
    expect([byId(first.id).flaky, byId(first.id).retries]).toEqual([true, 1]);
    expect([byId(second.id).flaky, byId(second.id).retries]).toEqual([true, undefined]);
    expect([byId(third.id).flaky, byId(third.id).retries]).toEqual([undefined, undefined]);
    expect(byId(second.id).extra?.flaky_first_run).toMatch(/^case 3 run again/);
  });

  it('names the run, seed and target', () => {
    expect(doc.reportFormat).toBe('CTRF');
    expect(doc.runId).toBe('k3x9q2');
    expect(doc.results.environment.extra).toMatchObject({
      run_id: 'k3x9q2',
      seed: 4242,
      target: 'https://staging.example.com',
      strict: false,
    });
  });

  it('contains the redacted placeholder and never the secret', () => {
    const text = JSON.stringify(doc);
    expect(text).toContain('Token ***');
    expect(text).not.toContain(RAW_SECRET);
  });
});
