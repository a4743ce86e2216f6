/**
 * report.sarif: SARIF 2.1.0 (OASIS), the format code-scanning tools read. GitHub shows only a few
 * annotations per CI step and drops the rest silently; an uploaded SARIF file carries every finding.
 *
 * One result per rule that failed or could not be judged (error); passes and skips are not findings.
 * Each result points at the spec sentence it is about: the lines of the cited section in the shipped
 * spec file, one location per section cited. A failure is `kind: fail` with the rule's level (MUST →
 * error, SHOULD → warning, INFO → note); a rule not judged is `kind: open` — SARIF's "could not tell
 * pass from fail" — whose level SARIF 2.1.0 §3.27.10 requires to be `none` (a not-judged rule is never
 * a failure, docs/design.md §2), its rule's level kept in its properties. A failure the baseline
 * excuses is still a result, carrying an accepted external suppression with the baseline's comment,
 * so it never vanishes silently.
 *
 * Every result has a location: GitHub's code scanning refuses a whole file over one result without
 * any. One that cites no section of the spec (the preflight of an aborted run) is located at the
 * whole spec file. Message texts carry target text with link syntax escaped (sarif-text.ts).
 */
import { isFailing } from '../core/engine/verdict.js';
import { runVerdict } from '../core/report/verdict-line.js';
import type { Report, RuleResult } from '../core/report/schema.js';
import { headingOf, sectionLines, sectionTitle, specText } from '../core/spec/sections.js';
import { ruleLine, showControlChars } from './plain-text.js';
import { sarifText, uriReference } from './sarif-text.js';

export const SARIF_SCHEMA =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** The spec file as the package ships it, relative to the package's root. */
export const SPEC_URI = 'spec/data-import-interface.md';

/** The base the spec's location is relative to: the installed package (node_modules/data-import-conformance/). */
const PACKAGE_ROOT = 'PACKAGE_ROOT';

type SarifLevel = 'error' | 'warning' | 'note' | 'none';

const LEVEL: Record<RuleResult['level'], SarifLevel> = { MUST: 'error', SHOULD: 'warning', INFO: 'note' };

const specLocation = (region: { startLine: number; endLine: number }, text: string) => ({
  physicalLocation: {
    artifactLocation: { uri: SPEC_URI, uriBaseId: PACKAGE_ROOT },
    region: { startLine: region.startLine, endLine: region.endLine },
  },
  message: { text: sarifText(text) },
});

/** The spec file from its first line to its last. */
function wholeSpec() {
  const all = specText().split('\n');
  return { startLine: 1, endLine: all.at(-1) === '' ? all.length - 1 : all.length };
}

/**
 * One location per heading the rule cites (`§5.2, §5.3` are both §5), in the order cited; a rule
 * citing none (the preflight) is located at the whole spec, never nowhere.
 */
function locations(rule: RuleResult, lines: ReturnType<typeof sectionLines>) {
  const headings = [...new Set(rule.sections.map(headingOf))];
  const cited = headings.flatMap((section) => {
    const region = lines.get(section);
    return region ? [specLocation(region, `§${section} ${sectionTitle(section)}`.trim())] : [];
  });
  return cited.length
    ? cited
    : [specLocation(wholeSpec(), `The interface specification (the result cites no section of it: ${rule.spec})`)];
}

function descriptor(rule: RuleResult) {
  return {
    id: rule.id,
    shortDescription: { text: rule.title },
    ...(rule.why ? { fullDescription: { text: `${rule.title} (${rule.level}: ${rule.why})` } } : {}),
    defaultConfiguration: { level: LEVEL[rule.level] },
    properties: {
      level: rule.level,
      spec: rule.spec,
      tags: [rule.level, ...rule.tags],
      ...(rule.endpoints.length ? { endpoints: rule.endpoints } : {}),
    },
  };
}

function result(rule: RuleResult, ruleIndex: number, report: Report, lines: ReturnType<typeof sectionLines>) {
  const failed = rule.verdict === 'fail';
  const where = locations(rule, lines);
  const excused = rule.expected_failure;
  return {
    ruleId: rule.id,
    ruleIndex,
    kind: failed ? 'fail' : 'open',
    level: failed ? LEVEL[rule.level] : 'none',
    // Target text inside: control characters written out, link syntax escaped.
    message: { text: sarifText(ruleLine(rule)) },
    locations: where,
    ...(excused
      ? {
          suppressions: [
            {
              kind: 'external',
              status: 'accepted',
              justification: showControlChars(excused.comment),
              ...(report.baseline
                ? { location: { physicalLocation: { artifactLocation: { uri: uriReference(report.baseline.file) } } } }
                : {}),
              ...(excused.reason ? { properties: { reason: showControlChars(excused.reason) } } : {}),
            },
          ],
        }
      : {}),
    properties: {
      verdict: rule.verdict,
      level: rule.level,
      spec: rule.spec,
      ...(rule.error_kind ? { error_kind: rule.error_kind } : {}),
      ...(rule.cause ? { cause: rule.cause } : {}),
      ...(rule.replay ? { replay: rule.replay } : {}),
    },
  };
}

/** Why the run ended without judging everything it meant to: a notification SARIF readers show with the run. */
function notifications(report: Report) {
  if (report.aborted) return [{ level: 'error', message: { text: sarifText(report.aborted.reason) } }];
  if (report.interrupted) return [{ level: 'warning', message: { text: sarifText(report.interrupted.reason) } }];
  return [];
}

export function renderSarif(report: Report): object {
  const lines = sectionLines();
  const index = new Map(report.rules.map((r, i) => [r.id, i]));
  const verdict = runVerdict(report);
  const notes = notifications(report);
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: report.tool.name,
            version: report.tool.version,
            semanticVersion: report.tool.version,
            rules: report.rules.map(descriptor),
          },
        },
        originalUriBaseIds: {
          [PACKAGE_ROOT]: {
            description: {
              text: 'The installed data-import-conformance package (node_modules/data-import-conformance/).',
            },
          },
        },
        invocations: [
          {
            // The suite ran to its end; what it found is in the results, not here.
            executionSuccessful: !report.aborted && !report.interrupted,
            exitCode: report.summary.exit_code,
            exitCodeDescription: showControlChars(`${verdict.title}: ${verdict.detail}`),
            startTimeUtc: report.run.started_at,
            endTimeUtc: report.run.finished_at,
            ...(notes.length ? { toolExecutionNotifications: notes } : {}),
          },
        ],
        results: report.rules
          .filter((r) => isFailing(r.verdict))
          .map((r) => result(r, index.get(r.id)!, report, lines)),
        properties: {
          // As report.json has it: the base URL and auth mode, never a credential.
          target: report.target,
          run_id: report.run.id,
          ...(report.run.seed !== undefined ? { seed: report.run.seed } : {}),
          verdict: verdict.state,
        },
      },
    ],
  };
}
