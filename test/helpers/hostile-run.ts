/**
 * Runs the built CLI against a hostile target and collects everything that left the process:
 * stdout, stderr, every report file (with its size), and the child's peak resident memory.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CliResult, runCli } from './cli.js';
import { fullConfig } from './config.js';

const PROBE = fileURLToPath(new URL('./rss-probe.mjs', import.meta.url));

export interface HostileRun extends CliResult {
  dir: string;
  /** Every report file and its text. */
  files: { name: string; text: string; bytes: number }[];
  /** Peak resident memory of the CLI process, in MiB. */
  maxRssMiB: number;
}

export async function runHostile(
  baseUrl: string,
  auth: string,
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<HostileRun> {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-output-'));
  writeFileSync(join(dir, 'conformance.config.yaml'), fullConfig(baseUrl, auth));
  const rssFile = join(dir, 'max-rss');
  const res = await runCli(args, {
    cwd: dir,
    timeoutMs: options.timeoutMs ?? 240_000,
    env: { ...options.env, RSS_PROBE_FILE: rssFile, NODE_OPTIONS: `--import=${PROBE}` },
  });
  const reportDir = join(dir, 'conformance-report');
  const files = existsSync(reportDir)
    ? readdirSync(reportDir).map((name) => ({
        name,
        text: readFileSync(join(reportDir, name), 'utf8'),
        bytes: statSync(join(reportDir, name)).size,
      }))
    : [];
  const maxRssMiB = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) / 1024 : Number.NaN;
  return { ...res, dir, files, maxRssMiB };
}

/** What a terminal would act on: every control character but the newline (colours are off: NO_COLOR). */
export const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** Every spelling of a secret a leak could take. */
export function spellings(secret: string): string[] {
  const unicodeEscaped = (upper: boolean) =>
    [...secret]
      .map((c) => {
        const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
        return `\\u${upper ? hex.toUpperCase() : hex}`;
      })
      .join('');
  return [
    secret,
    encodeURIComponent(secret),
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret).toString('base64url'),
    unicodeEscaped(false),
    unicodeEscaped(true),
  ];
}
