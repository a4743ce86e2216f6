/** `conformance check-traffic`: conformance of recorded traffic (a HAR file). */
import { readFileSync } from 'node:fs';
import { formatsOf, publish, reportOptions } from './traffic-reports.js';
import type { Command } from './usage.js';
import { UsageError, parseCommandLine } from './usage.js';

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
  // A loop, not Math.min(...times): a HAR of 100k entries would overflow the stack as arguments.
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const e of parsed.exchanges) {
    const t = e.startedAt?.getTime() ?? 0;
    if (t > 0) [first, last] = [Math.min(first, t), Math.max(last, t)];
  }
  const now = Date.now();
  const report = trafficReport(
    judge,
    parsed.exchanges,
    {
      label: positionals[0],
      startedAt: new Date(Number.isFinite(first) ? first : now),
      finishedAt: new Date(Number.isFinite(last) ? last : now),
    },
    redactor,
  );
  return publish(report, values['report-dir'] ?? 'conformance-report', formats);
}

export const checkTrafficCommand: Command = { help: checkHelp, run: checkTraffic };
