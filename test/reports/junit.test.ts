/**
 * junit.xml against the Jenkins xunit-plugin junit-10.xsd (vendored as junit.xsd, MIT, from
 * jenkinsci/xunit-plugin src/main/resources/org/jenkinsci/plugins/xunit/types/model/xsd/junit-10.xsd),
 * and parsed back to check that every rule lands where CI will look for it.
 */
import { headingOf } from '../../core/spec/sections.js';
import { readFileSync } from 'node:fs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { renderJunit } from '../../reports/junit.js';
import type { Report } from '../../core/report/schema.js';
import { conformantReport, RAW_SECRET, REPLAY, sampleReport } from '../helpers/sample-report.js';

const XSD = readFileSync(new URL('./junit.xsd', import.meta.url), 'utf8');

async function validate(xml: string) {
  return validateXML({
    xml: [{ fileName: 'junit.xml', contents: xml }],
    schema: [{ fileName: 'junit.xsd', contents: XSD }],
  });
}

interface Element {
  '#text'?: string;
  message?: string;
  type?: string;
}
interface Testcase {
  name: string;
  classname: string;
  time: string;
  group: string;
  failure?: Element;
  error?: Element;
  skipped?: Element | '';
  'system-out'?: string;
}
interface Testsuite {
  name: string;
  tests: string;
  failures: string;
  errors: string;
  skipped: string;
  testcase: Testcase[];
  properties: { property: { name: string; value: string }[] };
}
interface Parsed {
  testsuites: { name: string; tests: string; failures: string; errors: string; time: string; testsuite: Testsuite[] };
}

function parse(xml: string): Parsed {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
  });
  return parser.parse(xml) as Parsed;
}

const testcases = (doc: Parsed) => doc.testsuites.testsuite.flatMap((s) => s.testcase);
const testcase = (doc: Parsed, ruleId: string) => {
  const found = testcases(doc).find((t) => t.name.startsWith(`${ruleId}: `));
  if (!found) throw new Error(`no testcase for ${ruleId}`);
  return found;
};

