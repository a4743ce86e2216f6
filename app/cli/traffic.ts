/**
 * `conformance proxy` and `conformance check-traffic`: conformance of real traffic. Both judge
 * exchanges someone else made (a supplier's client, staging traffic) with the same checks
 * (app/traffic/checks.ts) and write the same reports as a run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { ReportFormat } from '../../core/config/schema.js';
import type { Report } from '../../core/report/schema.js';
import type { Command } from './usage.js';
import { UsageError, intFlag, parseCommandLine } from './usage.js';

const reportOptions = {
  'report-dir': { type: 'string' },
  reporter: { type: 'string', multiple: true },
} as const;

async function formatsOf(reporter: string[] | undefined, command: string): Promise<ReportFormat[]> {
  const { REPORT_FORMATS } = await import('../../core/config/schema.js');
  const formats = (reporter?.flatMap((r) => r.split(',')).map((r) => r.trim()) ?? [
    ...REPORT_FORMATS,
  ]) as ReportFormat[];
  for (const f of formats)
    if (!(REPORT_FORMATS as readonly string[]).includes(f))
      throw new UsageError(`--reporter must be one of ${REPORT_FORMATS.join(', ')}, got "${f}".`, command);
  return formats;
}

/** Writes the reports (the console summary included when asked) and returns the exit code. */
async function publish(report: Report, dir: string, formats: ReportFormat[]): Promise<number> {
  const [{ writeReports }, { ConsoleReporter }] = await Promise.all([
    import('../../reports/index.js'),
    import('../../reports/console.js'),
  ]);
  const written = await writeReports(report, dir, formats);
  if (formats.includes('console')) new ConsoleReporter().summary(report, written);
  return report.summary.exit_code;
}

const checkHelp = `Usage: conformance check-traffic FILE.har [options]

Judges recorded traffic (a HAR 1.2 file from browser devtools, mitmproxy, Charles,
"conformance proxy --har" or a run's "conformance --har") against the spec: each request as the
client's conformance (documented fields only, shapes and formats of §2 and §4, the §5
Authorization header), each response as the server's (documented status and body, §7.1 error
bodies), and the §3 state table and the §4.2 note dedup over the sequence, per account. Findings carry their level, spec section and the side
they are against (tag client or server). Every report has the traffic's status and field
coverage: per endpoint, documented statuses observed and never observed, undocumented statuses,
and the documented request fields sent. Exits 1 when a MUST check failed, else 0.

Options:
  --report-dir DIR   where to write the reports (default conformance-report)
  --reporter FMT     console, json, junit, html, markdown, ctrf (repeatable; default all)`;

async function checkTraffic(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, reportOptions, 'check-traffic', true);
  if (positionals.length !== 1) throw new UsageError('Name one HAR file to check.', 'check-traffic');
  const formats = await formatsOf(values.reporter, 'check-traffic');
  const [{ fromHar, HarError }, { TrafficJudge }, { trafficReport }, { Redactor }] = await Promise.all([
    import('../traffic/har.js'),
    import('../traffic/checks.js'),
    import('../traffic/report.js'),
    import('../../core/http/redact.js'),
  ]);
  let text: string;
  try {
    text = readFileSync(positionals[0], 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${positionals[0]}: ${(error as NodeJS.ErrnoException).code}`, 'check-traffic');
  }
  let parsed: ReturnType<typeof fromHar>;
  try {
    parsed = fromHar(text);
  } catch (error) {
    if (error instanceof HarError) throw new UsageError(`${positionals[0]}: ${error.message}`, 'check-traffic');
    throw error;
  }
  const judge = new TrafficJudge();
  // Tokens the file carries are secrets like a run's: they never reach a report.
  const redactor = new Redactor(
    parsed.exchanges.map((e) => e.request.headers.authorization?.replace(/^\S+\s+/, '')).filter(Boolean),
  );
  for (const exchange of parsed.exchanges) judge.observe(exchange);
  const times = parsed.exchanges.map((e) => e.startedAt?.getTime() ?? 0).filter((t) => t > 0);
  const report = trafficReport(
    judge,
    parsed.exchanges,
    {
      label: positionals[0],
      startedAt: new Date(times.length ? Math.min(...times) : Date.now()),
      finishedAt: new Date(times.length ? Math.max(...times) : Date.now()),
    },
    redactor,
  );
  return publish(report, values['report-dir'] ?? 'conformance-report', formats);
}

const proxyHelp = `Usage: conformance proxy --target URL [options]

A forwarding proxy that relays every exchange unchanged to the target and judges it as it passes,
with the checks of check-traffic. Point a migration client at it instead of the service:

  npx conformance proxy --target https://staging.example.com --port 8081 --har session.har
  SERVICE_URL=http://127.0.0.1:8081 ./migrate-accounts     # the supplier's own client

Findings print as they are made. The reports (and the HAR file) are written on exit (Ctrl-C,
SIGTERM) and on demand (kill -USR2 <pid>), with the session's status and field coverage; exits 1
when a MUST check failed, else 0. Tokens and API keys seen in the traffic are redacted in every
output.

Options:
  --target URL       the implementation to relay to (required)
  --port N           port to listen on (default: a free one, printed)
  --host H           address to listen on (default 127.0.0.1)
  --har FILE         also write every exchange as HAR 1.2 (redacted)
  --report-dir DIR   where to write the reports (default conformance-report)
  --reporter FMT     console, json, junit, html, markdown, ctrf (repeatable; default all)`;

async function proxy(argv: string[]): Promise<number> {
  const { values } = parseCommandLine(
    argv,
    {
      ...reportOptions,
      har: { type: 'string' },
      target: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
    },
    'proxy',
  );
  if (!values.target) throw new UsageError('Name the implementation to relay to: --target URL.', 'proxy');
  try {
    if (!/^https?:$/.test(new URL(values.target).protocol)) throw new Error('not http(s)');
  } catch {
    throw new UsageError(`--target must be an http(s) URL, got "${values.target}".`, 'proxy');
  }
  const port = intFlag(values.port, 'port', 0, 65_535, 'proxy') ?? 0;
  const formats = await formatsOf(values.reporter, 'proxy');
  const dir = values['report-dir'] ?? 'conformance-report';
  const [{ startTrafficProxy }, { TRAFFIC_CHECKS }, { showControlChars }] = await Promise.all([
    import('../traffic/proxy.js'),
    import('../traffic/checks.js'),
    import('../../reports/plain-text.js'),
  ]);
  const server = await startTrafficProxy({
    target: values.target,
    port,
    host: values.host,
    onFinding: (finding) => {
      const c = TRAFFIC_CHECKS[finding.check];
      // Finding text quotes the traffic: shown as data, never as terminal control.
      console.log(`✗ ${c.level} ${c.id} (against the ${c.side}) — ${showControlChars(finding.message)}`);
    },
  });
  console.log(`Proxy on ${server.url} → ${new URL(values.target).origin} (Ctrl-C to stop and write the reports)`);
  const write = async (): Promise<number> => {
    if (values.har) writeFileSync(values.har, server.har());
    return publish(server.report(), dir, formats);
  };
  return new Promise<number>((resolve) => {
    process.on('SIGUSR2', () => void write());
    const stop = async () => {
      await server.close();
      resolve(await write());
    };
    process.once('SIGINT', () => void stop());
    process.once('SIGTERM', () => void stop());
  });
}

export const checkTrafficCommand: Command = { help: checkHelp, run: checkTraffic };
export const proxyCommand: Command = { help: proxyHelp, run: proxy };
