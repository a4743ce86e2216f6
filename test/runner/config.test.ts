import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../core/config/errors.js';
import { schemaFiles } from '../../core/report/json-schema.js';
import { parseConfig } from '../../core/config/load.js';
import { resolveRun } from '../../app/resolve.js';
import { starterConfig } from '../../core/config/starter.js';

const problems = (text: string, env: NodeJS.ProcessEnv = {}) => {
  try {
    parseConfig(text, 'c.yaml', env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected a ConfigError');
};

function dirWith(config?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
  if (config !== undefined) writeFileSync(join(dir, 'conformance.config.yaml'), config);
  return dir;
}

describe('conformance.config.yaml', () => {
  it('names the key path and the problem, and suggests the key a typo meant', () => {
    expect(problems('run:\n  concurency: 4\n')).toMatch(
      /run\.concurency: unknown key \(did you mean "concurrency"\?\)/,
    );
    expect(problems('run:\n  concurrency: many\n')).toMatch(
      /run\.concurrency: expected a whole number from 1 to 256, or "auto"/i,
    );
    expect(problems('fixtures:\n  import_suppliers:\n    ongoing: ""\n')).toMatch(
      /fixtures\.import_suppliers\.ongoing: must not be empty/,
    );
    expect(problems('base_url: ftp://x\n')).toMatch(/base_url: must be an http\(s\) URL/);
    expect(problems('report:\n  formats: [pdf]\n')).toMatch(/report\.formats\.0/);
    expect(problems('run:\n  id_prefix: "1x"\n')).toMatch(/run\.id_prefix: must be 1-8 letters/);
    expect(problems('colour: blue\n')).toMatch(/colour: unknown key; allowed here: \$schema, base_url, auth/);
  });

  it('reports invalid YAML and a document that is not a mapping', () => {
    expect(problems('run: [\n')).toMatch(/c\.yaml is not valid YAML/);
    expect(problems('- a\n- b\n')).toMatch(/must be a mapping/);
  });

  it('interpolates ${VAR} and ${VAR:-default} inside values only, and keeps $${VAR} literal', () => {
    const c = parseConfig(
      'base_url: ${URL}\nauth:\n  token: "${TOKEN:-fallback}"\n  graphql_url: "$${KEEP}"\n',
      'c.yaml',
      { URL: 'https://x.example/api' },
    );
    expect(c.base_url).toBe('https://x.example/api');
    expect(c.auth?.token).toBe('fallback');
    expect(c.auth?.graphql_url).toBe('${KEEP}');
    // a value containing YAML syntax stays one string
    expect(parseConfig('auth:\n  token: ${T}\n', 'c.yaml', { T: 'a: [b, c]' }).auth?.token).toBe('a: [b, c]');
  });

  it('refuses an unset variable, naming the key and the variable', () => {
    expect(problems('auth:\n  token: ${CONFORMANCE_TOKEN}\n')).toMatch(
      /auth\.token: environment variable CONFORMANCE_TOKEN is not set/,
    );
  });

  it("the starter config is valid, and the repository's example is the starter with base_url unset", () => {
    const starter = starterConfig('./schema/conformance.config.schema.json');
    const parsed = parseConfig(starter, 'starter', {});
    expect(parsed.base_url).toBeUndefined();
    expect(parsed.fixtures?.import_suppliers?.ongoing).toBe('SUPPLIER_ONGOING');
    expect(readFileSync(new URL('../../conformance.config.yaml', import.meta.url), 'utf8')).toBe(starter);
  });

  it('ships JSON Schemas generated from the zod schemas (npm run schemas regenerates them)', () => {
    for (const [name, text] of Object.entries(schemaFiles())) {
      expect(
        readFileSync(new URL(`../../schema/${name}`, import.meta.url), 'utf8'),
        `schema/${name} is stale: run npm run schemas`,
      ).toBe(text);
    }
    const config = JSON.parse(schemaFiles()['conformance.config.schema.json']);
    expect(Object.keys(config.properties)).toEqual([
      '$schema',
      'base_url',
      'auth',
      'headers',
      'tls',
      'fixtures',
      'payloads',
      'account',
      'limits',
      'run',
      'report',
    ]);
    expect(config.additionalProperties).toBe(false);
  });
});

describe('limits: what the target refuses where the spec shows no limit (§2.3, §8)', () => {
  it('global and per-field limits reach the run; a bad field path or value is a configuration error', () => {
    const yaml =
      'limits:\n  max_string_length: 255\n  integer_min: -2147483648\n  integer_max: 2147483647\n  max_items: 100\n  max_body_bytes: 262144\n  fields:\n    display_note: { max_length: 200 }\n    notes.*.body: { max_length: 1000 }\n';
    const r = resolveRun({}, dirWith(yaml), {});
    expect(r.options.limits).toEqual({
      max_string_length: 255,
      integer_min: -2147483648,
      integer_max: 2147483647,
      max_items: 100,
      max_body_bytes: 262144,
      fields: { display_note: { max_length: 200 }, 'notes.*.body': { max_length: 1000 } },
    });
    expect(() => parseConfig('limits:\n  max_items: 0\n', 'x', {})).toThrow(/max_items/);
    expect(() => parseConfig('limits:\n  fields:\n    "a b": { max_length: 3 }\n', 'x', {})).toThrow(
      /limits.fields.a b/,
    );
  });
});

describe('resolving a run: flags > environment > config file > defaults', () => {
  const config =
    'base_url: https://from-config.example\nauth:\n  token: config-token\nrun:\n  concurrency: 3\n  num_runs: 7\nreport:\n  dir: from-config\n';

  it('takes defaults when nothing is set (embedded target)', () => {
    const r = resolveRun({}, dirWith(), {});
    expect(r.options.baseUrl).toBeUndefined();
    expect([r.options.concurrency, r.options.numRuns, r.options.timeoutMs, r.options.idPrefix]).toEqual([
      'auto',
      25,
      10_000,
      'cf',
    ]);
    expect(r.report).toEqual({
      dir: 'conformance-report',
      formats: ['console', 'json', 'junit', 'html', 'markdown', 'ctrf'],
    });
    expect(r.configFile).toBeUndefined();
  });

  it('reads ./conformance.config.yaml, then lets the environment and flags override it', () => {
    const dir = dirWith(config);
    const fromFile = resolveRun({}, dir, {});
    expect([
      fromFile.options.baseUrl,
      fromFile.options.auth?.token,
      fromFile.options.concurrency,
      fromFile.report.dir,
    ]).toEqual(['https://from-config.example', 'config-token', 3, 'from-config']);
    const fromEnv = resolveRun({}, dir, {
      CONFORMANCE_BASE_URL: 'https://from-env.example/',
      CONFORMANCE_TOKEN: 'env-token',
    });
    expect([fromEnv.options.baseUrl, fromEnv.options.auth?.token]).toEqual(['https://from-env.example', 'env-token']);
    const fromFlags = resolveRun(
      { 'base-url': 'http://127.0.0.1:9', concurrency: '5', 'report-dir': 'flag-dir', reporter: ['json,junit'] },
      dir,
      { CONFORMANCE_BASE_URL: 'https://from-env.example' },
    );
    expect([
      fromFlags.options.baseUrl,
      fromFlags.options.concurrency,
      fromFlags.report.dir,
      fromFlags.report.formats,
    ]).toEqual(['http://127.0.0.1:9', 5, 'flag-dir', ['json', 'junit']]);
  });

  it('works from environment variables alone', () => {
    const r = resolveRun({}, dirWith(), { CONFORMANCE_BASE_URL: 'https://env.example', CONFORMANCE_API_KEY: 'k-123' });
    expect([r.options.baseUrl, r.options.auth?.apiKey, r.options.auth?.token]).toEqual([
      'https://env.example',
      'k-123',
      undefined,
    ]);
  });

  it('takes --concurrency auto, and run.concurrency: auto or a number from the file', () => {
    expect(resolveRun({ concurrency: 'auto' } as never, dirWith(), {}).options.concurrency).toBe('auto');
    expect(resolveRun({ concurrency: '12' } as never, dirWith(), {}).options.concurrency).toBe(12);
    expect(resolveRun({}, dirWith('run:\n  concurrency: auto\n'), {}).options.concurrency).toBe('auto');
  });

  it.each([
    [{ concurrency: 'many' }, /--concurrency must be a whole number or "auto", got "many"/],
    [{ concurrency: '0' }, /--concurrency must be between 1 and 256/],
    [{ timeout: '5' }, /--timeout must be between 100/],
    [{ level: ['MAYBE'] }, /--level must be MUST, SHOULD or INFO/],
    [{ reporter: ['pdf'] }, /--reporter must be one of console, json, junit, html, markdown, ctrf/],
    [{ shard: '3/2' }, /--shard must be i\/n/],
    [{ path: '1:2' }, /--path .* needs the --seed/],
    [{ path: 'x', seed: '1' }, /--path must look like/],
    [{ 'base-url': 'localhost:8080' }, /--base-url must be an http\(s\) URL/],
    [{ 'rate-limit': '-1' }, /--rate-limit must be a positive number/],
    [{ 'id-prefix': 'a-b' }, /--id-prefix must be/],
    [{ config: 'missing.yaml' }, /Config file missing\.yaml does not exist/],
  ])('refuses bad flag values: %j', (flags, message) => {
    expect(() => resolveRun(flags as never, dirWith(), {})).toThrow(message);
  });
});
