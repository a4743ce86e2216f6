/** `conformance init`: writes a commented starter conformance.config.yaml. */
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { starterConfig } from '../../core/config/starter.js';
import { packageRoot } from '../../core/spec/package-root.js';
import type { Command } from './usage.js';
import { UsageError, parseCommandLine } from './usage.js';

const help = `Usage: conformance init [options]

Writes a commented starter conformance.config.yaml, with a $schema reference so that editors
complete and check its keys.

Options:
  --out FILE   where to write it (default conformance.config.yaml)
  --force      overwrite an existing file`;

/** The path as a POSIX shell reads it back: quoted when it holds anything but plain characters. */
const shellArg = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

const options = { out: { type: 'string' }, force: { type: 'boolean' } } as const;

/** A name beside `file` that is not taken: conformance.local.yaml, conformance.local-2.yaml, … */
function freeName(file: string): string {
  for (let n = 1; ; n++) {
    const name = `conformance.local${n === 1 ? '' : `-${n}`}.yaml`;
    if (!existsSync(join(dirname(file), name))) return name;
  }
}

async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, options, 'init');
  const file = resolve(values.out ?? 'conformance.config.yaml');
  if (existsSync(file) && !values.force)
    throw new UsageError(
      `${file} exists; write another file with --out (e.g. --out ${freeName(file)}, then run with --config ${freeName(file)}) or overwrite it with --force.`,
      'init',
    );
  const schema = relative(dirname(file), join(packageRoot(), 'schema', 'conformance.config.schema.json'))
    .split('\\')
    .join('/');
  try {
    writeFileSync(file, starterConfig(schema.startsWith('.') ? schema : `./${schema}`));
  } catch (error) {
    throw new UsageError(
      `cannot write ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      'init',
    );
  }
  // The default file is found without --config; any other has to be named, or the run ignores it.
  const named = values.out !== undefined && resolve(values.out) !== resolve('conformance.config.yaml');
  console.log(
    `Wrote ${file}. Set base_url and auth, then run: npx conformance${named ? ` --config ${shellArg(values.out!)}` : ''}`,
  );
  return 0;
}

export const initCommand: Command = { help, run };
