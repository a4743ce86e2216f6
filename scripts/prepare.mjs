// `prepare` runs on `npm ci` and again whenever npm installs this directory as a package, which includes
// every `npx conformance` run inside the repo (npm installs the project itself into its npx cache as a link
// and runs `prepare` there). Rebuilding each time made `npx conformance --help` take half a minute, so this
// builds (tsc, then the CLI's bundle) only when dist/ is missing or older than a source or build setting;
// otherwise it returns at once.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from './bundle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = [
  'app',
  'core',
  'reference',
  'suites',
  'generators',
  'reports',
  'bench',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'scripts/bundle.mjs',
];
// The bundle is written last: it is there and newer than every source only when the whole build is.
const STAMP = join(root, 'dist', 'cli', 'main.js');

/** The newest modification time under a file or folder (0 if it does not exist). */
function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

const built = newest(STAMP);
const changed = SOURCES.reduce((top, s) => Math.max(top, newest(join(root, s))), 0);
if (built === 0 || changed > built) {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    { cwd: root, stdio: 'inherit' },
  );
  await bundle();
}
