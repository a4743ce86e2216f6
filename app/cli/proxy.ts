/** `conformance proxy`: conformance of live traffic relayed to an implementation. */
import { formatsOf, publish, reportOptions } from './traffic-reports.js';
import type { Command } from './usage.js';
import { EXIT, UsageError, intFlag, parseCommandLine } from './usage.js';

const proxyHelp = `Usage: conformance proxy --target URL [options]

A forwarding proxy that relays every exchange unchanged to the target and judges it as it passes,
with the checks of check-traffic. Point a migration client at it instead of the service:

  npx conformance proxy --target https://staging.example.com --port 8081 --har session.har
  SERVICE_URL=http://127.0.0.1:8081 ./migrate-accounts     # the supplier's own client

Findings print as they are made. The reports are written when it stops and on demand (kill -USR2
<pid>), with the session's status and field coverage; the HAR file (--har) is written as each
exchange completes and is a whole HAR 1.2 document at any moment. Secrets seen in the traffic are
redacted in every output: Authorization, Proxy-Authorization, Cookie, Set-Cookie and X-API-Key
values (and --secret-header ones), the organisation API key of the ObtainServiceToken mutation and
the token it issues.

Stopping: the first Ctrl-C (SIGINT) or SIGTERM takes no new connection, gives the exchanges in
flight up to 5 s to end, then cuts those left (their clients' connections closed), writes every
report and closes the HAR file. Exits 130 when exchanges were cut in flight (the report then says
Interrupted and names them: counted, never hidden), else 1 when a MUST check failed, else 0.
A second signal exits at once (130): the HAR file is whole, and each report is whole or not there.

Memory: a session of any length holds what its reports show — a trimmed copy (bodies cut at 2 KB)
of the exchanges a finding names and of the last few; the rest are counted. Bodies over 16 MiB
are not relayed: a request gets 413; an answer is cut (502 with a JSON detail, or the connection
closed once its head was relayed) and recorded as an error (too_large). The bodies of all the
exchanges in flight hold at most 64 MiB together: a request beyond that gets 503 (Retry-After: 1),
not forwarded; an answer beyond it is cut like one over 16 MiB.

It relays to its target only. A request whose target is not a path (an absolute URL, //host, a
backslash form, CONNECT) is refused with 400 or 405, and one whose Host header names no address of
the proxy (a DNS-rebinding page) with 421, before anything is sent; refusals print on stderr.
Hop-by-hop headers (RFC 9110 §7.6.1, and those the Connection header names) and
Proxy-Authorization are never passed on. The target keeps its base path (a --target with
user:password@, a query or a fragment is refused).

Options:
  --target URL       the implementation to relay to (required)
  --port N           port to listen on (default: a free one, printed)
  --host H           address to listen on (default 127.0.0.1; any other is warned about: the proxy
                     relays whoever reaches it with their own credentials)
  --allow-host NAME  another name the Host header may carry (repeatable; default: the
                     proxy's own addresses, localhost, 127.0.0.1, ::1)
  --secret-header N  another header whose values are secrets (repeatable; e.g. X-Gateway-Key)
  --ca-cert FILE     a CA to trust too for the target's certificate;  --insecure  accept any
  --client-cert FILE, --client-key FILE
                     the client certificate and its key (PEM) the proxy presents to a target
                     behind mutual TLS (its clients' own certificates are not relayed)
  --client-key-passphrase-env NAME
                     the environment variable holding the key's passphrase (never the passphrase)
  --har FILE         also write every exchange as HAR 1.2 (redacted), as it completes
  --report-dir DIR   where to write the reports (default conformance-report)
  --reporter FMT     console, json, junit, html, markdown, ctrf, sarif (repeatable; default all
                     but sarif)`;

