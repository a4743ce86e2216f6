/**
 * Checks a claim directory offline, from its own files and the suite's shipped spec: the digests,
 * the spec text, the statement against report.json (and report.json against the runner's own
 * counting), and report.json against the recorded traffic (traffic.ts). Every disagreement is
 * said; a directory that is not a claim at all (a file missing that the rest is read from, one that
 * does not parse) is a ClaimFormatError naming the file.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { summarize } from '../../core/report/build.js';
import { type Report, ReportSchema } from '../../core/report/schema.js';
import { dotPath } from '../../core/spec/paths.js';
import { HarError } from '../traffic/har-read.js';
import { badgeSvg } from './badge.js';
import { fixtureKeys } from './config.js';
import { MAX_CLAIM_FILE_BYTES, filesUnder, parseSums, SUMS_FILE, SumsSyntaxError } from './digests.js';
import { CLAIM_FILES, type Statement, StatementSchema, claimHolds, fromReport } from './statement.js';
import { sha256, shippedSpec } from './suite.js';
import { checkTranscripts, observedPagination, readTraffic, rejudge } from './traffic.js';

/** A claim directory that cannot be read as one: the file, and what is wrong with it. */
export class ClaimFormatError extends Error {
  constructor(
    readonly file: string,
    why: string,
  ) {
    super(`${file}: ${why}`);
  }
}

function readText(dir: string, file: string): string {
  const path = join(dir, file);
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    throw new ClaimFormatError(file, 'missing');
  }
  if (size > MAX_CLAIM_FILE_BYTES)
    throw new ClaimFormatError(
      file,
      `${size} bytes, more than a claim's file is read at (${MAX_CLAIM_FILE_BYTES / 1024 / 1024} MiB)`,
    );
  return readFileSync(path, 'utf8');
}

/** JSON validated by a schema; the first problem named by its path in the file. */
function readJson<S extends z.ZodType>(dir: string, file: string, schema: S): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(readText(dir, file));
  } catch (error) {
    if (error instanceof ClaimFormatError) throw error;
    throw new ClaimFormatError(file, `not JSON (${(error as Error).message.slice(0, 200)})`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ClaimFormatError(file, `${dotPath(issue.path, '(document)')}: ${issue.message}`);
  }
  return parsed.data;
}

/** SHA256SUMS against the directory: every file listed, present and unchanged; none unlisted. */
function checkDigests(dir: string): string[] {
  let sums: Map<string, string>;
  try {
    sums = parseSums(readText(dir, SUMS_FILE));
  } catch (error) {
    if (error instanceof SumsSyntaxError) throw new ClaimFormatError(SUMS_FILE, error.message);
    throw error;
  }
  const { files, odd } = filesUnder(dir);
  const all = new Set(files);
  const found: string[] = [];
  // A file no run writes is said and never read: it is not part of what the claim states.
  for (const file of files) if (!claimHolds(file)) found.push(`files: ${file} is not a file a run writes into a claim`);
  const present = new Set(files.filter((f) => f !== SUMS_FILE && claimHolds(f)));
  for (const [file, digest] of sums) {
    if (!claimHolds(file)) {
      if (!all.has(file)) found.push(`files: ${SUMS_FILE} lists ${file}, which is not a file of a claim`);
    } else if (!present.has(file)) found.push(`digests: ${file} is listed in ${SUMS_FILE} but missing`);
    else if (sha256(readFileSync(join(dir, file))) !== digest)
      found.push(`digests: ${file} does not match its SHA-256 in ${SUMS_FILE}`);
  }
  for (const file of present) if (!sums.has(file)) found.push(`digests: ${file} is not listed in ${SUMS_FILE}`);
  for (const file of odd) found.push(`digests: ${file} is not a regular file (a link or a device)`);
  return found;
}

/** The spec text: the claim's copy, the digest it states, and the spec this suite ships, all one. */
function checkSpec(dir: string, statement: Statement): string[] {
  const found: string[] = [];
  const shipped = sha256(shippedSpec());
  if (statement.spec.sha256 !== shipped)
    found.push(
      `spec: statement.json gives the spec's SHA-256 as ${statement.spec.sha256}, the spec this suite ships (${CLAIM_FILES.spec}) has ${shipped}`,
    );
  const copy = join(dir, CLAIM_FILES.spec);
  if (!existsSync(copy)) found.push(`spec: ${CLAIM_FILES.spec} is missing from the claim`);
  else if (sha256(readFileSync(copy)) !== statement.spec.sha256)
    found.push(`spec: the claim's ${CLAIM_FILES.spec} does not have the SHA-256 statement.json gives`);
  return found;
}

