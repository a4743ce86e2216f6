/**
 * Writes a claim directory from a finished run: its reports, its HAR, the configuration without
 * secrets, the spec text it judged against, statement.json, badge.svg and SHA256SUMS over all of
 * it. The directory is made fresh (an existing non-empty one is refused, so no stale file joins the
 * sums) and every file is created new (`wx`), never written through a link left at its name.
 *
 * The report directory is often a place the user also keeps other things (`--report-dir .` in a
 * project holding its config, a `.env`, a client key): the claim takes from it only the report
 * files a run writes, by their names, and only this run's — never a walk of the directory — and
 * every one of them passes the redactor again on its way in.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { FileRefusedError, readBounded } from '../../core/files/read-bounded.js';
import type { Report } from '../../core/report/schema.js';
import { REPORT_FILES } from '../../reports/index.js';
import { badgeSvg } from './badge.js';
import { MAX_CLAIM_FILE_BYTES, SUMS_FILE, sumsOf } from './digests.js';
import { CLAIM_FILES, type Statement, buildStatement } from './statement.js';
import { sha256, shippedSpec, suiteIdentity } from './suite.js';
import { observedPagination, readTraffic } from './traffic.js';
import { HarError } from '../traffic/har-read.js';

/** A claim cannot be made from what was given: said as a usage error by the command. */
export class ClaimInputError extends Error {}

export interface ClaimInput {
  /** The run's report directory (report.json and the other formats). */
  reportDir: string;
  /**
   * The report files the run wrote (names in the report directory), when the run itself makes the
   * claim; otherwise every report file name is looked for and taken when it is this run's.
   */
  written?: readonly string[];
  report: Report;
  /** The run's HAR file. */
  harFile: string;
  /** The configuration without secrets, when known. */
  config?: { config: Record<string, unknown>; removed: string[]; file?: string };
  declared: Statement['declared'];
  out: string;
  /** The last pass over every text the claim writes of its own (the run's redactor, or one of the known secrets). */
  redact: (text: string) => string;
}

const write = (file: string, text: string | Buffer) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text, { flag: 'wx' });
};

/** The HAR's text and its traffic, or why it cannot be the run's HAR. */
function trafficOf(file: string): { text: string } & ReturnType<typeof readTraffic> {
  let text: string;
  try {
    // The user names the HAR: a link to it is theirs to make.
    text = readBounded(file, { maxBytes: MAX_CLAIM_FILE_BYTES, followLinks: true }).toString('utf8');
  } catch (error) {
    if (error instanceof FileRefusedError) throw new ClaimInputError(`cannot take the HAR ${file}: ${error.message}.`);
    throw error;
  }
  try {
    return { text, ...readTraffic(text) };
  } catch (error) {
    if (error instanceof HarError) throw new ClaimInputError(`the HAR ${file} cannot be read: ${error.message}`);
    throw error;
  }
}

/** Creates `out` or takes it when empty. */
function freshDir(out: string): void {
  if (existsSync(out)) {
    let entries: string[];
    try {
      entries = readdirSync(out);
    } catch {
      throw new ClaimInputError(`--out ${out} exists and is not a directory.`);
    }
    if (entries.length)
      throw new ClaimInputError(`--out ${out} is not empty: a claim is written to a new or empty directory.`);
  }
  mkdirSync(out, { recursive: true });
}

/** A report file of the directory not taken into the claim, and why. */
export interface LeftOut {
  file: string;
  why: string;
}

/**
 * The run's report files, by name, with their text: those it says it wrote, or those of the
 * directory that name its run id (every format does; a file left by an earlier run does not).
 * A link, a FIFO or anything but a regular file at a report's name is left out, never followed.
 */
export function runReports(
  dir: string,
  report: Report,
  written?: readonly string[],
): { taken: { file: string; text: string }[]; leftOut: LeftOut[] } {
  const taken: { file: string; text: string }[] = [];
  const leftOut: LeftOut[] = [];
  for (const file of Object.values(REPORT_FILES)) {
    if (written && !written.includes(file)) continue;
    let text: string;
    try {
      text = readBounded(join(dir, file), { maxBytes: MAX_CLAIM_FILE_BYTES }).toString('utf8');
    } catch (error) {
      if (!(error instanceof FileRefusedError)) throw error;
      if (error.because !== 'missing') leftOut.push({ file, why: error.message });
      continue;
    }
    if (!written && !text.includes(report.run.id))
      leftOut.push({ file, why: `it does not name this run (${report.run.id}): another run wrote it` });
    else taken.push({ file, text });
  }
  return { taken, leftOut };
}

/** Writes the claim; returns the statement written and the report files of the directory left out. */
export function writeClaim(input: ClaimInput): { statement: Statement; leftOut: LeftOut[] } {
  const { out, report, redact } = input;
  const traffic = trafficOf(input.harFile);
  const reports = runReports(input.reportDir, report, input.written);
  freshDir(out);
  // Already redacted by the run; redacted again since the directory's files are the run's only by their names.
  for (const { file, text } of reports.taken) write(join(out, CLAIM_FILES.reports, file), redact(text));
  write(join(out, CLAIM_FILES.har), redact(traffic.text));
  const spec = shippedSpec();
  write(join(out, CLAIM_FILES.spec), spec);
  if (input.config) write(join(out, CLAIM_FILES.config), redact(`${JSON.stringify(input.config.config, null, 2)}\n`));
  const statement = buildStatement(report, {
    suite: suiteIdentity(),
    specSha256: sha256(spec),
    declared: input.declared,
    listings: observedPagination(traffic),
    hasConfig: !!input.config,
    configNote: input.config
      ? `${input.config.file ? `${relative(process.cwd(), input.config.file) || input.config.file}, ` : ''}as the run read it (defaults filled in, \${VAR} replaced)${input.config.removed.length ? `; secrets removed: ${input.config.removed.join(', ')}` : ''}`
      : 'the run used no configuration file, or none was given to the claim',
  });
  write(join(out, CLAIM_FILES.statement), redact(`${JSON.stringify(statement, null, 2)}\n`));
  write(join(out, CLAIM_FILES.badge), badgeSvg(statement.verdict, statement.counts.MUST));
  write(join(out, SUMS_FILE), sumsOf(out));
  return { statement, leftOut: reports.leftOut };
}
