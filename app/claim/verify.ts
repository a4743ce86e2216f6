/**
 * Checks a claim directory offline, from its own files and the suite's shipped spec: the digests,
 * the spec text, the statement against report.json (and report.json against the runner's own
 * counting), report.json against the recorded traffic (traffic.ts), and the claim against this
 * suite's own catalogue and the target it names (against-suite.ts). Every disagreement is said; a
 * directory that is not a claim at all (a file missing that the rest is read from, one that does
 * not parse) is a ClaimFormatError naming the file.
 *
 * A claim comes from someone else, so every file of it is read as hostile input: a regular file
 * only, never through a link, capped before it is read (core/files/read-bounded.ts), and JSON
 * nested deeper than any file a run writes is refused before anything walks it.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { jsonDepthExceeds } from '../../core/files/json-depth.js';
import { FileRefusedError, readBounded } from '../../core/files/read-bounded.js';
import type { Rule } from '../../core/engine/rule.js';
import { summarize } from '../../core/report/build.js';
import { type Report, ReportSchema } from '../../core/report/schema.js';
import { dotPath } from '../../core/spec/paths.js';
import { HarError } from '../traffic/har-read.js';
import { badgeSvg } from './badge.js';
import { fixtureKeys } from './config.js';
import {
  MAX_CLAIM_FILE_BYTES,
  filesUnder,
  parseSums,
  SUMS_FILE,
  SumsSyntaxError,
  TooManyEntriesError,
} from './digests.js';
import { CLAIM_FILES, type Statement, StatementSchema, claimHolds, fromReport } from './statement.js';
import { sha256, shippedSpec } from './suite.js';
import { checkCatalogue, checkHosts, checkKeptTranscripts, checkSuite } from './against-suite.js';
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

/** The bytes of one file of the claim, or undefined with why it could not be read. */
function readHeld(dir: string, file: string): { bytes: Buffer } | { refused: FileRefusedError } {
  try {
    return { bytes: readBounded(join(dir, file), { maxBytes: MAX_CLAIM_FILE_BYTES }) };
  } catch (error) {
    if (error instanceof FileRefusedError) return { refused: error };
    throw error;
  }
}

/** A file of the claim: its text (or bytes), or a ClaimFormatError saying why it cannot be read. */
function readText(dir: string, file: string): string;
function readText(dir: string, file: string, as: 'bytes'): Buffer;
function readText(dir: string, file: string, as?: 'bytes'): string | Buffer {
  const read = readHeld(dir, file);
  if ('refused' in read) throw new ClaimFormatError(file, read.refused.message);
  return as ? read.bytes : read.bytes.toString('utf8');
}

/**
 * The deepest a JSON file of a claim nests: report.json is the deepest a run writes (a rule, its
 * transcript, an exchange, its headers — under ten levels); a hundred leaves room for any future
 * field and stays far from what a recursive walk of the value can bear.
 */
const MAX_JSON_DEPTH = 100;

function parseJson(file: string, text: string): unknown {
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH))
    throw new ClaimFormatError(file, `nested deeper than ${MAX_JSON_DEPTH} levels, which no run writes`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ClaimFormatError(file, `not JSON (${(error as Error).message.slice(0, 200)})`);
  }
}

