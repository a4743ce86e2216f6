/**
 * The yaml package, loaded the first time a YAML text is read. Most runs read none (no config file,
 * no baseline, inline templates), and loading it cost 25 ms of every CLI start; it is CommonJS, so
 * requiring it late gives the same module an import would, synchronously.
 */
import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');

let loaded: Yaml | undefined;

export function yaml(): Yaml {
  loaded ??= createRequire(import.meta.url)('yaml') as Yaml;
  return loaded;
}
