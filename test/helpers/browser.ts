/**
 * The headless Chromium the browser tests drive, provided by the project's own install: the build shipped
 * inside the `@sparticuz/chromium` npm package (compressed in the package, unpacked to the temp directory on
 * first use), so `npm ci && npm test` needs no system browser. CHROMIUM_PATH points at another Chromium
 * (e.g. a system /usr/bin/chromium) instead.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import chromiumPackage from '@sparticuz/chromium';
import { until } from './until.js';

/** Flags both builds need here: no sandbox (tests run as root in CI) and no calls home (the network refuses them). */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The packaged build is a headless shell made for single-container hosts; of the flags it recommends only
 * these are needed to start it. Its others (`--disable-web-security`, `--allow-running-insecure-content`)
 * would switch off exactly the page security the report tests check, so they are not taken.
 */
const PACKAGED_FLAGS = ['--no-zygote', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

export interface Browser {
  executablePath: string;
  args: string[];
}

export async function headlessChromium(): Promise<Browser> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return { executablePath: fromEnv, args: FLAGS };
  return { executablePath: await unpackedOnce(), args: [...FLAGS, ...PACKAGED_FLAGS] };
}

/**
 * The package unpacks into the temp directory and takes an existing `chromium` file as done, so a second
 * fork starting while the first is still writing launches a half-written binary. Every fork of one run
 * shares the run's temp directory (temp-root.ts): the first to take the lock unpacks, the others wait for
 * its ready mark, which names the binary.
 */
async function unpackedOnce(): Promise<string> {
  const ready = join(tmpdir(), 'chromium.ready');
  const lock = join(tmpdir(), 'chromium.lock');
  for (;;) {
    if (existsSync(ready)) return readFileSync(ready, 'utf8');
    try {
      mkdirSync(lock);
    } catch {
      // Another fork unpacks: wait for its mark, or for the lock to go if it failed.
      await until(() => existsSync(ready) || !existsSync(lock));
      continue;
    }
    try {
      const path = await chromiumPackage.executablePath();
      // Written beside, then renamed: a waiter never reads a mark half written.
      writeFileSync(`${ready}.${process.pid}`, path);
      renameSync(`${ready}.${process.pid}`, ready);
      return path;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
