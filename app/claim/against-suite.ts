/**
 * A claim held against what the verifier knows itself, not only against its own files (in-toto and
 * SLSA verify a statement so): this suite's rule catalogue, the levels it gives, the selection the
 * claim states, and where the recorded traffic went. A claim whose digests were all written again
 * can still contradict these: a failing MUST rule left out while the selection says "all rules", a
 * rule relabelled INFO, a failure turned into a pass that keeps the bodies only a failure keeps, a
 * target renamed while every exchange went elsewhere.
 */
import type { Level, Rule } from '../../core/engine/rule.js';
import { type Selection, selectRules } from '../../core/engine/select.js';
import { isFailing } from '../../core/engine/verdict.js';
import type { Report } from '../../core/report/schema.js';
import { packageVersion } from '../../core/spec/package-root.js';
import type { RecordedTraffic } from './traffic.js';

/** Disagreements of one kind listed one by one up to this many; the rest are counted. */
const LISTED = 20;

function listed(lines: string[], more: (n: number) => string): string[] {
  return lines.length > LISTED ? [...lines.slice(0, LISTED), more(lines.length - LISTED)] : lines;
}

/** The suite the claim names against this one: the only catalogue this verifier holds is its own. */
export function checkSuite(suite: { name: string; version: string }): string[] {
  const own = packageVersion();
  if (suite.name === 'data-import-conformance' && suite.version === own) return [];
  return [
    `suite: the claim names ${suite.name} ${suite.version}; this verifier is data-import-conformance ${own} and knows no other suite's rules: verify it with the version that made it`,
  ];
}

/** The rules of the claim against the catalogue: every rule its selection selects, each at the catalogue's level. */
export function checkCatalogue(report: Report, catalogue: readonly Rule[]): string[] {
  const selection = report.run.selection as Selection;
  const expected = selectRules(catalogue, selection).rules;
  const known = new Map(catalogue.map((r) => [r.id, r]));
  const present = new Set(report.rules.map((r) => r.id));
  const given = JSON.stringify(selection) === '{}' ? 'every rule' : JSON.stringify(selection);
  const missing = expected
    .filter((r) => !present.has(r.id))
    .map(
      (r) =>
        `catalogue: rule ${r.id} (${r.level}, ${r.spec}) is selected by the claim's selection (${given}) but is not in report.json`,
    );
  const unknown: string[] = [];
  const relevelled: string[] = [];
  const chosen = new Set(expected.map((r) => r.id));
  for (const rule of report.rules) {
    const own = known.get(rule.id);
    if (!own) unknown.push(`catalogue: rule ${rule.id} of report.json is not a rule of this suite`);
    else {
      if (own.level !== (rule.level as Level))
        relevelled.push(
          `catalogue: rule ${rule.id} is ${own.level} in this suite's catalogue, ${rule.level} in report.json`,
        );
      if (!chosen.has(rule.id))
        unknown.push(`catalogue: rule ${rule.id} of report.json is not selected by the claim's selection (${given})`);
    }
  }
  return [
    ...listed(missing, (n) => `catalogue: and ${n} more selected rules not in report.json`),
    ...listed(unknown, (n) => `catalogue: and ${n} more rules of report.json that the selection does not account for`),
    ...listed(relevelled, (n) => `catalogue: and ${n} more rules at another level than the catalogue's`),
  ];
}

/** Path and query of an absolute URL as written. */
const pathOf = (url: string) => /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(.*)$/i.exec(url)?.[1] ?? url;
const originOf = (url: string) => (URL.canParse(url) ? new URL(url).origin : undefined);
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/**
 * Where the traffic went against the target the claim names: every exchange the run sent to the
 * interface (a path under /v1/data-import/, behind any base path) went to the target's origin. The
 * token mutation may be elsewhere (auth.graphql_url is free, and a rule may send it too), so an
 * exchange outside the interface's paths is not held to it. A claim against the embedded server
 * names a loopback target.
 */
export function checkHosts(target: Report['target'], traffic: RecordedTraffic): string[] {
  const origin = originOf(target.base_url);
  if (!origin) return [`target: the base URL ${target.base_url} is not a URL`];
  const found: string[] = [];
  if (target.embedded && !LOOPBACK.test(new URL(origin).hostname))
    found.push(
      `target: the claim says it ran against the embedded reference server, but names ${origin}, which is not this machine's`,
    );
  let elsewhere = 0;
  let first: { index: number; origin: string } | undefined;
  let sent = 0;
  for (const e of traffic.entries) {
    if (!pathOf(e.url).includes('/v1/data-import/')) continue;
    sent++;
    const at = originOf(e.url);
    if (at === origin) continue;
    elsewhere++;
    first ??= { index: e.index, origin: at ?? e.url };
  }
  if (first)
    found.push(
      `target: the claim names ${origin} as the target, but ${elsewhere} of the ${sent} exchanges the run sent to the interface went elsewhere (the first: HAR entry ${first.index}, to ${first.origin})`,
    );
  return found;
}

/**
 * A rule that passed (or was skipped) keeps its exchanges as one line each, unless the run kept
 * every transcript whole (core/engine/transcripts.ts); a run that did not leaves one-line
 * exchanges somewhere. So a passing rule with an exchange kept whole, in a report where others
 * are one line, keeps what only a failing or errored rule keeps: a failure relabelled.
 */
export function checkKeptTranscripts(report: Report): string[] {
  const everyTranscript = [...(report.setup?.transcript ?? []), ...report.rules.flatMap((r) => r.transcript)];
  if (!everyTranscript.some((x) => x.brief)) return [];
  const found = report.rules
    .filter((r) => !isFailing(r.verdict) && r.transcript.some((x) => !x.brief))
    .map(
      (r) =>
        `report: rule ${r.id} is ${r.verdict} but keeps exchanges whole, as a run keeps them only for a failing or errored rule (its other transcripts are cut to one line per exchange)`,
    );
  return listed(found, (n) => `report: and ${n} more rules that pass yet keep exchanges whole`);
}

/** How the verdict line names the target: the embedded reference server is never an implementation under test. */
export const targetShown = (target: { base_url: string; embedded: boolean }) =>
  target.embedded
    ? `${target.base_url}, the embedded reference server (not an implementation under test)`
    : target.base_url;
