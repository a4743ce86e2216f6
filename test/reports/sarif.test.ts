/**
 * report.sarif against the official SARIF 2.1.0 JSON schema, vendored as sarif-schema-2.1.0.json: a
 * verbatim copy of sarif-2.1/schema/sarif-schema-2.1.0.json from github.com/oasis-tcs/sarif-spec
 * (commit e0583813964ec43cea53b6b531b402866095ed1f), the OASIS SARIF TC's repository, published under
 * the OASIS IPR Policy (RF on RAND terms); the schema is draft-04, so it is read with ajv-draft-04.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { runAgainstReference } from '../../app/against-reference.js';
import { isFailing } from '../../core/engine/verdict.js';
import type { Report } from '../../core/report/schema.js';
import { specText } from '../../core/spec/sections.js';
import { writeReports } from '../../reports/index.js';
import { ruleLine } from '../../reports/plain-text.js';
import { fileURLToPath } from 'node:url';
import { showControlChars } from '../../reports/plain-text.js';
import { SPEC_URI, renderSarif } from '../../reports/sarif.js';
import { build, conformantReport, HOSTILE_REASON, RAW_SECRET, sampleReport } from '../helpers/sample-report.js';

const schema = JSON.parse(readFileSync(new URL('./sarif-schema-2.1.0.json', import.meta.url), 'utf8')) as object;
const ajv = new AjvDraft04.default({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(schema);

interface Region {
  startLine: number;
  endLine: number;
}
interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  kind: string;
  level: string;
  message: { text: string };
  locations?: {
    physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: Region };
    message: { text: string };
  }[];
  suppressions?: { kind: string; status: string; justification: string }[];
  properties: Record<string, unknown>;
}
interface Sarif {
  version: string;
  runs: {
    tool: {
      driver: {
        name: string;
        version: string;
        rules: { id: string; shortDescription: { text: string }; properties: Record<string, unknown> }[];
      };
    };
    invocations: { executionSuccessful: boolean; exitCode: number; exitCodeDescription: string }[];
    results: SarifResult[];
    properties: { target: Report['target'] };
  }[];
}

/** The document as a reader gets it: through JSON, as the file holds it. */
const sarifOf = (report: Report) => JSON.parse(JSON.stringify(renderSarif(report))) as Sarif;

function expectValid(doc: unknown) {
  const valid = validate(doc);
  expect(validate.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
}

/**
 * A plain text message as a SARIF viewer reads it (SARIF 2.1.0 §3.11.6): `\\`, `\[` and `\]` are
 * the characters themselves, and an unescaped `[` or `]` is link syntax, which a message quoting the
 * target must never hold. Returns the text shown; throws on link syntax.
 */
function unescapeSarif(text: string): string {
  let shown = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && '\\[]'.includes(text[i + 1] ?? '-')) shown += text[++i];
    else if (text[i] === '[' || text[i] === ']') throw new Error(`link syntax at ${i}: ${text.slice(i, i + 60)}`);
    else shown += text[i];
  }
  return shown;
}

/** Every message text of a SARIF document: results', locations', notifications'. */
function messageTexts(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(messageTexts);
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === 'message' && v && typeof (v as { text?: unknown }).text === 'string'
      ? [(v as { text: string }).text]
      : messageTexts(v),
  );
}

/** An RFC 3986 URI reference: only unreserved, sub-delims, `:@/?#` and percent-encoded octets, no fragment here. */
const URI_REFERENCE_NO_FRAGMENT = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;

const specLines = specText().split('\n');
/** The spec's line `n` (1-based). */
const line = (n: number) => specLines[n - 1];

