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

export const proxyCommand: Command = { help: proxyHelp, run: proxy };
