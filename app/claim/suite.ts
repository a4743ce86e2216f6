/**
 * What a claim says of the suite that made it: its version, the commit it was built from when that
 * can be known, and the SHA-256 of the spec file it judged against — the one a verifier compares
 * with the spec its own copy of the suite ships, so a claim made against another text is told apart.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot, packageVersion } from '../../core/spec/package-root.js';

/** The spec file, as the package ships it (package.json `files`). */
export const SPEC_FILE = 'spec/data-import-interface.md';

export const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/** The shipped spec's text, read from the package. */
export const shippedSpec = (): Buffer => readFileSync(join(packageRoot(), SPEC_FILE));

/** The commit the suite runs from, or why it is not known. */
export interface SuiteCommit {
  commit: string | null;
  /** Set when commit is null (why), or when the checkout had changes the commit does not hold. */
  note?: string;
}

/**
 * The commit: `gitHead` when the package carries one (npm writes it for a package published from a
 * checkout), else `git rev-parse HEAD` when the suite runs from a checkout of its own repository;
 * a checkout with uncommitted changes is said, since the commit alone would not describe it.
 */
export function suiteCommit(root = packageRoot()): SuiteCommit {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { gitHead?: unknown };
  if (typeof pkg.gitHead === 'string' && /^[0-9a-f]{40}$/.test(pkg.gitHead)) return { commit: pkg.gitHead };
  if (!existsSync(join(root, '.git')))
    return { commit: null, note: 'not known: the package carries no gitHead and does not run from a git checkout' };
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', root, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    });
  try {
    const commit = git('rev-parse', 'HEAD').trim();
    if (!/^[0-9a-f]{40}$/.test(commit)) return { commit: null, note: 'not known: git rev-parse gave no commit' };
    const dirty = git('status', '--porcelain', '--untracked-files=no').trim() !== '';
    return dirty ? { commit, note: 'the checkout had uncommitted changes to tracked files' } : { commit };
  } catch {
    return { commit: null, note: 'not known: git could not read the checkout' };
  }
}

/** The suite as a claim names it. */
export function suiteIdentity() {
  const { commit, note } = suiteCommit();
  return { name: 'data-import-conformance', version: packageVersion(), commit, ...(note ? { commit_note: note } : {}) };
}
