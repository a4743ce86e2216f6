// Regenerates schema/*.json from the zod schemas (run after changing them: npm run schemas).
import { writeFileSync } from 'node:fs';
import { schemaFiles } from '../dist/src/config/json-schema.js';
import { starterConfig } from '../dist/src/config/starter.js';

for (const [name, text] of Object.entries(schemaFiles())) writeFileSync(new URL(`../schema/${name}`, import.meta.url), text);
writeFileSync(new URL('../conformance.config.yaml', import.meta.url), starterConfig('./schema/conformance.config.schema.json'));
console.log('wrote schema/*.json and conformance.config.yaml');
