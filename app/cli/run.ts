/** The main job: `conformance [run] [--base-url URL] [options]`. */
import type { Command } from './usage.js';
import { EXIT, UsageError, parseCommandLine } from './usage.js';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DEFAULT_CONFIG_FILES } from '../../core/config/default-files.js';
import { manyCases } from '../../core/engine/options.js';

export const RUN_HELP = `Usage: conformance [run] [options]

Checks an implementation of the data-import interface rule by rule and writes a conformance
report. With no base URL (no --base-url, no base_url in the config, no CONFORMANCE_BASE_URL) it
starts the embedded reference server and runs every rule against it.

Target and configuration:
  --base-url URL            the implementation under test
  --config FILE             configuration file (default: ./conformance.config.yaml when present)
  --token TOKEN             the access token (§5.2); overrides CONFORMANCE_TOKEN and auth.token.
                            Prefer the variable: a flag is visible to other users in the process list.
                            With an API key instead (CONFORMANCE_API_KEY, auth.api_key), a token the
                            target refuses mid-run is renewed as often as the run needs (§5: lifetime
                            not shown), until two new ones in a row are refused before either
                            was accepted
  --header 'Name: value'    an extra header on every request, e.g. a gateway key (repeatable;
                            config: headers). Values are redacted from output and reports. Prefer
                            CONFORMANCE_HEADERS (one 'Name: value' per line) for a secret: a flag is
                            visible in the process list. A malformed value is never printed
  --ca-cert FILE            trust this PEM certificate authority too (a staging CA; config: tls.ca_cert).
                            It, --client-cert and --client-key are read only from regular files of
                            at most 1 MiB (a FIFO, a device or a larger file is refused, exit 2)
  --insecure                accept any server certificate (config: tls.insecure); never for production
  --client-cert FILE        a client certificate (PEM) for a server behind mutual TLS, with
  --client-key FILE         its private key (PEM) (config: tls.client_cert, tls.client_key)
  --client-key-passphrase-env NAME
                            the environment variable holding the key's passphrase, if it is
                            encrypted (config: tls.client_key_passphrase_env); never the passphrase
                            Environment: CONFORMANCE_BASE_URL, CONFORMANCE_TOKEN, CONFORMANCE_API_KEY,
                            CONFORMANCE_HEADERS (extra headers, one 'Name: value' per line; a
                            --header of the same name replaces one);
                            HTTPS_PROXY, HTTP_PROXY and NO_PROXY route requests through a proxy.
                            Precedence: flags > environment > config file > defaults.

Choosing rules (see "conformance list"):
  --rule ID|GLOB            run these rules (repeatable), e.g. --rule 'notes.*'
  --section S               rules of a spec section and its subsections (repeatable), e.g. --section 4.2
  --level MUST|SHOULD|INFO  rules of a level (repeatable)
  --tag TAG                 rules with a tag (repeatable)
  --shard I/N               the I-th of N deterministic shares, for parallel CI jobs

Running:
  --seed N                  seed of the generated data; a run is reproducible from it
  --path P                  replay one property case (with --seed), as printed with a counterexample
  --num-runs N              cases per property rule (default 25; nightly: 1000)
  --concurrency N|auto      rules run at the same time (default auto: 8, and up to 32 while the
                            target answers slowly, so about as many requests per second as 8 rules
                            send to a target answering in 25 ms; back to 8 once it answers a 429
                            the run must wait out, or a 503). A number fixes it
  --timeout MS              per-request timeout (default 10000)
  --rate-limit RPS          at most this many requests per second to the target. A 429 on any
                            endpoint is waited out as its Retry-After asks (else a backoff) and
                            the request sent again; with fixtures.concurrency_limit set, the run
                            never has more process calls in flight than that limit
  --retries N               what got no answer (a reset, a timeout, a gateway's 502-504) is tried
                            again up to N times (default 1, 0 turns it off), the smallest piece that
                            can be: one probe of the 401, bad-input and field-type rules, one
                            generated case (fresh accounts), else the whole rule (fresh identifiers).
                            A rule that passes only so is reported as flaky; a fail is never retried
  --max-time S              overall deadline in seconds (run.max_time_s): rules not finished by
                            then are reported as not judged (error); the reports are still written.
                            SIGINT or SIGTERM ends the run the same way, reported as Interrupted
                            (exit 130); a second signal exits at once
  --id-prefix P             prefix of every identifier the run creates (default cf)
  --bail                    stop after the first MUST failure
  --strict                  SHOULD failures fail the run too
  --allow-skip PATTERN      accept that rules are not judged (skipped) (repeatable; config:
                            run.allow_skip). PATTERN is a rule id or glob ('notes.*'), a
                            configuration key (every rule that asks for it, or a key inside it), or
                            an endpoint's operation id (every rule that judges it), e.g.
                            --allow-skip fixtures.payment_instruction for a mock without payment
                            instructions. A PATTERN that names nothing is a warning
  --partial                 accept a partial implementation (config: run.partial): an endpoint that
                            answers 501, 405 (or 404 where the spec documents none) is not
                            implemented, and the rules needing it are not judged (skipped);
                            --partial accepts those skips, so the run can be conformant for what
                            is implemented

Reports:
  --report-dir DIR          where report files go (default conformance-report)
  --reporter FMT            console, json, junit, html, markdown, ctrf, sarif (repeatable; default
                            all but sarif). sarif writes report.sarif (SARIF 2.1.0) for code
                            scanning: one result per rule failed or not judged, at the lines of
                            the spec section it cites (spec/data-import-interface.md in the package)
  --expected-failures FILE  baseline of known failures; only new failures fail the run (config:
                            run.expected_failures). An entry (rule, comment, optional reason,
                            matched against what the rule expected, e.g. "expected 201") may carry
                            until: YYYY-MM-DD: after that day (UTC) it excuses nothing and the
                            failure counts as new. Entries whose rule passes now are listed. At
                            most 1 MiB and 10000 entries, a regular file
  --strict-baseline         entries whose rule passes now fail the run (exit 1), so the baseline
                            shrinks as failures are fixed (config: run.strict_baseline)
  --full-transcripts        keep every exchange in full (default: failing rules keep their last
                            exchanges with bodies cut at 2 KB; passing rules one line each)
  --verbose                 print every rule as it finishes, and each failure in full (reason, replay
                            command, the failing exchange as curl) instead of one line per failure
  --har FILE                also write every exchange of the run as HAR 1.2 (report.har), the
                            token request of an API-key run included, redacted like the reports,
                            written as exchanges complete and a valid HAR after each (also when the
                            run fails, --max-time or a signal cuts it); a symlink at FILE is
                            replaced, never written through; opens in browser devtools and API clients;
                            each entry names the rule that sent it (_conformance.rule) and what it
                            breaks on purpose (_conformance.deliberate), for check-traffic
  --claim DIR               also make a conformance claim of the run in DIR (a new or empty
                            directory): statement, reports, HAR, configuration without secrets,
                            SHA256SUMS and badge, as "conformance claim" makes it (see its --help);
                            the HAR goes to a temporary file when --har is not given, and report.json
                            is written whatever --reporter says. An aborted or interrupted run makes
                            none; a claim that does not verify is said, and exits 1 if the run passed
  --rerun-failed REPORT     run again only the rules REPORT (an earlier report.json) left failing or
                            not judged, with its seed (unless --seed), against the target REPORT
                            recorded (its base URL when none is given); prints FIXED / STILL FAILING /
                            STILL NOT JUDGED per rule, then the reports. Another target (base URL,
                            auth mode, or the digest of fixtures, payloads, account and auth
                            settings), or a REPORT that recorded none, is refused (exit 2).
                            Rule ids REPORT names that no rule has now are listed, not run
  --rerun-target-changed    with --rerun-failed: judge those rules against the target given now on
                            purpose; each reads PASSES HERE / FAILS HERE, never FIXED

Every report carries the run's status and field coverage: per endpoint, the documented statuses
observed and never observed, undocumented statuses, and the documented request fields sent.

Payload templates: when your implementation refuses the suite's payloads (required fields and
allowed values are "not shown" in the spec), give one it accepts per request kind under payloads:
in the config (account, business, notes, transactions, …); the run says which key to set.

Exit codes: 0 conformant: every selected MUST rule judged, none failed;
1 a MUST rule failed or could not be judged (with --strict, SHOULD too), or with
  --strict-baseline baseline entries pass now;
2 usage or configuration error; 3 target unreachable or authentication failed before any rule ran;
4 incomplete: no MUST rule failed, but MUST rules were not judged (skipped) for missing configuration (the run names
  the keys; --allow-skip accepts skips deliberately), or endpoints were not implemented (one cause
  each; --partial accepts them);
130 interrupted by SIGINT or SIGTERM: rules not finished are not judged, the reports say so.`;

