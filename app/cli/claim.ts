/** `conformance claim`: a conformance claim a third party can check, made from a finished run. */
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Redactor } from '../../core/http/redact.js';
import type { Report } from '../../core/report/schema.js';
import { shown } from '../../reports/terminal.js';
import { jsonErrorShown, pathShown, readReportText } from './report-input.js';
import type { Command } from './usage.js';
import { EXIT, UsageError, parseCommandLine } from './usage.js';

export const CLAIM_HELP = `Usage: conformance claim --from REPORT_DIR --out DIR [--har FILE] [--config FILE]

Makes a conformance claim from a finished run: one directory a third party can check offline
with "conformance verify-claim DIR". It holds
  statement.json   the implementation statement: the target (as report.json has it; never a
                   secret), the suite's version and commit, the SHA-256 of the spec file judged
                   against, seed, num_runs, the selected rules, what the implementation declared
                   through the configuration (fixture keys, the §8 limit), what the run observed
                   (rate limiting, how the listings answered, each endpoint's status), accepted
                   skips with their reasons, each rule's verdict and the overall verdict
  reports/         the run's report files, by name (report.json, junit.xml, report.html,
                   summary.md, ctrf.json, report.sarif): only this run's, redacted again; nothing
                   else of the report directory is copied
  traffic.har      the run's HAR (redacted by the run)
  config.json      the configuration the run read, secrets removed (token, API key, header values)
  spec/            the spec text the suite judged against
  badge.svg        the verdict and MUST counts
  SHA256SUMS       the SHA-256 of every file (sha256sum -c SHA256SUMS checks them)

The overall verdict: conformant (every selected rule that counts was judged and none failed;
MUST skips accepted with --allow-skip are listed); conformant for what is implemented (the same,
with endpoints not implemented and accepted with --partial); incomplete (nothing that counts
failed, but rules were not judged: skipped and not accepted, or ended in error); not conformant
(a rule that counts failed — also one a --expected-failures baseline excused).

A claim is made from a run that finished: one aborted or interrupted makes none. It needs the
run's report.json (the json reporter) and its HAR (the run's --har; or make the claim with the
run itself: conformance --claim DIR). The claim is checked once written; a HAR of another run, or
reports edited since, show as disagreements (exit 1).

Options:
  --from DIR      the run's report directory (report.json)
  --out DIR       where to write the claim: a new or empty directory
  --har FILE      the run's HAR (default: the one .har file in --from, if there is one)
  --config FILE   the configuration the run used (default ./conformance.config.yaml when present);
                  one the run did not use (its configuration digest differs) is refused, or left
                  out when found by default

Exit codes: 0 claim written and consistent; 1 written, but it does not hold together (each
disagreement printed); 2 usage error (the file and the field named).`;

export const claimOptions = {
  from: { type: 'string' },
  out: { type: 'string' },
  har: { type: 'string' },
  config: { type: 'string' },
} as const;

/** What a claim is made from, however it was asked for (this command, or the run's --claim). */
export interface ClaimRequest {
  reportDir: string;
  /** The report files the run wrote (their names), when the run itself makes the claim. */
  written?: readonly string[];
  report: Report;
  harFile: string;
  out: string;
  /** The configuration file the run read (the run knows it; this command is told or finds it). */
  configFile?: string;
  /** The configuration was found by default, not named: one that does not match the run is left out. */
  configByDefault?: boolean;
  /** The run itself makes the claim: its configuration is the one it read, no digest needs comparing. */
  trusted?: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The run's redactor, or undefined to make one of the secrets the environment and configuration hold. */
  redactor?: Redactor;
  command: string;
}

/** Writes the claim and checks it; returns the statement and what disagrees. */
export async function makeClaim(request: ClaimRequest) {
  const [
    { ClaimInputError, writeClaim },
    { declaredBy, withoutSecrets },
    { verifyClaim },
    { noClaimReason },
    { loadConfig },
    { ConfigError },
    { Redactor },
  ] = await Promise.all([
    import('../claim/build.js'),
    import('../claim/config.js'),
    import('../claim/verify.js'),
    import('../claim/verdict.js'),
    import('../../core/config/load.js'),
    import('../../core/config/errors.js'),
    import('../../core/http/redact.js'),
  ]);
  const { report, command } = request;
  const refused = noClaimReason(report);
  if (refused) throw new UsageError(`no claim can be made from ${pathShown(request.reportDir)}: ${refused}.`, command);
  const inside = relative(resolve(request.reportDir), resolve(request.out));
  if (!inside.startsWith('..') && !inside.startsWith('/'))
    throw new UsageError('--out must not be inside the report directory (the claim is made from it).', command);
  let config: Awaited<ReturnType<typeof configOf>>;
  try {
    config = await configOf(request, loadConfig);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message, command);
    throw error;
  }
  const redactor = request.redactor ?? new Redactor();
  for (const secret of [request.env.CONFORMANCE_TOKEN, request.env.CONFORMANCE_API_KEY, ...config.secrets])
    redactor.add(secret);
  const embedded = report.target.embedded;
  const fixtures = embedded
    ? await (await import('../embedded.js')).embeddedFixtures()
    : (config.loaded?.fixtures as Record<string, unknown> | undefined);
  let leftOut: import('../claim/build.js').LeftOut[];
  try {
    ({ leftOut } = writeClaim({
      reportDir: request.reportDir,
      ...(request.written ? { written: request.written } : {}),
      report,
      harFile: request.harFile,
      ...(config.loaded ? { config: { ...withoutSecrets(config.loaded), file: config.file } } : {}),
      declared: declaredBy(embedded, fixtures, !!config.loaded),
      out: request.out,
      redact: (text) => redactor.text(text),
    }));
  } catch (error) {
    if (error instanceof ClaimInputError) throw new UsageError(error.message, command);
    const code = (error as NodeJS.ErrnoException).code;
    if (code) throw new UsageError(`cannot write the claim to ${pathShown(request.out)} (${shown(code)}).`, command);
    throw error;
  }
  const warnings = [
    ...config.warnings,
    ...leftOut.map(
      (l) => `${pathShown(join(request.reportDir, l.file))} is not in the claim: ${redactor.text(l.why)}.`,
    ),
  ];
  const { allRules } = await import('../../suites/index.js');
  return { ...verifyClaim(request.out, allRules), warnings };
}

