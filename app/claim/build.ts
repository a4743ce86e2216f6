/**
 * Writes a claim directory from a finished run: its reports, its HAR, the configuration without
 * secrets, the spec text it judged against, statement.json, badge.svg and SHA256SUMS over all of
 * it. The directory is made fresh (an existing non-empty one is refused, so no stale file joins the
 * sums) and every file is created new (`wx`), never written through a link left at its name.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Report } from '../../core/report/schema.js';
import { badgeSvg } from './badge.js';
import { MAX_CLAIM_FILE_BYTES, filesUnder, SUMS_FILE, sumsOf } from './digests.js';
import { CLAIM_FILES, type Statement, buildStatement } from './statement.js';
import { sha256, shippedSpec, suiteIdentity } from './suite.js';
import { observedPagination, readTraffic } from './traffic.js';
import { HarError } from '../traffic/har-read.js';

/** A claim cannot be made from what was given: said as a usage error by the command. */
export class ClaimInputError extends Error {}

export interface ClaimInput {
  /** The run's report directory (report.json and the other formats). */
  reportDir: string;
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
    if (statSync(file).size > MAX_CLAIM_FILE_BYTES)
      throw new ClaimInputError(
        `the HAR ${file} is larger than a claim's file is read at (${MAX_CLAIM_FILE_BYTES / 1024 / 1024} MiB).`,
      );
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof ClaimInputError) throw error;
    throw new ClaimInputError(
      `cannot read the HAR ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
    );
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

/** Writes the claim; returns the statement written. */
export function writeClaim(input: ClaimInput): Statement {
  const { out, report, redact } = input;
  const traffic = trafficOf(input.harFile);
  freshDir(out);
  // The reports, as the run wrote them (already redacted); the HAR goes to its own place if it sat among them.
  const har = resolve(input.harFile);
  for (const file of filesUnder(input.reportDir).files) {
    if (resolve(input.reportDir, file) === har) continue;
    const to = join(out, CLAIM_FILES.reports, file);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(join(input.reportDir, file), to);
  }
  write(join(out, CLAIM_FILES.har), traffic.text);
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
  return statement;
}
