/**
 * The headless Chromium the browser tests drive, provided by the project's own install: the build shipped
 * inside the `@sparticuz/chromium` npm package (compressed in the package, unpacked to the temp directory on
 * first use), so `npm ci && npm test` needs no system browser. CHROMIUM_PATH points at another Chromium
 * (e.g. a system /usr/bin/chromium) instead.
 */
import chromiumPackage from '@sparticuz/chromium';

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
  return { executablePath: await chromiumPackage.executablePath(), args: [...FLAGS, ...PACKAGED_FLAGS] };
}