describe('report.sarif from a failing run (the reference server with one fault)', async () => {
  const { report } = await runAgainstReference(
    { fault: 'auth.any-token-on-status' },
    { seed: 7, selection: { sections: ['5'] } },
  );
  const doc = sarifOf(report);
  const [run] = doc.runs;

  it('failed as the fault makes it fail', () => {
    expect(report.summary.exit_code).toBe(1);
    expect(report.rules.filter((r) => r.verdict === 'fail').map((r) => r.id)).toContain(
      'auth.401.account-transfer-status',
    );
  });

  it('is valid against the SARIF 2.1.0 schema', () => {
    expectValid(doc);
    expect(doc.version).toBe('2.1.0');
  });

  it('has one result per rule failed or not judged, with its id, level and the console line', () => {
    const failing = report.rules.filter((r) => isFailing(r.verdict));
    expect(run.results.map((r) => r.ruleId)).toEqual(failing.map((r) => r.id));
    for (const result of run.results) {
      const rule = report.rules.find((r) => r.id === result.ruleId)!;
      expect(result.kind).toBe('fail');
      expect(result.level).toBe({ MUST: 'error', SHOULD: 'warning', INFO: 'note' }[rule.level]);
      expect(result.message.text).toBe(ruleLine(rule));
      expect(run.tool.driver.rules[result.ruleIndex].id).toBe(rule.id);
    }
  });

  it('points each result at the lines of every section it cites, heading to the line before the next one', () => {
    const result = run.results.find((r) => r.ruleId === 'auth.401.account-transfer-status')!;
    // The rule cites §5.3, §7.2 and §4: §5.3 is a numbered item of §5, not a heading.
    expect(report.rules.find((r) => r.id === result.ruleId)!.spec).toBe('§5.3, §7.2, §4');
    const where = result.locations!.map((l) => ({ ...l.physicalLocation, title: l.message.text }));
    expect(where.map((w) => w.title)).toEqual(['§5 Authentication', '§7.2 Status codes', '§4 Endpoints']);
    for (const w of where) expect(w.artifactLocation.uri).toBe(SPEC_URI);
    const [five, sevenTwo, four] = where.map((w) => w.region);
    // Each starts at its heading and ends on the line before the next heading of its level or higher.
    expect(line(five.startLine)).toBe('## 5. Authentication');
    expect(line(five.endLine + 1)).toBe('## 6. Events');
    expect(line(sevenTwo.startLine)).toBe('### 7.2 Status codes');
    expect(line(sevenTwo.endLine + 1)).toBe('## 8. Limits');
    // A `##` section holds its `###` subsections: §4 runs past §4.1 … §4.4 to §5.
    expect(line(four.startLine)).toBe('## 4. Endpoints');
    expect(line(four.endLine + 1)).toBe('## 5. Authentication');
    expect(five.startLine).toBeLessThan(five.endLine);
    // The file shipped is the one the regions were read from.
    expect(readFileSync(new URL(`../../${SPEC_URI}`, import.meta.url), 'utf8')).toBe(specText());
  });

  it('describes every rule of the run, and the invocation and target as report.json has them', () => {
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(report.rules.map((r) => r.id));
    for (const [i, d] of run.tool.driver.rules.entries()) {
      expect(d.shortDescription.text).toBe(report.rules[i].title);
      expect(d.properties).toMatchObject({ level: report.rules[i].level, spec: report.rules[i].spec });
    }
    expect(run.tool.driver).toMatchObject({ name: report.tool.name, version: report.tool.version });
    expect(run.invocations[0]).toMatchObject({ executionSuccessful: true, exitCode: 1 });
    // The status endpoint taking any token fails its §5 401 rule and the near-miss token rule (relations).
    const must = report.rules.filter((r) => r.verdict === 'fail' && r.level === 'MUST').length;
    expect(must).toBeGreaterThan(0);
    expect(run.invocations[0].exitCodeDescription).toMatch(
      new RegExp(`^Not conformant: ${must} MUST failure${must === 1 ? '' : 's'}`),
    );
    expect(run.properties.target).toEqual(report.target);
  });
});

describe('report.sarif of every kind of verdict', () => {
  const report = sampleReport();
  const doc = sarifOf(report);
  const [run] = doc.runs;
  const result = (id: string) => run.results.find((r) => r.ruleId === id);

  it('is valid against the schema, and the schema rejects what SARIF does not allow', () => {
    expectValid(doc);
    expectValid(sarifOf(conformantReport()));
    const wrong = structuredClone(doc);
    wrong.runs[0].results[0].level = 'fatal';
    expect(validate(wrong)).toBe(false);
  });

  it('gives a rule not judged kind open and level none (SARIF allows no other level), its level kept', () => {
    const unjudged = report.rules.filter((r) => r.verdict === 'error');
    expect(unjudged.length).toBeGreaterThan(0);
    for (const rule of unjudged)
      expect(result(rule.id)).toMatchObject({
        kind: 'open',
        level: 'none',
        properties: { verdict: 'error', level: rule.level, error_kind: rule.error_kind },
      });
  });

  it('leaves passes and skips out, and keeps a failure the baseline excuses, suppressed with its comment', () => {
    for (const rule of report.rules.filter((r) => !isFailing(r.verdict))) expect(result(rule.id)).toBeUndefined();
    const excused = report.rules.find((r) => r.expected_failure)!;
    expect(result(excused.id)).toMatchObject({
      kind: 'fail',
      suppressions: [{ kind: 'external', status: 'accepted', justification: excused.expected_failure!.comment }],
    });
    for (const r of run.results.filter((x) => x.ruleId !== excused.id)) expect(r.suppressions).toBeUndefined();
  });

  it('writes target text as data: control characters shown by their code, link syntax escaped, nothing else changed', () => {
    const hostile = structuredClone(report);
    const rule = hostile.rules.find((r) => r.reason === HOSTILE_REASON)!;
    rule.reason = 'expected code "A\u001b[31m", got "<script>alert(1)</script>\u0000"';
    const text = sarifOf(hostile).runs[0].results.find((r) => r.ruleId === rule.id)!.message.text;
    expect(text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
    // The backslash of the written-out control character and the bracket are escaped (SARIF §3.11.6).
    expect(text).toContain('A\\\\u001b\\[31m');
    expect(text).toContain('got "<script>alert(1)</script>\\\\u0000"');
    expect(unescapeSarif(text)).toBe(showControlChars(ruleLine(rule)));
  });

  it('is written as report.sarif only when asked, through the redactor like every report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sarif-'));
    const leaked = structuredClone(report);
    leaked.rules[0].reason = `the token ${RAW_SECRET} was echoed`;
    const written = await writeReports(leaked, dir, ['sarif'], {}, (t) => t.replaceAll(RAW_SECRET, '[REDACTED]'));
    expect(written).toEqual([{ format: 'sarif', file: join(dir, 'report.sarif') }]);
    const text = readFileSync(join(dir, 'report.sarif'), 'utf8');
    expect(text).not.toContain(RAW_SECRET);
    expectValid(JSON.parse(text));
  });
});

