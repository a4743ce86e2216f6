/**
 * junit.xml: one <testsuite> per spec section, one <testcase> per rule, valid against the
 * Jenkins/Ant junit-10.xsd that CI servers (Jenkins, GitLab, Azure, GitHub test reporters) accept.
 *
 * Choices forced by that schema, which allows no more:
 * - the level goes into the testcase's `group` attribute (the TestNG-style category slot), because
 *   junit-10.xsd has no <properties> inside a <testcase> — pytest drops per-testcase properties
 *   from its xunit2 output for the same reason;
 * - `skipped` and `timestamp` sit on each <testsuite>, since <testsuites> cannot carry them;
 * - characters XML 1.0 cannot hold (NUL, ESC, lone surrogates, …) are written as `\uXXXX` text,
 *   so a server that answers with control characters cannot make the file unreadable.
 */
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { Report, RuleResult } from '../core/report/schema.js';
import { bySuite, failureText, oneLine, skipMessage, visibleEscape } from './plain-text.js';

const seconds = (ms: number) => (ms / 1000).toFixed(3);

type Outcome = 'pass' | 'failure' | 'error' | 'skipped';

/**
 * How a rule shows in CI. A baselined failure is <skipped>, not <failure>: the baseline exists so
 * that known failures keep the gate green, and a red JUnit tab would undo that. SHOULD and INFO
 * failures stay <failure>s — hiding them would misreport the target — and their message starts with
 * the level so a reader can tell them from MUST failures at a glance.
 */
function outcomeOf(rule: RuleResult): Outcome {
  if (rule.verdict === 'pass') return 'pass';
  if (rule.verdict === 'skip' || rule.expected_failure) return 'skipped';
  return rule.verdict === 'fail' ? 'failure' : 'error';
}

function addTestcase(suite: XMLBuilder, rule: RuleResult, classname: string, baseUrl: string): void {
  const testcase = suite.ele('testcase', {
    name: `${rule.id}: ${rule.title}`,
    classname,
    time: seconds(rule.duration_ms),
    group: rule.level,
  });
  const reason = oneLine(rule.reason ?? '');
  switch (outcomeOf(rule)) {
    case 'failure':
      testcase
        .ele('failure', { message: `[${rule.level}] ${reason}`, type: rule.level })
        .txt(failureText(rule, baseUrl));
      break;
    case 'error':
      testcase
        .ele('error', { message: `[${rule.level}] ${reason}`, type: rule.error_kind ?? 'error' })
        .txt(failureText(rule, baseUrl));
      break;
    case 'skipped':
      if (rule.expected_failure) {
        testcase
          .ele('skipped', {
            message: `expected failure: ${oneLine(rule.expected_failure.comment)} — [${rule.level}] ${reason}`,
          })
          .txt(failureText(rule, baseUrl));
      } else {
        testcase.ele('skipped', { message: skipMessage(rule) });
      }
      break;
    case 'pass':
      // What an INFO rule observed is its result; CI shows system-out next to the testcase.
      // A pass on a second run says so (--retries): flaky, with why the first run was not judged.
      if (rule.observations.length || rule.flaky !== undefined)
        testcase
          .ele('system-out')
          .txt([...(rule.flaky !== undefined ? [`flaky: ${rule.flaky}`] : []), ...rule.observations].join('\n'));
      break;
  }
}

export function renderJunit(report: Report): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: visibleEscape });
  const suites = bySuite(report);
  const tally = (rules: RuleResult[], outcome: Outcome) => String(rules.filter((r) => outcomeOf(r) === outcome).length);

  const root = doc.ele('testsuites', {
    name: `${report.tool.name} ${report.target.base_url}`,
    tests: String(report.rules.length),
    failures: tally(report.rules, 'failure'),
    errors: tally(report.rules, 'error'),
    time: seconds(report.run.duration_ms),
  });
  for (const [name, rules] of suites) {
    const suite = root.ele('testsuite', {
      name,
      tests: String(rules.length),
      failures: tally(rules, 'failure'),
      errors: tally(rules, 'error'),
      skipped: tally(rules, 'skipped'),
      time: seconds(rules.reduce((sum, r) => sum + r.duration_ms, 0)),
      timestamp: report.run.started_at,
    });
    // Repeated per suite because <testsuites> cannot hold properties, and CI shows them per suite.
    const properties = suite.ele('properties');
    for (const [key, value] of Object.entries({
      'run.id': report.run.id,
      // A traffic report has no seed (nothing was generated).
      ...(report.run.seed !== undefined ? { 'run.seed': String(report.run.seed) } : {}),
      'run.strict': String(report.run.strict),
      target: report.target.base_url,
      'tool.version': report.tool.version,
    })) {
      properties.ele('property', { name: key, value });
    }
    for (const rule of rules) addTestcase(suite, rule, name, report.target.base_url);
  }
  return doc.end({ prettyPrint: true, wellFormed: true });
}
