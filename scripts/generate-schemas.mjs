// Regenerates the files derived from code (run after changing the schemas, rules, freedoms, or — once
// the model is reviewed against it — the spec copy: npm run schemas): schema/*.json,
// conformance.config.yaml, docs/freedoms.md and docs/traceability.md (which records the spec copy's
// digest: test/spec/model.test.ts fails while the copy differs from the one the model was last reviewed
// against, so a changed spec is never taken unreviewed).
import { mkdirSync, writeFileSync } from 'node:fs';
import { schemaFiles } from '../dist/core/report/json-schema.js';
import { starterConfig } from '../dist/core/config/starter.js';
import { renderFreedoms } from '../dist/reference/freedoms.js';
import { renderTraceability } from '../dist/core/engine/traceability.js';
import { TRACE } from '../dist/suites/traceability.js';
import { allRules } from '../dist/suites/index.js';
import { specText } from '../dist/core/spec/sections.js';

const write = (path, text) => writeFileSync(new URL(`../${path}`, import.meta.url), text);
for (const [name, text] of Object.entries(schemaFiles())) write(`schema/${name}`, text);
write('conformance.config.yaml', starterConfig('./schema/conformance.config.schema.json'));
mkdirSync(new URL('../docs', import.meta.url), { recursive: true });
write('docs/freedoms.md', renderFreedoms());
write('docs/traceability.md', renderTraceability(specText(), TRACE, allRules));
console.log('wrote schema/*.json, conformance.config.yaml, docs/freedoms.md and docs/traceability.md');