export const runOptions = {
  'base-url': { type: 'string' },
  config: { type: 'string' },
  rule: { type: 'string', multiple: true },
  section: { type: 'string', multiple: true },
  level: { type: 'string', multiple: true },
  tag: { type: 'string', multiple: true },
  shard: { type: 'string' },
  bail: { type: 'boolean' },
  seed: { type: 'string' },
  path: { type: 'string' },
  'num-runs': { type: 'string' },
  concurrency: { type: 'string' },
  timeout: { type: 'string' },
  'rate-limit': { type: 'string' },
  retries: { type: 'string' },
  'max-time': { type: 'string' },
  'id-prefix': { type: 'string' },
  strict: { type: 'boolean' },
  'report-dir': { type: 'string' },
  reporter: { type: 'string', multiple: true },
  'expected-failures': { type: 'string' },
  'strict-baseline': { type: 'boolean' },
  'allow-skip': { type: 'string', multiple: true },
  partial: { type: 'boolean' },
  'full-transcripts': { type: 'boolean' },
  verbose: { type: 'boolean' },
  token: { type: 'string' },
  header: { type: 'string', multiple: true },
  'ca-cert': { type: 'string' },
  insecure: { type: 'boolean' },
  'client-cert': { type: 'string' },
  'client-key': { type: 'string' },
  'client-key-passphrase-env': { type: 'string' },
  har: { type: 'string' },
  claim: { type: 'string' },
  'rerun-failed': { type: 'string' },
  'rerun-target-changed': { type: 'boolean' },
} as const;

