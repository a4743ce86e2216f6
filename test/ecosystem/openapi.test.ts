/** `conformance openapi`: an OpenAPI 3.1 document generated from the spec model, valid under a validator. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileErrors, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { openApiDocument } from '../../app/ecosystem/openapi.js';
import { fixtureCatalogue, loadFixture } from '../../core/spec/fixtures.js';
import { packageVersion } from '../../core/spec/package-root.js';
import { model } from '../../core/spec/index.js';
import { runCli } from '../helpers/cli.js';

type Doc = {
  openapi: string;
  info: { version: string; description: string };
  servers: { url: string; variables: Record<string, { default: string }> }[];
  security: Record<string, string[]>[];
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        summary: string;
        description: string;
        parameters?: { name: string; in: string; required: boolean }[];
        requestBody?: {
          content: { 'application/json': { schema: { $ref: string }; examples?: Record<string, { value: unknown }> } };
        };
        responses: Record<string, { description: string; content?: unknown }>;
      }
    >
  >;
  components: {
    schemas: Record<string, Record<string, unknown>>;
    securitySchemes: Record<string, Record<string, string>>;
  };
};

const doc = () => openApiDocument() as unknown as Doc;

describe('openApiDocument', () => {
  it('is a valid OpenAPI 3.1 document (@readme/openapi-parser)', async () => {
    const result = await validate(structuredClone(openApiDocument()) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(doc().openapi).toBe('3.1.0');
  });

  it('describes every endpoint of the model with its documented responses', () => {
    const d = doc();
    expect(d.info.version).toBe(packageVersion());
    expect(d.info.description).toMatch(/data-import-interface\.md/);
    expect(d.servers[0].url).toBe('{base_url}');
    expect(d.servers[0].variables.base_url.default).toMatch(/^http/);
    for (const endpoint of Object.values(model.endpoints)) {
      const op = d.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
      expect(op, endpoint.id).toBeDefined();
      expect(op.operationId).toBe(endpoint.id);
      expect(op.summary).toBe(endpoint.title);
      expect(op.description).toContain(endpoint.spec);
      expect(Object.keys(op.responses).sort()).toEqual(endpoint.responses.map((r) => String(r.status)).sort());
      for (const r of endpoint.responses) {
        const response = op.responses[String(r.status)];
        if (typeof r.body === 'string') expect(response.content, `${endpoint.id} ${r.status}`).toBeUndefined();
        else expect(response.content, `${endpoint.id} ${r.status}`).toBeDefined();
      }
      expect(op.responses['401'].description).toMatch(/token/);
      if (endpoint.body)
        expect(op.requestBody?.content['application/json'].schema.$ref).toMatch(/^#\/components\/schemas\//);
    }
    const status = d.paths[model.endpoints.accountTransferStatus.path].get;
    expect(status.parameters?.map((p) => [p.name, p.in, p.required])).toEqual([
      ['import_supplier_code', 'path', true],
      ['external_account_number', 'path', true],
    ]);
    const transactions = d.paths[model.endpoints.createTransactions.path].post;
    expect(transactions.parameters?.map((p) => [p.name, p.in, p.required])).toEqual([
      ['check_previously_added', 'query', false],
      ['force_add_to_current_statement', 'query', false],
    ]);
  });

  it('takes components from the named schemas: requests closed, responses open, presence and section kept', () => {
    const { schemas } = doc().components;
    expect(schemas.AccountPayload.additionalProperties).toBe(false);
    expect(schemas.NotesRequest.required).toEqual(['import_supplier', 'external_account_number', 'notes']);
    expect(schemas.StageAccountResponse.additionalProperties).not.toBe(false);
    expect(schemas.AccountPayload['x-spec']).toBe('§2.3 account payload');
    const properties = schemas.AccountPayload.properties as Record<string, Record<string, unknown>>;
    expect(properties.external_account_number['x-presence']).toBe('required');
    expect(properties.billing_name['x-presence']).toBe('unspecified');
    expect(JSON.stringify(schemas)).not.toMatch(/"(presence|spec|why|seen)":/);
    expect(schemas.AlreadyImportedBody).toBeDefined();
  });

  it('applies the §5 token scheme globally', () => {
    const d = doc();
    const [[name, scheme]] = Object.entries(d.components.securitySchemes);
    expect(scheme).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    expect(scheme.description).toMatch(/Token <ACCESS_TOKEN>/);
    expect(d.security).toEqual([{ [name]: [] }]);
  });

  it('shows every canonical fixture as an example that satisfies its component schema', () => {
    const d = doc();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addFormat('phone', true).addFormat('decimal', true);
    for (const [id, schema] of Object.entries(d.components.schemas))
      ajv.addSchema(schema, `#/components/schemas/${id}`);
    const examples = new Set<string>();
    for (const item of Object.values(d.paths)) {
      for (const op of Object.values(item)) {
        const content = op.requestBody?.content['application/json'];
        for (const [name, example] of Object.entries(content?.examples ?? {})) {
          const check = ajv.getSchema(content!.schema.$ref)!;
          expect(check(example.value), `${op.operationId} ${name}: ${ajv.errorsText(check.errors)}`).toBe(true);
          examples.add(name);
        }
      }
    }
    expect(examples.size).toBe(fixtureCatalogue.length);
    expect(
      d.paths[model.endpoints.stageAccount.path].post.requestBody?.content['application/json'].examples?.[
        'accounts-minimal'
      ].value,
    ).toEqual(loadFixture('accounts/minimal'));
  });
});

describe('conformance openapi', () => {
  it('prints YAML, or JSON with --format json, and writes a file with --out', async () => {
    const yamlRun = await runCli(['openapi']);
    expect(yamlRun.code, yamlRun.stderr).toBe(0);
    expect(parseYaml(yamlRun.stdout)).toEqual(JSON.parse(JSON.stringify(openApiDocument())));

    const jsonRun = await runCli(['openapi', '--format', 'json']);
    expect(jsonRun.code).toBe(0);
    expect(JSON.parse(jsonRun.stdout).openapi).toBe('3.1.0');

    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    const written = await runCli(['openapi', '--out', 'docs/openapi.yaml'], { cwd: dir });
    expect(written.code, written.stderr).toBe(0);
    // One operation per endpoint of the model, counted from it: an endpoint added changes no test.
    const operations = Object.keys(model.endpoints).length;
    expect(written.stdout).toMatch(
      new RegExp(`Wrote the OpenAPI 3\\.1 document \\(${operations} operations\\) to .*docs/openapi\\.yaml`),
    );
    expect(parseYaml(readFileSync(join(dir, 'docs/openapi.yaml'), 'utf8')).info.title).toBe(
      'Customer Data-Import Service',
    );
  }, 60_000);

  it('refuses an unknown format with exit 2', async () => {
    const res = await runCli(['openapi', '--format', 'xml']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--format must be yaml or json/);
  });
});
