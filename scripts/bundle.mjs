// The command-line program as a few files instead of some 550 modules: dist/cli/, bundled from what tsc
// emitted into dist/app. Node's module loader costs about half a millisecond per module it resolves,
// reads and links, whatever the module does; at the CLI's every start that was 70 ms of `list` and 200
// ms of a default run, and some 240 runs of the CLI in `npm test`. The library entry points (package.json
// `exports`) stay module per file in dist/, as tsc wrote them: a program that imports them loads only
// what it uses.
//
// Three entries, so that each keeps its file name: main.js (the `bin`); worker.js, which the mutation
// kill matrix starts as a worker thread by a URL relative to its own module (`./worker.js`); and
// embedded-server.js, the embedded reference server's thread (app/embedded.ts), found the same way. Each
// dynamic import of a subcommand becomes a chunk of its own, so `--help` still loads none of them.
// Nothing is left out of the bundle but what is loaded by a name computed at run time (the optional
// Pact library) or by createRequire (yaml), which Node resolves from node_modules as before.
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST_CLI = join(root, 'dist', 'cli');

/** Bundles into `out` (dist/cli; a test gives another folder). */
export async function bundle(out = DIST_CLI) {
  // Chunk names carry a content hash: the ones of an earlier build would otherwise pile up beside.
  rmSync(out, { recursive: true, force: true });
  // Loaded here, not at the top: prepare.mjs imports this file on every install, and needs the bundler
  // (a development dependency) only when it builds.
  let rolldown;
  try {
    ({ rolldown } = await import('rolldown'));
  } catch (error) {
    unbundled(out, error);
    return;
  }
  const build = await rolldown({
    input: {
      main: join(root, 'dist', 'app', 'cli', 'main.js'),
      worker: join(root, 'dist', 'app', 'mutation', 'worker.js'),
      'embedded-server': join(root, 'dist', 'app', 'embedded-server.js'),
    },
    platform: 'node',
    // Any warning fails the build: an import the bundler cannot resolve would otherwise be left for
    // Node to resolve at run time, from a folder where it is not.
    onLog: (level, log) => {
      if (level === 'warn') throw new Error(`bundling the CLI: ${log.code}: ${log.message}`);
    },
  });
  try {
    await build.write({ dir: out, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' });
  } finally {
    await build.close();
  }
  executable(out);
}

/** The bin is run as a program (node_modules/.bin/conformance links to it); the file is new each build. */
const executable = (out) => chmodSync(join(out, 'main.js'), 0o755);

/**
 * Without the bundler the CLI runs module by module, as tsc wrote it: slower to start, nothing else.
 * Its native binding is an optional dependency, so an install with `--omit=optional` (the GitHub
 * Action's, which leaves the Pact library out) has none. The bin then only loads dist/app/cli/main.js,
 * and the kill matrix finds its worker beside its own module there.
 */
function unbundled(out, error) {
  mkdirSync(out, { recursive: true });
  const path = relative(out, join(root, 'dist', 'app', 'cli', 'main.js'))
    .split(sep)
    .join('/');
  const entry = path.startsWith('.') ? path : `./${path}`;
  writeFileSync(join(out, 'main.js'), `#!/usr/bin/env node\nimport ${JSON.stringify(entry)};\n`);
  executable(out);
  const why = String(error?.message ?? error).split(/\.\s|\n/)[0];
  console.warn(
    `The CLI is not bundled: the bundler did not load (${why}), as after an install with --omit=optional. It runs module by module, 0.1-0.2 s slower to start.`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle();
