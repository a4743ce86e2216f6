/** `conformance list`: every rule with its id, spec section, level, title and needs. */
import type { Command } from './usage.js';
import { UsageError, parseCommandLine } from './usage.js';

const help = `Usage: conformance list [options]

Lists every rule: id, spec section, level, title and the fixtures it needs.

Options:
  --json                   one JSON array (same as --format json)
  --format table|json|markdown
                           markdown prints the traceability table: every statement of §2-§9
                           of the spec and the rules that check it (docs/traceability.md)
  --rule ID|GLOB, --section S, --level L, --tag T
                           list only these (as for the run command)`;

const options = {
  json: { type: 'boolean' },
  format: { type: 'string' },
  rule: { type: 'string', multiple: true },
  section: { type: 'string', multiple: true },
  level: { type: 'string', multiple: true },
  tag: { type: 'string', multiple: true },
} as const;

async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, options, 'list');
  const format = values.json ? 'json' : (values.format ?? 'table');
  if (!['table', 'json', 'markdown'].includes(format))
    throw new UsageError(`--format must be table, json or markdown, got "${format}".`, 'list');
  const levels = (values.level ?? []).map((l) => l.toUpperCase());
  for (const l of levels)
    if (!['MUST', 'SHOULD', 'INFO'].includes(l))
      throw new UsageError(`--level must be MUST, SHOULD or INFO, got "${l}".`, 'list');

  const [{ allRules }, { selectRules }, { ruleCatalogue, renderRuleTable }] = await Promise.all([
    import('../../suites/index.js'),
    import('../../core/engine/select.js'),
    import('../../core/engine/catalogue.js'),
  ]);
  const { withCurrentIds } = await import('../../core/engine/renamed.js');
  const read = values.rule && withCurrentIds(values.rule, new Set(allRules.map((r) => r.id)), '--rule');
  for (const note of read ? read.notes : []) console.error(`conformance: warning: ${note}`);
  const { rules, unmatched } = selectRules(allRules, {
    rules: read ? read.values : undefined,
    sections: values.section,
    levels: levels as never,
    tags: values.tag,
  });
  if (unmatched.length) throw new UsageError(`Nothing matches ${unmatched.join(', ')}.`, 'list');
  if (format === 'json') console.log(JSON.stringify(ruleCatalogue(rules), null, 2));
  else if (format === 'markdown') {
    const [{ renderTraceability }, { TRACE }, { specText }] = await Promise.all([
      import('../../core/engine/traceability.js'),
      import('../../suites/traceability.js'),
      import('../../core/spec/sections.js'),
    ]);
    process.stdout.write(renderTraceability(specText(), TRACE, rules));
  } else console.log(renderRuleTable(rules));
  return 0;
}

export const listCommand: Command = { help, run };