/** JSON validated by a schema; the first problem named by its path in the file. */
function readJson<S extends z.ZodType>(dir: string, file: string, schema: S): z.output<S> {
  const value = parseJson(file, readText(dir, file));
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
  let listing: ReturnType<typeof filesUnder>;
  try {
    listing = filesUnder(dir);
  } catch (error) {
    if (error instanceof TooManyEntriesError) throw new ClaimFormatError(dir, error.message);
    throw error;
  }
  const { files, odd } = listing;
  const all = new Set(files);
  const found: string[] = [];
  // A file no run writes is said and never read: it is not part of what the claim states.
  for (const file of files) if (!claimHolds(file)) found.push(`files: ${file} is not a file a run writes into a claim`);
  const present = new Set(files.filter((f) => f !== SUMS_FILE && claimHolds(f)));
  for (const [file, digest] of sums) {
    if (!claimHolds(file)) {
      if (!all.has(file)) found.push(`files: ${SUMS_FILE} lists ${file}, which is not a file of a claim`);
      continue;
    }
    if (!present.has(file)) {
      if (!odd.includes(file)) found.push(`digests: ${file} is listed in ${SUMS_FILE} but missing`);
      continue;
    }
    if (sha256(readText(dir, file, 'bytes')) !== digest)
      found.push(`digests: ${file} does not match its SHA-256 in ${SUMS_FILE}`);
  }
  for (const file of present) if (!sums.has(file)) found.push(`digests: ${file} is not listed in ${SUMS_FILE}`);
  for (const file of odd) {
    if (!claimHolds(file)) found.push(`files: ${file} is not a file a run writes into a claim`);
    // A claim's own name taken by a link, a FIFO or a device: not a claim that can be read (said precisely, never opened for reading).
    else readText(dir, file, 'bytes');
  }
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
  const copy = readHeld(dir, CLAIM_FILES.spec);
  if ('refused' in copy)
    found.push(
      copy.refused.because === 'missing'
        ? `spec: ${CLAIM_FILES.spec} is missing from the claim`
        : `spec: ${CLAIM_FILES.spec} cannot be read: ${copy.refused.message}`,
    );
  else if (sha256(copy.bytes) !== statement.spec.sha256)
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
  const config = parseJson(CLAIM_FILES.config, readText(dir, CLAIM_FILES.config)) as Record<string, unknown> | null;
  if (statement.declared.source !== 'configuration') return [];
  const given = fixtureKeys(config?.fixtures as Record<string, unknown> | undefined);
  return isDeepStrictEqual(given, statement.declared.fixtures)
    ? []
    : [
        `config: statement.json declares the fixtures ${JSON.stringify(statement.declared.fixtures)}, ${statement.files.config} gives ${JSON.stringify(given)}`,
      ];
}

/** The most disagreements printed one by one: a crafted claim can have thousands, a reader needs the first. */
export const MAX_SHOWN_DISAGREEMENTS = 200;

/** The disagreements as printed: the first MAX_SHOWN_DISAGREEMENTS, then how many more there are. */
export const shownDisagreements = (all: readonly string[]): string[] =>
  all.length > MAX_SHOWN_DISAGREEMENTS
    ? [...all.slice(0, MAX_SHOWN_DISAGREEMENTS), `…and ${all.length - MAX_SHOWN_DISAGREEMENTS} more disagreements`]
    : [...all];

export interface Verification {
  disagreements: string[];
  statement: Statement;
}

/**
 * `catalogue`: the rules of this suite (suites/), handed in by the command so this module stays
 * free of the rules' code; without it the claim is not held against a catalogue.
 */
export function verifyClaim(dir: string, catalogue?: readonly Rule[]): Verification {
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
  const har = readText(dir, CLAIM_FILES.har);
  if (jsonDepthExceeds(har, MAX_JSON_DEPTH))
    throw new ClaimFormatError(CLAIM_FILES.har, `nested deeper than ${MAX_JSON_DEPTH} levels, which no run writes`);
  try {
    traffic = readTraffic(har);
  } catch (error) {
    if (error instanceof HarError) throw new ClaimFormatError(CLAIM_FILES.har, error.message);
    throw error;
  }
  const listings = observedPagination(traffic);
  const badge = readHeld(dir, CLAIM_FILES.badge);
  const badgeAgrees =
    'bytes' in badge && badge.bytes.toString('utf8') === badgeSvg(statement.verdict, statement.counts.MUST);
  const suite = checkSuite(statement.suite);
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
    suite,
    // Another suite's catalogue is not this one's: its rules are not held against ours.
    catalogue && !suite.length ? checkCatalogue(report, catalogue) : [],
    checkHosts(report.target, traffic),
    checkKeptTranscripts(report),
    checkTranscripts(report, traffic),
    rejudge(report, traffic, statement.verdict),
  ].flat();
  return { disagreements, statement };
}