/** report.json's own summary against the runner's counting of its rules. */
function checkReportSummary(report: Report): string[] {
  const { summary } = summarize(
    report.rules.map((r) => ({ ...r })),
    report.run.strict,
    false,
    report.summary.not_implemented ?? [],
  );
  const keys = [
    'counts',
    'by_level',
    'must_failures',
    'should_failures',
    'conformant',
    'incomplete',
    'exit_code',
  ] as const;
  return keys
    .filter((k) => !isDeepStrictEqual(summary[k], report.summary[k]))
    .map(
      (k) =>
        `report: report.json's summary.${k} is ${JSON.stringify(report.summary[k])}, its rules count ${JSON.stringify(summary[k])}`,
    );
}

/** statement.json against what report.json says: each part, and each rule's verdict. */
function checkStatement(statement: Statement, report: Report): string[] {
  const derived = fromReport(report);
  const found: string[] = [];
  const ours = new Map(statement.rules.map((r) => [r.id, r]));
  const theirs = new Map(derived.rules.map((r) => [r.id, r]));
  for (const [id, rule] of theirs) {
    const said = ours.get(id);
    if (!said) found.push(`statement: rule ${id} (${rule.verdict} in report.json) is missing from statement.json`);
    else if (said.verdict !== rule.verdict || said.level !== rule.level)
      found.push(
        `statement: rule ${id} is ${said.level} ${said.verdict} in statement.json, ${rule.level} ${rule.verdict} in report.json`,
      );
    else if (!isDeepStrictEqual(said, rule))
      found.push(`statement: rule ${id} is recorded differently in statement.json and report.json`);
  }
  for (const id of ours.keys()) if (!theirs.has(id)) found.push(`statement: rule ${id} is not in report.json`);
  if (statement.verdict !== derived.verdict)
    found.push(
      `statement: the verdict is "${statement.verdict}" in statement.json, but report.json's rules give "${derived.verdict}"`,
    );
  const parts = {
    target: [statement.target, derived.target],
    run: [statement.run, derived.run],
    selection: [statement.selection, derived.selection],
    'observed.rate_limited': [statement.observed.rate_limited, derived.observed.rate_limited],
    'observed.endpoints': [statement.observed.endpoints, derived.observed.endpoints],
    'observed.not_implemented': [statement.observed.not_implemented, derived.observed.not_implemented],
    accepted_skips: [statement.accepted_skips, derived.accepted_skips],
    counts: [statement.counts, derived.counts],
  } as const;
  for (const [part, [said, is]] of Object.entries(parts))
    if (!isDeepStrictEqual(said, is))
      found.push(
        `statement: ${part} in statement.json is not what report.json says (${JSON.stringify(is).slice(0, 300)})`,
      );
  return found;
}

/** config.json, when the claim has one: secrets replaced, and the fixtures declared being the ones it gives. */
function checkConfig(dir: string, statement: Statement): string[] {
  if (statement.files.config === null) return [];
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(readText(dir, CLAIM_FILES.config)) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof ClaimFormatError) throw error;
    throw new ClaimFormatError(CLAIM_FILES.config, 'not JSON');
  }
  if (statement.declared.source !== 'configuration') return [];
  const given = fixtureKeys(config?.fixtures as Record<string, unknown> | undefined);
  return isDeepStrictEqual(given, statement.declared.fixtures)
    ? []
    : [
        `config: statement.json declares the fixtures ${JSON.stringify(statement.declared.fixtures)}, ${statement.files.config} gives ${JSON.stringify(given)}`,
      ];
}

export interface Verification {
  disagreements: string[];
  statement: Statement;
}

export function verifyClaim(dir: string): Verification {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new ClaimFormatError(dir, 'no such directory');
  }
  if (!isDir) throw new ClaimFormatError(dir, 'not a directory');
  const digests = checkDigests(dir);
  const statement = readJson(dir, CLAIM_FILES.statement, StatementSchema);
  const report = readJson(dir, CLAIM_FILES.report, ReportSchema);
  let traffic: ReturnType<typeof readTraffic>;
  try {
    traffic = readTraffic(readText(dir, CLAIM_FILES.har));
  } catch (error) {
    if (error instanceof HarError) throw new ClaimFormatError(CLAIM_FILES.har, error.message);
    throw error;
  }
  const listings = observedPagination(traffic);
  const badge = join(dir, CLAIM_FILES.badge);
  const badgeAgrees =
    existsSync(badge) && readFileSync(badge, 'utf8') === badgeSvg(statement.verdict, statement.counts.MUST);
  // Lists of any length are joined with flat(), never spread into a call's arguments.
  const disagreements = [
    digests,
    checkSpec(dir, statement),
    checkReportSummary(report),
    checkStatement(statement, report),
    checkConfig(dir, statement),
    isDeepStrictEqual(listings, statement.observed.listings)
      ? []
      : [`statement: observed.listings is not what the HAR shows (${JSON.stringify(listings)})`],
    badgeAgrees ? [] : [`badge: ${CLAIM_FILES.badge} does not state the verdict and MUST counts of statement.json`],
    checkTranscripts(report, traffic),
    rejudge(report, traffic, statement.verdict),
  ].flat();
  return { disagreements, statement };
}
