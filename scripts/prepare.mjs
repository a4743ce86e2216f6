// `prepare` runs on `npm ci` and again whenever npm installs this directory as a package, which includes
// every `npx conformance` run inside the repo (npm installs the project itself into its npx cache as a link
// and runs `prepare` there). Rebuilding each time made `npx conformance --help` take half a minute, so this
// builds (tsc, then the CLI's bundle) only when dist/ is missing or older than a source or build setting;
// otherwise it returns at once.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build, buildInputs, root } from './build.mjs';

// The bundle is written last: it is there and newer than every input only when the whole build is.
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
const changed = buildInputs().reduce((top, input) => Math.max(top, newest(join(root, input))), 0);
if (built === 0 || changed > built) {
  const { code } = await build();
  if (code !== 0) process.exit(code);
}
