/**
 * Reads the payload templates of the `payloads:` section: an inline object, or a JSON or YAML file
 * named relative to the config file. Their shapes are checked where they are used (engine/templates).
 */
import { resolve } from 'node:path';
import { yaml } from './yaml.js';
import { ConfigError } from './errors.js';
import { InputFileError, readInputFile } from './input-file.js';
import type { PayloadKind, PayloadsConfig } from './schema.js';

/** Payload templates by request kind, as loaded from `payloads:` (the engine's PayloadTemplates reads them). */
export type PayloadTemplatesInput = Partial<Record<PayloadKind, Record<string, unknown>>>;

/**
 * The largest template file read: one request body, which the run sends again and again. The most
 * of one answer the runner reads (16 MiB) is far past any real one, and refuses /dev/zero or a
 * mistaken path before it is read.
 */
export const MAX_TEMPLATE_BYTES = 16 * 1024 * 1024;

export function loadPayloadTemplates(payloads: PayloadsConfig, baseDir: string): PayloadTemplatesInput {
  const loaded: PayloadTemplatesInput = {};
  for (const [kind, value] of Object.entries(payloads) as [
    PayloadKind,
    string | Record<string, unknown> | undefined,
  ][]) {
    if (value === undefined) continue;
    if (typeof value !== 'string') {
      loaded[kind] = value;
      continue;
    }
    const file = resolve(baseDir, value);
    let text: string;
    try {
      text = readInputFile(file, MAX_TEMPLATE_BYTES, 'a payload template');
    } catch (error) {
      if (error instanceof InputFileError) throw new ConfigError(`payloads.${kind}: ${error.message}`);
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = /\.ya?ml$/i.test(file) ? yaml().parse(text, { maxAliasCount: 100 }) : JSON.parse(text);
    } catch (error) {
      throw new ConfigError(
        `payloads.${kind}: ${value} is not valid ${/\.ya?ml$/i.test(file) ? 'YAML' : 'JSON'}: ${(error as Error).message.split('\n')[0]}`,
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new ConfigError(`payloads.${kind}: ${value} must hold one JSON object (a request body).`);
    loaded[kind] = parsed as Record<string, unknown>;
  }
  return loaded;
}
