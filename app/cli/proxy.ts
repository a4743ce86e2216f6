/** `conformance proxy`: conformance of live traffic relayed to an implementation. */
import { writeFileSync } from 'node:fs';
import { formatsOf, publish, reportOptions } from './traffic-reports.js';
import type { Command } from './usage.js';
import { UsageError, intFlag, parseCommandLine } from './usage.js';

const proxyHelp = `Usage: conformance proxy --target URL [options]

A forwarding proxy that relays every exchange unchanged to the target and judges it as it passes,
with the checks of check-traffic. Point a migration client at it instead of the service:

  npx conformance proxy --target https://staging.example.com --port 8081 --har session.har
  SERVICE_URL=http://127.0.0.1:8081 ./migrate-accounts     # the supplier's own client

Findings print as they are made. The reports (and the HAR file) are written on exit (Ctrl-C,
SIGTERM) and on demand (kill -USR2 <pid>), with the session's status and field coverage; exits 1
when a MUST check failed, else 0. Secrets seen in the traffic are redacted in every output:
Authorization, Proxy-Authorization, Cookie, Set-Cookie and X-API-Key values (and --secret-header
ones), the organisation API key of the ObtainServiceToken mutation and the token it issues.

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
      'allow-host': { type: 'string', multiple: true },
      'secret-header': { type: 'string', multiple: true },
    },
    'proxy',
  );
  if (!values.target) throw new UsageError('Name the implementation to relay to: --target URL.', 'proxy');
  const port = intFlag(values.port, 'port', 0, 65_535, 'proxy') ?? 0;
  const formats = await formatsOf(values.reporter, 'proxy');
  const dir = values['report-dir'] ?? 'conformance-report';
  const [{ startTrafficProxy }, { TRAFFIC_CHECKS }, { shown }, { ForwardingConfigError, isLoopbackHost }] =
    await Promise.all([
      import('../traffic/proxy.js'),
      import('../traffic/checks.js'),
      import('../../reports/terminal.js'),
      import('../traffic/forwarding.js'),
    ]);
  const host = values.host ?? '127.0.0.1';
  if (!isLoopbackHost(host))
    console.error(
      `conformance proxy: warning: listening on ${shown(host)}, not a loopback address: anyone who reaches it can relay requests, with their own credentials, to the target.`,
    );
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
    if (error instanceof ForwardingConfigError) throw new UsageError(error.message, 'proxy');
    throw error;
  }
  console.log(
    `Proxy on ${server.url} → ${safe(new URL(values.target).origin + new URL(values.target).pathname.replace(/\/+$/, ''))} (Ctrl-C to stop and write the reports)`,
  );
  const write = async (): Promise<number> => {
    if (values.har) writeFileSync(values.har, server.har());
    return publish(server.report(), dir, formats);
  };
  return new Promise<number>((resolve) => {
    process.on('SIGUSR2', () => void write());
    const stop = async () => {
      await server.close();
      if (server.refused > 0)
        console.error(`conformance proxy: ${server.refused} request(s) refused without being forwarded.`);
      resolve(await write());
    };
    process.once('SIGINT', () => void stop());
    process.once('SIGTERM', () => void stop());
  });
}

export const proxyCommand: Command = { help: proxyHelp, run: proxy };