async function proxy(argv: string[]): Promise<number> {
  const { values } = parseCommandLine(
    argv,
    {
      ...reportOptions,
      har: { type: 'string' },
      target: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'allow-host': { type: 'string', multiple: true },
      'secret-header': { type: 'string', multiple: true },
      'ca-cert': { type: 'string' },
      insecure: { type: 'boolean' },
      'client-cert': { type: 'string' },
      'client-key': { type: 'string' },
      'client-key-passphrase-env': { type: 'string' },
    },
    'proxy',
  );
  if (!values.target) throw new UsageError('Name the implementation to relay to: --target URL.', 'proxy');
  const port = intFlag(values.port, 'port', 0, 65_535, 'proxy') ?? 0;
  const formats = await formatsOf(values.reporter, 'proxy');
  const dir = values['report-dir'] ?? 'conformance-report';
  const [
    { startTrafficProxy, TrafficProxyError, PROXY_STOP_GRACE_MS },
    { TRAFFIC_CHECKS },
    { shown },
    { ForwardingConfigError, isLoopbackHost },
    { resolveTls },
    { ConfigError },
  ] = await Promise.all([
    import('../traffic/proxy.js'),
    import('../traffic/checks.js'),
    import('../../reports/terminal.js'),
    import('../traffic/forwarding.js'),
    import('../resolve.js'),
    import('../../core/config/errors.js'),
  ]);
  // The same TLS resolution as a run's (no config file here: paths are relative to the working directory).
  let upstreamTls: ReturnType<typeof resolveTls>;
  try {
    upstreamTls = resolveTls(values, {}, process.cwd(), process.cwd(), process.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message, 'proxy');
    throw error;
  }
  if (upstreamTls.insecure)
    console.error(
      "conformance proxy: --insecure: the target's TLS certificate is not checked; never use this against production.",
    );
  const host = values.host ?? '127.0.0.1';
  if (!isLoopbackHost(host))
    console.error(
      `conformance proxy: warning: listening on ${shown(host)}, not a loopback address: anyone who reaches it can relay requests, with their own credentials, to the target.`,
    );
  // A session relays bodies of up to 16 MiB each way again and again: garbage collected as it grows
  // past what is live, not when V8's defaults get to it (app/cli/memory.ts).
  (await import('./memory.js')).collectPromptly();
  let server: Awaited<ReturnType<typeof startTrafficProxy>>;
  // Text from the traffic (finding messages, request targets) is redacted with the session's secrets
  // and shown as data: never a secret, never terminal control, never a line of its own.
  const safe = (text: string) => shown(server.redactor.text(text));
  const REFUSALS_SHOWN = 20;
  try {
    server = await startTrafficProxy({
      target: values.target,
      port,
      host,
      allowHosts: values['allow-host'],
      secretHeaders: values['secret-header'],
      har: values.har,
      upstreamTls,
      onHandshakeRefusal: (cause) =>
        console.error(`conformance proxy: the target refused the TLS handshake: ${safe(cause)}.`),
      onFinding: (finding) => {
        const c = TRAFFIC_CHECKS[finding.check];
        console.log(`✗ ${c.level} ${c.id} (against the ${c.side}) — ${safe(finding.message)}`);
      },
      onRefusal: (why, method) => {
        if (server.refused <= REFUSALS_SHOWN)
          console.error(
            `conformance proxy: refused a ${safe(method)} request, not forwarded (${why.status} ${why.code})${server.refused === REFUSALS_SHOWN ? '; further refusals are counted, and the total printed when the proxy stops' : ''}`,
          );
      },
    });
  } catch (error) {
    if (error instanceof ForwardingConfigError || error instanceof TrafficProxyError)
      throw new UsageError(error.message, 'proxy');
    throw error;
  }
  console.log(
    `Proxy on ${server.url} → ${safe(new URL(values.target).origin + new URL(values.target).pathname.replace(/\/+$/, ''))} (Ctrl-C to stop and write the reports)`,
  );
  const write = (): Promise<number> => publish(server.report(), dir, formats);
  return new Promise<number>((resolve, reject) => {
    process.on('SIGUSR2', () => void write().catch((error) => console.error(`conformance proxy: ${error}`)));
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        console.error(
          `conformance proxy: ${signal} again; exiting now. Files already written are complete (the HAR file after every exchange; each report whole or not there).`,
        );
        process.exit(EXIT.INTERRUPTED);
      }
      stopping = true;
      const flying = server.inFlight;
      console.error(
        `conformance proxy: ${signal}: taking no new connection${flying ? `; up to ${PROXY_STOP_GRACE_MS / 1000} s for the ${flying} exchange(s) in flight to end` : ''}, then writing the reports (${signal} again exits at once).`,
      );
      void (async () => {
        const { cut, harFailure } = await server.stop(PROXY_STOP_GRACE_MS, signal);
        if (server.refused > 0)
          console.error(`conformance proxy: ${server.refused} request(s) refused without being forwarded.`);
        if (cut.length)
          console.error(
            `conformance proxy: ${cut.length} exchange(s) were still in flight after ${PROXY_STOP_GRACE_MS / 1000} s and were cut, their answers not judged: ${cut
              .slice(0, 5)
              .map((c) => safe(`${c.method} ${c.url}`))
              .join(
                ', ',
              )}${cut.length > 5 ? ` and ${cut.length - 5} more` : ''}. The report says Interrupted (exit code ${EXIT.INTERRUPTED}).`,
          );
        const har = server.har;
        if (harFailure)
          console.error(
            `conformance proxy: --har: ${har?.file} stopped recording after ${har?.entries} exchanges: ${harFailure}`,
          );
        else if (har) console.log(`HAR: ${har.file} (${har.entries} exchanges)`);
        resolve(await write());
      })().catch(reject);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

export const proxyCommand: Command = { help: proxyHelp, run: proxy };