describe('renderJunit', () => {
  const report = sampleReport();
  const xml = renderJunit(report);
  const doc = parse(xml);

  it('is valid against the junit-10.xsd that CI servers read', async () => {
    const result = await validate(xml);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    const conformant = await validate(renderJunit(conformantReport()));
    expect(conformant.errors).toEqual([]);
  });

  it('is checked by a schema that rejects what it does not allow', async () => {
    // Why the level is in `group`: junit-10.xsd has no <properties> inside a <testcase>.
    const withProperties = xml.replace(
      'group="MUST">',
      'group="MUST"><properties><property name="level" value="MUST"/></properties>',
    );
    expect(withProperties).not.toBe(xml);
    expect((await validate(withProperties)).valid).toBe(false);
  });

  it('has one testsuite per spec heading (as the console and HTML group) and one testcase per rule, named after it', () => {
    const suites = doc.testsuites.testsuite.map((s) => s.name);
    expect(suites).toEqual([
      '§2.7 Payment instruction',
      '§4.1 Account migration',
      '§4.2 Data added to an imported account',
      '§4.3 Status and listings (GET, no body)',
      '§4.4 Business',
      '§5 Authentication',
      '§7.1 Validation error body (400)',
      '§8 Limits',
    ]);
    expect(testcases(doc)).toHaveLength(report.rules.length);
    for (const rule of report.rules) {
      const t = testcase(doc, rule.id);
      expect(t.name).toBe(`${rule.id}: ${rule.title}`);
      expect(t.classname).toBe(doc.testsuites.testsuite.find((s) => s.testcase.includes(t))!.name);
      expect(t.classname.startsWith(`§${headingOf(rule.sections[0])} `)).toBe(true);
      expect(t.group).toBe(rule.level);
      expect(Number(t.time)).toBeCloseTo(rule.duration_ms / 1000, 3);
    }
    expect(
      doc.testsuites.testsuite
        .find((s) => s.name === '§4.1 Account migration')!
        .testcase.map((t) => t.name.split(':')[0]),
    ).toEqual([
      'migration.validate.accepts-valid',
      'conventions.date.impossible-day',
      'migration.validate.echoes-data',
    ]);
  });

  it('counts failures, errors and skips per suite and in total', () => {
    const root = doc.testsuites;
    expect(root).toMatchObject({ tests: '13', failures: '3', errors: '2', time: '83.456' });
    for (const suite of root.testsuite) {
      expect(Number(suite.tests)).toBe(suite.testcase.length);
      expect(Number(suite.failures)).toBe(suite.testcase.filter((t) => t.failure).length);
      expect(Number(suite.errors)).toBe(suite.testcase.filter((t) => t.error).length);
      expect(Number(suite.skipped)).toBe(suite.testcase.filter((t) => t.skipped !== undefined).length);
    }
    const sum = (key: 'failures' | 'errors') => root.testsuite.reduce((n, s) => n + Number(s[key]), 0);
    expect(sum('failures')).toBe(3);
    expect(sum('errors')).toBe(2);
    expect(testcase(doc, 'migration.validate.accepts-valid')).not.toHaveProperty('failure');
  });

  it('puts the message, expected and actual, the replay command and the transcript into a failure', () => {
    const failure = testcase(doc, 'conventions.date.impossible-day').failure!;
    expect(failure.type).toBe('MUST');
    expect(failure.message).toMatch(
      /^\[MUST\] expected status 400, got 201: body said <script>alert\(1\)<\/script> \]\]> "quotes" \|pipes\| ñandú second line/,
    );
    const text = failure['#text']!;
    expect(text).toContain('at: status');
    expect(text).toContain('expected: 400');
    expect(text).toContain('actual: 201');
    expect(text).toContain(`replay: ${REPLAY.stage}`);
    expect(text).toContain('#2 stage the account');
    expect(text).toContain('> POST /v1/data-import/account-import-process/create-or-update/?token=***');
    expect(text).toContain('< 201 (');
    expect(text).toContain('"detail":"<script>alert(1)</script> ]]>');
    // Request bodies that are JSON are indented for reading.
    expect(text).toContain('    "supply_addresses": [');
  });

  it('shows a property counterexample with its seed and path', () => {
    const text = testcase(doc, 'properties.account.single-defect-refused').failure!['#text']!;
    expect(text).toContain('counterexample (seed 4242, path 3:1:0, 12 shrinks)');
    expect(text).toContain('"email": "not-an-email"');
    expect(text).toContain(REPLAY.property);
  });

  it('reports SHOULD and INFO failures as failures and errors marked with their level', () => {
    const should = testcase(doc, 'migration.validate.echoes-data');
    expect(should.failure!.message).toMatch(/^\[SHOULD\] /);
    expect(should.failure!.type).toBe('SHOULD');
    const info = testcase(doc, 'auth.api-key.unknown-key-no-token');
    expect(info.error!.message).toBe('[INFO] precondition: could not obtain a token');
    expect(info.error!.type).toBe('precondition');
    expect(testcase(doc, 'status.listing-imported-excludes-pending').error!.type).toBe('exchange');
  });

  it('reports a baselined failure as skipped, with its comment and its full failure text', () => {
    const t = testcase(doc, 'notes.dedup.same-body-and-created-at');
    expect(t.failure).toBeUndefined();
    const skipped = t.skipped as Element;
    expect(skipped.message).toMatch(
      /^expected failure: TICKET-17: dedup ignores created_at until release 2\.4 — \[MUST\] the second note was created again/,
    );
    expect(skipped['#text']).toContain('> POST /v1/data-import/notes/create/');
  });

  it('names the configuration key that would run a skipped rule', () => {
    expect((testcase(doc, 'limits.concurrency.429-then-retry').skipped as Element).message).toBe(
      'needs the §8 concurrency limit, enabled by the operator: set fixtures.concurrency_limit',
    );
    expect((testcase(doc, 'payments.account.persistent-trouble').skipped as Element).message).toBe(
      'needs a reference the vendor has persistent trouble with (set fixtures.payment_instruction.references.persistent_failure)',
    );
  });

  it('puts what an INFO rule observed into system-out', () => {
    expect(testcase(doc, 'status.404-without-process')['system-out']).toBe(
      'the status of an unknown account is 404 with an HTML body\nno Retry-After header',
    );
  });

  it('carries the run id, seed and target as suite properties', () => {
    const props = Object.fromEntries(doc.testsuites.testsuite[0].properties.property.map((p) => [p.name, p.value]));
    expect(props).toMatchObject({ 'run.id': 'k3x9q2', 'run.seed': '4242', target: 'https://staging.example.com' });
  });

  it('stays well-formed when the server answers with characters XML cannot hold', async () => {
    const hostile: Report = structuredClone(report);
    const rule = hostile.rules.find((r) => r.id === 'conventions.date.impossible-day')!;
    rule.title = 'lone surrogate \uD800 and \uFFFE and form feed \u000c';
    rule.transcript[1].response!.headers['x-odd'] = 'bell \u0007';
    const out = renderJunit(hostile);
    expect(XMLValidator.validate(out)).toBe(true);
    expect((await validate(out)).valid).toBe(true);
    expect(out).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\uD800\uFFFE]/);
    const t = testcase(parse(out), 'conventions.date.impossible-day');
    expect(t.name).toContain('lone surrogate \\ud800 and \\ufffe and form feed \\u000c');
    expect(t.failure!.message).toContain('second line \\u0000\\u001b[31m');
    expect(t.failure!['#text']).toContain('< x-odd: bell \\u0007');
  });

  it('contains the redacted placeholder and never the secret', () => {
    expect(xml).toContain('authorization: Token ***');
    expect(xml).not.toContain(RAW_SECRET);
  });
});
