import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkTraceability, renderTraceability, specUnits } from '../../src/engine/traceability.js';
import { specText } from '../../src/spec/sections.js';
import { allRules } from '../../suites/index.js';
import { STATEMENTS } from '../../suites/traceability.js';

describe('traceability', () => {
  const problems = checkTraceability(specText(), STATEMENTS, allRules);

  it('covers every line of §2-§9 of the spec', () => {
    expect(specUnits(specText()).length).toBeGreaterThan(200);
    expect(problems.uncovered.map((u) => `§${u.section} line ${u.line}: ${u.text}`)).toEqual([]);
  });

  it('quotes the spec verbatim and names only rules that exist', () => {
    expect(problems.quotesNotInSpec).toEqual([]);
    expect(problems.unknownRules).toEqual([]);
  });

  it('traces every rule to a statement of the spec', () => {
    expect(problems.rulesNotTraced).toEqual([]);
  });

  it('maps every normative statement to a rule, or says why it cannot be checked', () => {
    for (const s of STATEMENTS) {
      if ('rules' in s) expect(s.rules.length, JSON.stringify(s.quote ?? s.table)).toBeGreaterThan(0);
      if ('uncheckable' in s) expect(s.uncheckable.length).toBeGreaterThan(10);
    }
    // Lines that state something the suite judges outnumber everything else by far.
    expect(STATEMENTS.filter((s) => 'rules' in s).length).toBeGreaterThan(90);
  });

  it('docs/traceability.md is the current output of "conformance list --format markdown"', () => {
    expect(readFileSync(new URL('../../docs/traceability.md', import.meta.url), 'utf8'), 'stale: run npm run schemas').toBe(renderTraceability(specText(), STATEMENTS, allRules));
  });

  it('fails when a spec line is left uncovered or a rule is untraced (the check can fail)', () => {
    const fewer = STATEMENTS.filter((s) => !(s.quote ?? []).some((q) => q.startsWith('3. `created_at` defaults')));
    const check = checkTraceability(specText(), fewer, allRules);
    expect(check.uncovered.map((u) => u.text)).toEqual(['3. `created_at` defaults to the current local time.']);
    expect(check.rulesNotTraced).toEqual(['notes.created-at.defaults-to-now']);
  });
});