/** Loopback hosts: a token sent there in clear never leaves the machine. */
const isLoopback = (hostname: string) =>
  hostname === 'localhost' ||
  hostname.endsWith('.localhost') ||
  hostname === '[::1]' ||
  /^127\.\d+\.\d+\.\d+$/.test(hostname);

/**
 * Whether the run would send credentials in clear over the network: a plain http:// base URL whose
 * host is not this machine, with a token, an API key, an extra header or URL credentials.
 */
export function sendsCredentialsInClear(
  baseUrl: string | undefined,
  options: { auth?: { token?: string; apiKey?: string }; transport?: { headers?: Record<string, string> } },
): string | undefined {
  if (!baseUrl) return undefined;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || isLoopback(url.hostname.toLowerCase())) return undefined;
  const credentials =
    !!options.auth?.token ||
    !!options.auth?.apiKey ||
    Object.keys(options.transport?.headers ?? {}).length > 0 ||
    url.username !== '' ||
    url.password !== '';
  return credentials ? url.host : undefined;
}

/** Quotes an argument for a POSIX shell when it needs it. */
const shellQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * Whether the run will surely aim at the embedded server: no base URL anywhere it may come from (a
 * flag, the variable, the configuration file, a report re-run), and not a run of many cases (that
 * one keeps the server on the runner's thread: app/embedded.ts). Then the server's thread starts
 * before the suites load (prestartEmbeddedTarget). A configuration file is read for its base_url
 * (resolveRun reads it again, and says what is wrong with one that does not load); where unsure,
 * the server starts as before.
 */
export async function aimsAtEmbedded(
  values: Record<string, unknown>,
  cwd = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  const numRuns = values['num-runs'] === undefined ? undefined : Number(values['num-runs']);
  if (
    values['base-url'] !== undefined ||
    env.CONFORMANCE_BASE_URL ||
    values['rerun-failed'] !== undefined ||
    manyCases(numRuns)
  )
    return false;
  const explicit = typeof values.config === 'string' ? values.config : undefined;
  if (explicit === undefined && !DEFAULT_CONFIG_FILES.some((name) => existsSync(join(cwd, name)))) return true;
  try {
    const { loadConfig } = await import('../../core/config/load.js');
    const { config } = loadConfig(cwd, explicit, env);
    // The file's number of cases counts where the command line gave none.
    return config.base_url === undefined && !manyCases(numRuns ?? config.run?.num_runs);
  } catch {
    return false;
  }
}

async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, runOptions, 'run');
  // Not awaited: the thread loads while this one does; the run takes it (or its failure) later.
  if (await aimsAtEmbedded(values)) void (await import('../embedded.js')).prestartEmbeddedTarget();
  const [
    { resolveRun },
    { ConfigError },
    { loadBaseline },
    { runConformance, UnreachableError, manyCases },
    { AuthError },
    { ConsoleReporter },
    { writeReports },
    { Redactor },
    { terminalSafe },
  ] = await Promise.all([
    import('../resolve.js'),
    import('../../core/config/errors.js'),
    import('../../core/engine/baseline.js'),
    import('../conformance.js'),
    import('../../core/auth/token.js'),
    import('../../reports/console.js'),
    import('../../reports/index.js'),
    import('../../core/http/redact.js'),
    import('../../reports/terminal.js'),
  ]);

  const env = process.env;
  // The run's redactor, shared with the engine (which registers every secret with it, a token
  // obtained mid-run too): the last pass over every line printed and every report file written.
  const redactor = new Redactor();
  const warn = (text: string) => process.stderr.write(`${terminalSafe(redactor.text(text))}\n`);
  let claimTemporary: string | undefined;
  try {
    const resolved = resolveRun(values, process.cwd(), env);
    (await import('./memory.js')).boundRunMemory(
      (await import('../../core/http/large-bodies.js')).onLargeBody,
      manyCases(resolved.options.numRuns),
    );
    // A re-run judges the target its report recorded: aimed at it before anything is sent.
    const rerun = values['rerun-failed'] !== undefined ? await rerunOf(values, resolved.options) : undefined;
    if (values['rerun-target-changed'] && !rerun)
      throw new UsageError('--rerun-target-changed goes with --rerun-failed REPORT.', 'run');
    const aimed = rerun
      ? (await import('./rerun.js')).aimRerun(rerun, resolved.options, !!values['rerun-target-changed'])
      : undefined;
    if (aimed?.adopted) resolved.options.baseUrl = aimed.adopted;
    // Judging another target on purpose is worth a warning; taking the report's own is just said.
    if (aimed?.note) (rerun?.otherTarget ? warn : console.log)(`conformance: ${aimed.note}`);
    const { auth, transport } = resolved.options;
    for (const secret of [
      auth?.token,
      auth?.apiKey,
      ...Object.values(transport?.headers ?? {}),
      ...(await import('../../core/http/transport.js')).clientSecrets(transport),
    ])
      redactor.add(secret);
    const inClear = sendsCredentialsInClear(resolved.options.baseUrl, resolved.options);
    if (inClear)
      warn(
        `conformance: warning: the credentials go in clear (plain http://) to ${inClear}, which is not this machine; anyone on the way can read them. Use https:// for a target elsewhere.`,
      );
    // --claim: report.json and a HAR are what a claim is made of; the HAR goes to a temporary file when none was asked for.
    const claimTo = values.claim !== undefined ? await claimPrepared(values.claim, resolved.report) : undefined;
    claimTemporary = claimTo?.temporary;
    if (resolved.report.formats.some((f) => f !== 'console')) {
      (await import('../../core/report/dir.js')).checkReportDir(
        resolved.report.dir,
        values['report-dir'] !== undefined ? '--report-dir' : 'report.dir',
      );
    }
    for (const warning of resolved.warnings) console.error(`conformance: warning: ${warning}`);
    // Old rule ids (before one name per endpoint) still mean their rule: read as the new, said once.
    const known = new Set(
      (resolved.options.rules ?? (await import('../../suites/index.js')).allRules).map((r) => r.id),
    );
    const { withCurrentIds } = await import('../../core/engine/renamed.js');
    const current = (values: string[] | undefined, where: string) => {
      if (!values?.length) return values;
      const read = withCurrentIds(values, known, where);
      for (const note of read.notes) warn(`conformance: warning: ${note}`);
      return read.values;
    };
    if (resolved.options.selection?.rules)
      resolved.options.selection.rules = current(resolved.options.selection.rules, '--rule');
    if (resolved.options.allowSkip?.length)
      resolved.options.allowSkip = current(resolved.options.allowSkip, '--allow-skip / run.allow_skip');
    // A pattern that names nothing accepts nothing: most likely a typo, said before the run.
    if (resolved.options.allowSkip?.length) {
      const [{ unmatchedPatterns }, { allRules }] = await Promise.all([
        import('../../core/report/accept.js'),
        import('../../suites/index.js'),
      ]);
      const ids = (resolved.options.rules ?? allRules).map((r) => r.id);
      for (const pattern of unmatchedPatterns(resolved.options.allowSkip, ids))
        warn(
          `conformance: warning: --allow-skip / run.allow_skip '${pattern}' names no rule, configuration key (fixtures.*, payloads.*) or endpoint (operation id): it accepts nothing; see conformance list.`,
        );
    }
    if (resolved.options.transport?.insecure)
      warn("conformance: --insecure: the target's TLS certificate is not checked; never use this against production.");
    const baseline = resolved.expectedFailures
      ? loadBaseline(resolved.expectedFailures, { strict: resolved.strictBaseline })
      : undefined;
    if (baseline) {
      const rules = current(
        baseline.entries.map((e) => e.rule),
        resolved.expectedFailures!,
      )!;
      baseline.entries = baseline.entries.map((e, i) => ({ ...e, rule: rules[i] }));
    }
    const consoleOut = resolved.report.formats.includes('console')
      ? new ConsoleReporter({ verbose: values.verbose, redact: (text) => redactor.text(text) })
      : undefined;
    const replayCommand = (ruleId: string, seed: number, counterexample?: { path: string }) =>
      [
        'npx conformance',
        ...((values['base-url'] ?? aimed?.adopted)
          ? ['--base-url', shellQuote((values['base-url'] ?? aimed?.adopted)!)]
          : []),
        ...(resolved.configFile ? ['--config', shellQuote(values.config ?? 'conformance.config.yaml')] : []),
        '--rule',
        shellQuote(ruleId),
        '--seed',
        String(seed),
        ...(counterexample ? ['--path', counterexample.path] : []),
        ...(values['num-runs'] ? ['--num-runs', values['num-runs']] : []),
      ].join(' ');

    if (rerun && !rerun.rules.length) {
      if (rerun.unknown.length) {
        for (const line of (await import('./rerun.js')).unknownLines(rerun)) warn(line);
        throw new UsageError(
          `--rerun-failed: no rule ${rerun.file} left failing or not judged exists now (renamed or removed); run the suite in full instead.`,
          'run',
        );
      }
      console.log(`Nothing to re-run: every rule in ${rerun.file} passed or its skip was accepted.`);
      return EXIT.OK;
    }
    // --har: every exchange as it completes, redacted like the reports; the file is closed (valid
    // HAR) however the run ends.
    let har: import('../traffic/har.js').HarWriter | undefined;
    if (resolved.report.har) {
      const { HarWriter } = await import('../traffic/har.js');
      try {
        har = new HarWriter(resolved.report.har, (text) => redactor.text(text));
      } catch (error) {
        throw new UsageError(
          `${values.har !== undefined ? '--har' : 'report.har'}: cannot write ${resolved.report.har} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
          'run',
        );
      }
    }
    // SIGINT / SIGTERM: the first ends the run, reported as interrupted; the second exits at once.
    const interruption = (await import('./interrupt.js')).onInterrupt(warn, () => har?.close());
    try {
      let report: Awaited<ReturnType<typeof runConformance>>;
      try {
        report = await runConformance({
          ...resolved.options,
          ...(rerun
            ? {
                seed: values.seed !== undefined ? resolved.options.seed : rerun.seed,
                selection: { rules: rerun.rules.map((r) => r.id) },
              }
            : {}),
          baseline,
          replayCommand,
          interrupt: interruption.signal,
          onEvent: consoleOut?.onEvent,
          redactor,
          ...(har
            ? {
                onExchange: (exchange, startedAt, origin, sentBy) =>
                  har.add({ ...exchange, startedAt, ...(sentBy ? { sentBy } : {}) }, origin),
              }
            : {}),
        });
      } finally {
        const failure = har?.close();
        if (failure)
          warn(`conformance: --har: ${har?.file} stopped recording after ${har?.entries} exchanges: ${failure}`);
        else if (har) console.log(`HAR: ${har.file} (${har.entries} exchanges)`);
      }
      if (rerun) for (const line of (await import('./rerun.js')).rerunLines(rerun, report)) console.log(line);
      const written = await writeReports(report, resolved.report.dir, resolved.report.formats, env, (text) =>
        redactor.text(text),
      );
      consoleOut?.summary(report, written);
      const code = report.summary.exit_code;
      const files = written.flatMap((w) => (w.file ? [basename(w.file)] : []));
      return claimTo ? await claimOfRun(claimTo, report, files, resolved, redactor, warn, code) : code;
    } finally {
      interruption.dispose();
    }
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message, 'run');
    if (error instanceof UnreachableError || error instanceof AuthError) {
      warn(`conformance: ${error.message}`);
      warn(
        'No rule ran. Check the base URL and the credentials (auth.token / auth.api_key, CONFORMANCE_TOKEN / CONFORMANCE_API_KEY).',
      );
      // Every report format still says so, for CI jobs that collect them.
      const report = (error as { report?: Parameters<typeof writeReports>[0] }).report;
      if (report) {
        const resolved = resolveRun(values, process.cwd(), env);
        const written = await writeReports(
          report,
          resolved.report.dir,
          resolved.report.formats.filter((f) => f !== 'console'),
          env,
          (text) => redactor.text(text),
        );
        if (written.length) warn(`Reports: ${written.map((w) => w.file).join(', ')}`);
        for (const w of written) if (w.warning) warn(`Warning: ${w.warning}`);
      }
      return EXIT.UNREACHABLE;
    }
    throw error;
  } finally {
    // A run that ended before its claim was made (unreachable, refused token, a usage error) leaves no HAR behind.
    if (claimTemporary) (await import('node:fs')).rmSync(claimTemporary, { recursive: true, force: true });
  }
}

/** Where --claim writes, checked before the run; the HAR it records when the run was not asked for one. */
async function claimPrepared(out: string, report: { formats: string[]; har?: string }) {
  const { existsSync, mkdtempSync, readdirSync, statSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  if (existsSync(out) && (!statSync(out).isDirectory() || readdirSync(out).length > 0))
    throw new UsageError(`--claim ${out}: a claim is written to a new or empty directory.`, 'run');
  if (!report.formats.includes('json')) report.formats.push('json');
  if (report.har !== undefined) return { out };
  const temporary = mkdtempSync(join(tmpdir(), 'conformance-claim-'));
  report.har = join(temporary, 'run.har');
  return { out, temporary };
}

/** The claim of a finished run (--claim): made, checked and said; the run's exit code, or why the claim changes it. */
async function claimOfRun(
  claim: { out: string; temporary?: string },
  report: import('../../core/report/schema.js').Report,
  written: readonly string[],
  resolved: { configFile?: string; report: { dir: string; har?: string } },
  redactor: import('../../core/http/redact.js').Redactor,
  warn: (text: string) => void,
  code: number,
): Promise<number> {
  const [{ makeClaim, reportClaim }, { noClaimReason }, { rmSync }] = await Promise.all([
    import('./claim.js'),
    import('../claim/verdict.js'),
    import('node:fs'),
  ]);
  try {
    const refused = noClaimReason(report);
    if (refused) {
      warn(`conformance: --claim: no claim made: ${refused}.`);
      return code;
    }
    const outcome = await makeClaim({
      reportDir: resolved.report.dir,
      written,
      report,
      harFile: resolved.report.har!,
      out: claim.out,
      ...(resolved.configFile ? { configFile: resolved.configFile } : {}),
      trusted: true,
      cwd: process.cwd(),
      env: process.env,
      redactor,
      command: 'run',
    });
    const claimed = await reportClaim(claim.out, outcome, console.log, warn);
    return claimed !== EXIT.OK && code === EXIT.OK ? claimed : code;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    warn(`conformance: --claim: no claim made: ${error.message}`);
    return code === EXIT.OK ? EXIT.USAGE : code;
  } finally {
    if (claim.temporary) rmSync(claim.temporary, { recursive: true, force: true });
  }
}

/** The earlier report --rerun-failed names, read against the rules there are now; usage errors for what cannot be combined. */
async function rerunOf(
  values: {
    'rerun-failed'?: string;
    rule?: string[];
    section?: string[];
    level?: string[];
    tag?: string[];
    shard?: string;
    path?: string;
  },
  options: { rules?: readonly { id: string }[] },
) {
  const mixed = (['rule', 'section', 'level', 'tag', 'shard', 'path'] as const).filter((f) => values[f] !== undefined);
  if (mixed.length)
    throw new UsageError(
      `--rerun-failed chooses the rules itself (those its report left failing or not judged); leave out ${mixed.map((f) => `--${f}`).join(', ')}.`,
      'run',
    );
  const [{ loadRerun }, { allRules }] = await Promise.all([import('./rerun.js'), import('../../suites/index.js')]);
  return loadRerun(values['rerun-failed']!, new Set((options.rules ?? allRules).map((r) => r.id)));
}

export const runCommand: Command = { help: RUN_HELP, run };
