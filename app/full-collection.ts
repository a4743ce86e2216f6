/**
 * V8's full garbage collection, for a process that did not start with `--expose-gc` (the CLI, the
 * bench, the tests): the flag is set at run time and `gc` is read from a fresh context, where V8
 * installs it once the flag is on. Undefined where the engine does not provide it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function fullCollection(): (() => void) | undefined {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as unknown;
  return typeof gc === 'function' ? (gc as () => void) : undefined;
}
