/**
 * Reads conformance.config.yaml: YAML parsed with positions, `${VAR}` interpolated inside string
 * values (after parsing, so a variable's content can never change the document's structure), then
 * validated by the zod schema, with every problem named by its key path.
 */
import { existsSync } from 'node:fs';
import { InputFileError, readInputFile } from './input-file.js';
import { resolve } from 'node:path';
import { yaml } from './yaml.js';
import type { z } from 'zod';
import { ConfigError } from './errors.js';
import { ConformanceConfig } from './schema.js';
import { dotPath } from '../spec/paths.js';
import { DEFAULT_CONFIG_FILES } from './default-files.js';

/** Alias expansions allowed in the config file (the yaml package's guard against alias bombs). */
export const MAX_ALIAS_COUNT = 100;

/**
 * The largest config file read. A commented starter is 6 KB; inline payload templates add a few KB
 * each. 16 MiB, the most of one answer the runner reads, leaves room for any hand-written file and
 * refuses /dev/zero or a mistaken path before it is read.
 */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/** The config file to read: the one named, or `./conformance.config.yaml` when present. */
export function findConfigFile(cwd: string, explicit?: string): string | undefined {
  if (explicit !== undefined) {
    const file = resolve(cwd, explicit);
    if (!existsSync(file)) throw new ConfigError(`Config file ${explicit} does not exist.`);
    return file;
  }
  return DEFAULT_CONFIG_FILES.map((name) => resolve(cwd, name)).find((file) => existsSync(file));
}

/** Replaces `${NAME}` and `${NAME:-default}` in every string; `$${...}` stays literal. */
export function interpolate(
  value: unknown,
  env: NodeJS.ProcessEnv,
  path: string[] = [],
  problems: string[] = [],
): unknown {
  if (typeof value === 'string') {
    return value.replace(
      /\$?\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
      (match, name: string, fallback: string | undefined) => {
        if (match.startsWith('$$')) return match.slice(1);
        const found = env[name];
        if (found !== undefined && found !== '') return found;
        if (fallback !== undefined) return fallback;
        problems.push(
          `${dotPath(path, '(document)')}: environment variable ${name} is not set (use \${${name}:-default} for a default)`,
        );
        return '';
      },
    );
  }
  if (Array.isArray(value)) return value.map((v, i) => interpolate(v, env, [...path, String(i)], problems));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env, [...path, k], problems)]));
  }
  return value;
}

/** Levenshtein distance, to suggest the key a typo meant. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length];
}

type SchemaDef = { innerType?: SchemaNode; shape?: Record<string, SchemaNode> };
type SchemaNode = { def: SchemaDef };

/** Looks through optional and default wrappers to the schema inside. */
function unwrap(schema: SchemaNode): SchemaNode {
  let inner = schema;
  while (inner.def.innerType) inner = inner.def.innerType;
  return inner;
}

/** The keys the config allows in the object at a key path, to suggest what a typo meant. */
function knownKeys(path: PropertyKey[]): string[] {
  let schema = unwrap(ConformanceConfig as unknown as SchemaNode);
  for (const part of path) {
    const next = typeof part === 'string' ? schema.def.shape?.[part] : undefined;
    if (!next) return [];
    schema = unwrap(next);
  }
  return Object.keys(schema.def.shape ?? {});
}

export function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.flatMap((issue) => {
    const at = dotPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      const allowed = knownKeys(issue.path);
      return issue.keys.map((key) => {
        const near = allowed
          .filter((k) => distance(k, key) <= Math.max(2, Math.floor(key.length / 3)))
          .sort((x, y) => distance(x, key) - distance(y, key))[0];
        const where = at ? `${at}.${key}` : key;
        return `${where}: unknown key${near ? ` (did you mean "${near}"?)` : ''}; allowed here: ${allowed.join(', ')}`;
      });
    }
    // A header name that is no name is most often `Name: value` written as the key: not quoted.
    if (issue.code === 'invalid_key' && issue.path[0] === 'headers')
      return [
        "headers: a header name holds a character no header name may (letters, digits and !#$%&'*+.^_`|~- only; the name is not shown, since it may hold a secret)",
      ];
    return [`${at || '(document)'}: ${issue.message}`];
  });
}

export interface LoadedConfig {
  file?: string;
  config: z.output<typeof ConformanceConfig>;
}

/** Parses and validates config text; `file` is only used in messages. */
export function parseConfig(
  text: string,
  file: string,
  env: NodeJS.ProcessEnv = process.env,
): z.output<typeof ConformanceConfig> {
  const doc = yaml().parseDocument(text, { prettyErrors: true });
  if (doc.errors.length) {
    throw new ConfigError(
      `${file} is not valid YAML:`,
      doc.errors.map((e) => e.message.split('\n')[0]),
    );
  }
  let raw: unknown;
  try {
    // A few aliases are fine; thousands expanding into each other (a "billion laughs" document) are
    // refused by the yaml package past this count, rather than expanded until memory runs out.
    raw = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
  } catch (error) {
    const why = /excessive alias count/i.test((error as Error).message)
      ? `it expands aliases (*name) more than ${MAX_ALIAS_COUNT} times; write the values out instead`
      : (error as Error).message;
    throw new ConfigError(`${file} cannot be read: ${why}.`);
  }
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new ConfigError(`${file}: the document must be a mapping of keys (base_url, auth, fixtures, run, report).`);
  const moved = (raw as { fixtures?: { payloads?: Record<string, unknown> } }).fixtures?.payloads;
  if (moved !== undefined) {
    const keys = moved && typeof moved === 'object' ? Object.keys(moved) : [];
    throw new ConfigError(`${file}: fixtures.payloads has moved to the top-level payloads section.`, [
      `move ${keys.length ? keys.map((k) => `fixtures.payloads.${k} to payloads.${k}`).join(', ') : 'its keys to payloads'} (payloads also takes account, business, notes, transactions, … templates)`,
    ]);
  }
  const problems: string[] = [];
  const interpolated = interpolate(raw, env, [], problems);
  if (problems.length) throw new ConfigError(`${file} has problems:`, problems);
  const result = ConformanceConfig.safeParse(interpolated);
  if (!result.success) throw new ConfigError(`${file} has problems:`, describeIssues(result.error.issues));
  return result.data;
}

export function loadConfig(cwd: string, explicit?: string, env: NodeJS.ProcessEnv = process.env): LoadedConfig {
  const file = findConfigFile(cwd, explicit);
  if (!file) return { config: ConformanceConfig.parse({}) };
  let text: string;
  try {
    text = readInputFile(file, MAX_CONFIG_BYTES, 'a config file');
  } catch (error) {
    if (error instanceof InputFileError) throw new ConfigError(`config file: ${error.message}.`);
    throw error;
  }
  return { file, config: parseConfig(text, file, env) };
}
