/**
 * `conformance serve` under a flood of large requests keeps its resident memory within what
 * reference/README.md states: a base plus a multiple of the storage caps, however many 10 MiB
 * bodies arrive at once (large bodies are read and handled a body limit's worth at a time). The
 * server runs as the CLI in a child process and its peak resident memory is read as it exits, as
 * the hostile-output tests read the runner's.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { post, stagedAndProcessed, tenMiBNotes } from '../../bench/large-requests.js';
import { DEFAULT_TOKEN } from '../../reference/index.js';
import { stop } from '../helpers/cli.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const PROBE = fileURLToPath(new URL('../helpers/rss-probe.mjs', import.meta.url));
/** reference/README.md: peak resident memory under SERVE_BASE_MIB + SERVE_CAP_MULTIPLE × --max-total-bytes. */
const SERVE_BASE_MIB = 300;
const SERVE_CAP_MULTIPLE = 4;
const _headers = { authorization: `Token ${DEFAULT_TOKEN}`, 'content-type': 'application/json' };

function serve(args: string[], rssFile: string): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--json', ...args], {
      env: { ...process.env, NO_COLOR: '1', RSS_PROBE_FILE: rssFile, NODE_OPTIONS: `--import=${PROBE}` },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
      if (out.includes('\n')) resolve({ child, url: JSON.parse(out.split('\n')[0]).url });
    });
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`serve exited ${code} before it printed its URL`)));
  });
}

describe('serve under a flood of 10 MiB requests', () => {
  it('keeps its peak resident memory under the stated multiple of the storage cap', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'serve-rss-'));
    const rssFile = join(dir, 'max-rss');
    const capMiB = 32;
    const { child, url } = await serve(
      ['--token', DEFAULT_TOKEN, '--max-total-bytes', `${capMiB}MiB`, '--max-supplier-bytes', `${capMiB}MiB`],
      rssFile,
    );
    const statuses: number[] = [];
    try {
      // 40 bodies of 10 MiB, four at a time: the first few are kept up to the cap, the rest refused.
      for (let round = 0; round < 10; round++) {
        const exts = Array.from({ length: 4 }, (_, i) => `FLOOD-${round}-${i}`);
        for (const ext of exts) await stagedAndProcessed(url, ext);
        statuses.push(
          ...(await Promise.all(exts.map((ext) => post(url, '/v1/data-import/notes/create/', tenMiBNotes(ext))))),
        );
      }
    } finally {
      expect(await stop(child)).toBe(0);
    }
    // Kept until the cap, then refused for it: every body was read and judged.
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 400).length).toBeGreaterThan(30);
    expect(statuses.every((s) => s === 201 || s === 400)).toBe(true);
    expect(existsSync(rssFile)).toBe(true);
    const peakMiB = Number(readFileSync(rssFile, 'utf8')) / 1024;
    expect(peakMiB, 'peak resident memory of serve (MiB)').toBeLessThan(SERVE_BASE_MIB + SERVE_CAP_MULTIPLE * capMiB);
    expect(peakMiB).toBeGreaterThan(10); // the probe measured something
  }, 300_000);
});