/** The configuration the run read, when it can be known; a file that is not it is refused or left out. */
async function configOf(request: ClaimRequest, loadConfig: typeof import('../../core/config/load.js').loadConfig) {
  const warnings: string[] = [];
  const { file, config } = loadConfig(request.cwd, request.configFile, request.env);
  if (!file) return { warnings, secrets: [] as (string | undefined)[] };
  const secrets = [config.auth?.token, config.auth?.api_key, ...Object.values(config.headers ?? {})];
  const recorded = request.report.target.config_digest;
  if (recorded && !request.trusted) {
    const [{ resolveRun }, { targetConfigDigest }] = await Promise.all([
      import('../resolve.js'),
      import('../../core/config/digest.js'),
    ]);
    const { options } = resolveRun({ config: file }, request.cwd, request.env);
    const digest = targetConfigDigest(
      { ...options, headerNames: Object.keys(options.transport?.headers ?? {}) },
      request.report.target.embedded,
    );
    if (digest !== recorded) {
      const why = `${pathShown(file)} is not the configuration the run used (its digest is ${digest}, the run recorded ${shown(recorded, 80)})`;
      if (!request.configByDefault)
        throw new UsageError(
          `${why}; give the run's own with --config (a run's --header flags count too: such a run makes its claim itself, with --claim DIR).`,
          request.command,
        );
      warnings.push(`${why}: the claim is made without a configuration; give the run's with --config.`);
      return { warnings, secrets };
    }
  }
  return { file, loaded: config, warnings, secrets };
}

/** report.json of a report directory, checked against the report schema. */
export async function readReport(dir: string, command: string): Promise<Report> {
  const file = join(dir, 'report.json');
  const text = readReportText(file, command, 'the claim needs the run’s report.json (the json reporter): ');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${pathShown(file)} is not JSON: ${jsonErrorShown(error)}`, command);
  }
  const { ReportSchema } = await import('../../core/report/schema.js');
  const { dotPath } = await import('../../core/spec/paths.js');
  const parsed = ReportSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `${pathShown(file)} is not a report.json of this suite: ${shown(dotPath(issue.path, '(document)'), 200)}: ${shown(issue.message, 200)}`,
      command,
    );
  }
  return parsed.data;
}

/** The run's HAR: named, or the one .har file of the report directory. */
function harOf(named: string | undefined, dir: string): string {
  if (named !== undefined) return named;
  let hars: string[] = [];
  try {
    hars = readdirSync(dir).filter((f) => f.endsWith('.har'));
  } catch {
    // The report directory was read already: a failure here leaves no HAR to find.
  }
  if (hars.length === 1) return join(dir, hars[0]);
  throw new UsageError(
    hars.length
      ? `${pathShown(dir)} holds ${hars.length} .har files: name the run's with --har FILE.`
      : `the run recorded no HAR that the claim can find: give it with --har FILE, or run again with --har FILE (or --claim DIR, which records one).`,
    'claim',
  );
}

/** Prints the outcome of makeClaim; the exit code. */
export async function reportClaim(
  out: string,
  outcome: Awaited<ReturnType<typeof makeClaim>>,
  print: (line: string) => void,
  warn: (line: string) => void,
): Promise<number> {
  for (const warning of outcome.warnings) warn(`conformance: warning: ${warning}`);
  const { statement, disagreements } = outcome;
  if (disagreements.length) {
    warn(`conformance: the claim written to ${pathShown(out)} does not hold together:`);
    const { shownDisagreements } = await import('../claim/verify.js');
    for (const d of shownDisagreements(disagreements)) warn(`  ${d}`);
    return EXIT.MUST_FAILURES;
  }
  const must = statement.counts.MUST;
  const against = statement.target.embedded ? ' against the embedded reference server' : '';
  print(
    `Claim: ${pathShown(out)} — ${statement.verdict}${against} (MUST: ${must.pass} passed, ${must.fail} failed, ${must.skip + must.error} not judged); check it with: conformance verify-claim ${pathShown(out)}`,
  );
  return EXIT.OK;
}

async function claim(argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, claimOptions, 'claim');
  if (values.from === undefined)
    throw new UsageError('--from REPORT_DIR is required (the run’s report directory).', 'claim');
  if (values.out === undefined) throw new UsageError('--out DIR is required (where the claim is written).', 'claim');
  const { terminalSafe } = await import('../../reports/terminal.js');
  const report = await readReport(values.from, 'claim');
  const outcome = await makeClaim({
    reportDir: values.from,
    report,
    harFile: harOf(values.har, values.from),
    out: values.out,
    ...(values.config !== undefined ? { configFile: values.config } : { configByDefault: true }),
    cwd: process.cwd(),
    env: process.env,
    command: 'claim',
  });
  return reportClaim(
    values.out,
    outcome,
    (line) => console.log(terminalSafe(line)),
    (line) => console.error(terminalSafe(line)),
  );
}

export const claimCommand: Command = { help: CLAIM_HELP, run: claim };