describe('report.sarif against hostile text, an aborted run and awkward paths (issue #44)', () => {
  const LINK = 'see [the fix](https://evil.example/phish) or \\[not a link\\] in C:\\temp';

  it('S1: escapes link syntax in every message text, so target text is never a link, and loses nothing', () => {
    const hostile = structuredClone(sampleReport());
    const rule = hostile.rules.find((r) => r.reason === HOSTILE_REASON)!;
    rule.reason = `the note came back as ${LINK}`;
    const doc = sarifOf(hostile);
    expectValid(doc);
    const text = doc.runs[0].results.find((r) => r.ruleId === rule.id)!.message.text;
    expect(text).toContain('\\[the fix\\](https://evil.example/phish)');
    expect(unescapeSarif(text)).toBe(showControlChars(ruleLine(rule)));
    // No message of the document holds link syntax, whatever it quotes.
    for (const t of messageTexts(doc)) expect(() => unescapeSarif(t)).not.toThrow();

    // The reason of an aborted run (what the target answered to the preflight) is a notification.
    const aborted = sarifOf(build([], { aborted: `the target answered 500: ${LINK}` }));
    const texts = messageTexts(aborted);
    expect(texts.some((t) => unescapeSarif(t).includes('[the fix](https://evil.example/phish)'))).toBe(true);
    for (const t of texts) expect(() => unescapeSarif(t)).not.toThrow();
  });

  it("S2: locates every result, an aborted run's preflight too (at the whole spec file), as code scanning requires", () => {
    const aborted = sarifOf(build([], { aborted: 'connection refused' }));
    expectValid(aborted);
    const [result] = aborted.runs[0].results;
    expect(result.ruleId).toBe('run.preflight');
    expect(result.locations).toHaveLength(1);
    const [where] = result.locations!;
    expect(where.physicalLocation.artifactLocation.uri).toBe(SPEC_URI);
    expect(where.physicalLocation.region.startLine).toBe(1);
    expect(line(where.physicalLocation.region.endLine)).toBeDefined();
    expect(line(where.physicalLocation.region.endLine + 1)).toBeFalsy();
    for (const doc of [sarifOf(sampleReport()), aborted])
      for (const r of doc.runs[0].results) expect(r.locations?.length, r.ruleId).toBeGreaterThan(0);
  });

  it('S3: writes the baseline file as a valid URI reference, percent-encoded, naming that file', () => {
    const report = structuredClone(sampleReport());
    const suppressedUri = (file: string) => {
      report.baseline!.file = file;
      const doc = renderSarif(report) as {
        runs: {
          results: { suppressions?: { location: { physicalLocation: { artifactLocation: { uri: string } } } }[] }[];
        }[];
      };
      expectValid(JSON.parse(JSON.stringify(doc)));
      return doc.runs[0].results.find((r) => r.suppressions)!.suppressions![0].location.physicalLocation
        .artifactLocation.uri;
    };
    const relative = suppressedUri('ci baselines/known#1 [v2] 100%.yaml');
    expect(relative).toBe('ci%20baselines/known%231%20%5Bv2%5D%20100%25.yaml');
    expect(relative).toMatch(URI_REFERENCE_NO_FRAGMENT);
    const resolved = new URL(relative, 'file:///work/');
    expect(resolved.hash).toBe('');
    expect(fileURLToPath(resolved)).toBe('/work/ci baselines/known#1 [v2] 100%.yaml');

    const absolute = suppressedUri('/srv/ci baselines/ñ#1.yaml');
    expect(absolute).toBe('file:///srv/ci%20baselines/%C3%B1%231.yaml');
    expect(fileURLToPath(absolute)).toBe('/srv/ci baselines/ñ#1.yaml');
  });
});
