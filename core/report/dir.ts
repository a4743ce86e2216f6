/**
 * The report directory is checked before the run, not after: a run of many minutes must not end
 * with its results lost because the directory named is a file, sits under /dev/null, or is not
 * writable. A problem is a usage error (exit 2) that names the flag or key it came from.
 */
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../config/errors.js';

/** Creates `dir` if needed and proves that a file can be written into it. */
export function checkReportDir(dir: string, where: string): void {
  const absolute = resolve(dir);
  const refuse = (why: string) => new ConfigError(`${where}: cannot write reports to ${dir}: ${why}.`);
  try {
    if (statSync(absolute, { throwIfNoEntry: false })?.isFile()) throw refuse('it is a file, not a directory');
    mkdirSync(absolute, { recursive: true });
    if (!statSync(absolute).isDirectory()) throw refuse('it is not a directory');
    const probe = join(absolute, `.conformance-write-check-${process.pid}`);
    writeFileSync(probe, '', { flag: 'wx' }); // never through a link left at that name
    rmSync(probe, { force: true });
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOTDIR'
        ? 'a part of the path is a file, not a directory'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'EROFS'
            ? 'the file system is read-only'
            : (error as Error).message;
    throw refuse(why);
  }
}
