/** `conformance check-traffic`: conformance of recorded traffic (a HAR file). */
import { statSync } from 'node:fs';
import { InputFileError, readInputFile } from '../../core/config/input-file.js';
import { shown } from '../../reports/terminal.js';
import { formatsOf, publish, reportOptions } from './traffic-reports.js';
import type { Command } from './usage.js';
import { UsageError, parseCommandLine } from './usage.js';

/** The largest HAR file read: parsing one takes several times its size in memory. */
export const MAX_HAR_BYTES = 256 * 1024 * 1024;

const statOf = (file: string) => {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
};

const checkHelp = `Usage: conformance check-traffic FILE.har [options]

Judges recorded traffic (a HAR 1.2 file from browser devtools, mitmproxy, Charles,
"conformance proxy --har" or a run's "conformance --har") against the spec: each request as the
client's conformance (documented fields only, shapes and formats of §2 and §4, the §5
Authorization header), each response as the server's (documented status and body, §7.1 error
bodies), and the §3 state table and the §4.2 note dedup over the sequence, per account: one
answer binds a later request only when it came before that request was sent (entries that overlap
in time may have been taken in either order), and what no order makes right (an account created or
a note created twice) is a finding either way. Findings carry their level, spec section and the side
they are against (tag client or server). Every report has the traffic's status and field
coverage: per endpoint, documented statuses observed and never observed, undocumented statuses,
and the documented request fields sent. Exits 1 when a MUST check failed, else 0.

An entry of a run's HAR names the rule that sent it (_conformance.rule); one the rule sent with a
defect on purpose (no Authorization header, another scheme, a body that is not JSON, a payload
with a defect) says so (_conformance.deliberate, and its comment) and is judged against the server
only, never as the client's defect. A check the traffic held nothing for is skipped: no seed, no
--allow-skip applies; an endpoint counts as checked once the traffic reached it.

The file is checked before anything is judged: a file over 256 MiB, not a regular file (a FIFO,
a device), not JSON, or with a field the exchanges are built from missing or of the wrong type is a
usage error (exit 2) that names the field (log.entries[3].request.headers: expected an array). A response whose status is not an HTTP
status (an integer of 100-599) is recorded as malformed: an exchange with an error, not a response.

Options:
  --report-dir DIR   where to write the reports (default conformance-report)
  --reporter FMT     console, json, junit, html, markdown, ctrf, sarif (repeatable; default all
                     but sarif)
  --secret-header N  another header whose values are secrets (repeatable; e.g. X-Gateway-Key)

Secrets in the file never reach a report or the console: Authorization, Proxy-Authorization,
Cookie, Set-Cookie and X-API-Key values (and --secret-header ones), the organisation API key of
the ObtainServiceToken mutation (variables or query text) and the token it issues.`;

async function checkTraffic(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(
    argv,
    { ...reportOptions, 'secret-header': { type: 'string', multiple: true } },
    'check-traffic',
    true,
  );
  if (positionals.length !== 1) throw new UsageError('Name one HAR file to check.', 'check-traffic');
  const formats = await formatsOf(values.reporter, 'check-traffic');
  const [{ fromHar, HarError }, { TrafficJudge }, { trafficReport }, { Redactor }, { TrafficSecrets }] =
    await Promise.all([
      import('../traffic/har-read.js'),
      import('../traffic/checks.js'),
      import('../traffic/report.js'),
      import('../../core/http/redact.js'),
      import('../traffic/secrets.js'),
    ]);
  const file = positionals[0];
  const size = statOf(file)?.size ?? 0;
  if (size > MAX_HAR_BYTES)
    throw new UsageError(
      `${shown(file)}: ${size} bytes, more than check-traffic reads (${MAX_HAR_BYTES / 1024 / 1024} MiB); split the recording.`,
      'check-traffic',
    );
  let text: string;
  try {
    // Only a regular file: a FIFO would block here for ever, a device never end (core/config/input-file.ts).
    text = readInputFile(file, MAX_HAR_BYTES, 'a HAR file');
  } catch (error) {
    if (error instanceof InputFileError) throw new UsageError(`${error.message}.`, 'check-traffic');
    throw error;
  }
  let parsed: ReturnType<typeof fromHar>;
  try {
    parsed = fromHar(text);
  } catch (error) {
    if (error instanceof HarError) throw new UsageError(`${shown(file)}: ${shown(error.message)}`, 'check-traffic');
    throw error;
  }
  const judge = new TrafficJudge();
  // The secrets the file carries (credential headers, the §5.1 key and token) are learned from all of
  // it before anything is judged or written: a token issued late in the file is redacted everywhere.
  const redactor = new Redactor();
  const secrets = new TrafficSecrets(redactor, values['secret-header']);
  for (const exchange of parsed.exchanges) secrets.learn(exchange);
  const exchanges = parsed.exchanges.map((e) => secrets.withoutCredentials(e));
  for (const exchange of exchanges) judge.observe(exchange);
  // A loop, not Math.min(...times): a HAR of 100k entries would overflow the stack as arguments.
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const e of exchanges) {
    const t = e.startedAt?.getTime() ?? 0;
    if (t > 0) [first, last] = [Math.min(first, t), Math.max(last, t)];
  }
  const now = Date.now();
  const report = trafficReport(
    judge,
    exchanges,
    {
      label: file,
      startedAt: new Date(Number.isFinite(first) ? first : now),
      finishedAt: new Date(Number.isFinite(last) ? last : now),
    },
    redactor,
  );
  return publish(report, values['report-dir'] ?? 'conformance-report', formats);
}

export const checkTrafficCommand: Command = { help: checkHelp, run: checkTraffic };
