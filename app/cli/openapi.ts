/** `conformance openapi`: the interface as an OpenAPI 3.1 document, generated from the spec model. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from './usage.js';
import { EXIT, UsageError, parseCommandLine } from './usage.js';

const help = `Usage: conformance openapi [options]

Prints the data-import interface as an OpenAPI 3.1 document, generated from the suite's spec
model: every endpoint of the spec (§4) with its parameters, request body (the canonical fixtures
as examples), every documented response, the named schemas as components and the §5 token scheme.
x-presence / x-spec tell what the spec documents and what is the suite's reading.

Options:
  --out FILE             write the document to FILE instead of printing it
  --format yaml|json     output format (default: yaml, or json when FILE ends in .json)

Examples:
  npx conformance openapi --out openapi.yaml
  npx conformance openapi --format json > openapi.json`;

const options = {
  out: { type: 'string' },
  format: { type: 'string' },
} as const;

async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, options, 'openapi');
  const format = values.format ?? (values.out?.toLowerCase().endsWith('.json') ? 'json' : 'yaml');
  if (format !== 'yaml' && format !== 'json')
    throw new UsageError(`--format must be yaml or json, got "${format}".`, 'openapi');
  if (values.out === '') throw new UsageError('--out needs a file name.', 'openapi');

  const { openApiDocument } = await import('../ecosystem/openapi.js');
  const document = openApiDocument();
  const text =
    format === 'json'
      ? `${JSON.stringify(document, null, 2)}\n`
      : (await import('yaml')).stringify(document, { lineWidth: 0, aliasDuplicateObjects: false });

  if (values.out === undefined) {
    process.stdout.write(text);
    return EXIT.OK;
  }
  const file = resolve(process.cwd(), values.out);
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  } catch (error) {
    throw new UsageError(
      `cannot write ${values.out}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      'openapi',
    );
  }
  const operations = Object.values((document as { paths: Record<string, object> }).paths).reduce(
    (n, item) => n + Object.keys(item).length,
    0,
  );
  console.log(`Wrote the OpenAPI 3.1 document (${operations} operations) to ${file}`);
  return EXIT.OK;
}

export const openapiCommand: Command = { help, run };
