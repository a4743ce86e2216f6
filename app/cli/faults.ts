/** `conformance faults`: the fault catalogue of the reference server. */
import type { Command } from './usage.js';
import { parseCommandLine } from './usage.js';

const help = `Usage: conformance faults [--json]

Lists the reference server's fault catalogue: each fault breaks exactly one documented rule (or, at
SHOULD level, one strong reading of the spec). Start
a faulty server with "conformance serve --fault ID" (repeatable) to see what a suite catches.`;

async function run(argv: string[]): Promise<number> {
  const { values } = parseCommandLine(argv, { json: { type: 'boolean' } } as const, 'faults');
  const { FAULTS } = await import('../../reference/index.js');
  if (values.json) {
    console.log(
      JSON.stringify(
        FAULTS.map(({ id, spec, description, subtle, level, why }) => ({
          id,
          spec,
          level: level ?? 'MUST',
          ...(why ? { why } : {}),
          subtle,
          description,
        })),
        null,
        2,
      ),
    );
    return 0;
  }
  const width = FAULTS.reduce((w, f) => Math.max(w, f.id.length), 0);
  for (const f of FAULTS) {
    const level = f.level === 'SHOULD' ? `  (SHOULD level: ${f.why ?? 'breaks a reading'})` : '';
    console.log(
      `${f.id.padEnd(width)}  ${f.subtle ? 'subtle' : '      '}  ${f.spec}\n${' '.repeat(width + 10)}${f.description}${level}`,
    );
  }
  const should = FAULTS.filter((f) => f.level === 'SHOULD').length;
  console.log(
    `\n${FAULTS.length} faults, ${FAULTS.filter((f) => f.subtle).length} subtle; ${FAULTS.length - should} break a stated rule, ${should} only a reading (SHOULD level)`,
  );
  return 0;
}

export const faultsCommand: Command = { help, run };
