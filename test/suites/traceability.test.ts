import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  checkNormative,
  checkTraceability,
  covers,
  inSpecOrder,
  isNormative,
  renderTraceability,
  specUnits,
} from '../../core/engine/traceability.js';
import { defineRules } from '../../core/engine/rule.js';
import { specText } from '../../core/spec/sections.js';
import { allRules, areaStatements } from '../../suites/index.js';
import { STATEMENTS, TRACE } from '../../suites/traceability.js';

describe('traceability', () => {
  const problems = checkTraceability(specText(), TRACE, allRules);

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
    for (const s of TRACE) {
      if ('rules' in s) expect(s.rules.length, JSON.stringify(s.quote ?? s.table)).toBeGreaterThan(0);
      if ('uncheckable' in s) expect(s.uncheckable.length).toBeGreaterThan(10);
    }
    // Lines that state something the suite judges outnumber everything else by far.
    expect(TRACE.filter((s) => 'rules' in s).length).toBeGreaterThan(90);
  });

  it("places an area's own statements at their line of the spec, among the map's", () => {
    const units = specUnits(specText());
    const line = (s: (typeof TRACE)[number]) => units.findIndex((u) => covers(s, u));
    expect(areaStatements.length).toBeGreaterThan(0);
    for (const s of areaStatements) {
      const at = TRACE.indexOf(s);
      expect(line(TRACE[at - 1]!)).toBeLessThanOrEqual(line(s));
      expect(line(TRACE[at + 1]!)).toBeGreaterThan(line(s));
    }
    // Appended at the end instead, a §4.2 statement would open a second §4.2 table after §9's.
    const appended = renderTraceability(specText(), [...STATEMENTS, ...areaStatements], allRules);
    expect(appended.match(/^## §4\.2$/gm)).toHaveLength(2);
    expect(
      renderTraceability(specText(), inSpecOrder(specText(), STATEMENTS, areaStatements), allRules).match(
        /^## §4\.2$/gm,
      ),
    ).toHaveLength(1);
  });

  it('docs/traceability.md is the current output of "conformance list --format markdown"', () => {
    expect(
      readFileSync(new URL('../../docs/traceability.md', import.meta.url), 'utf8'),
      'stale: run npm run schemas',
    ).toBe(renderTraceability(specText(), TRACE, allRules));
  });

  it('fails when a spec line is left uncovered or a rule is untraced (the check can fail)', () => {
    const fewer = TRACE.filter((s) => !(s.quote ?? []).some((q) => q.startsWith('3. `created_at` defaults')));
    const check = checkTraceability(specText(), fewer, allRules);
    expect(check.uncovered.map((u) => u.text)).toEqual(['3. `created_at` defaults to the current local time.']);
    expect(check.rulesNotTraced).toEqual(['notes.created-at.defaults-to-now']);
  });

  describe('the guard: every MUST rule stands on a normative statement, never on an example', () => {
    it('each MUST rule is named by a statement that states, not shows, and cites its section', () => {
      const guard = checkNormative(specText(), TRACE, allRules);
      expect(guard.mustWithoutNormativeStatement, 'MUST rules no normative statement names').toEqual([]);
      expect(
        guard.mustCitingNoNormativeSection,
        'MUST rules whose spec field cites no section of their normative statements',
      ).toEqual([]);
      expect(
        guard.mustOnNonNormativeStatement,
        'MUST rules hanging on an example, a "seen" value or a "not shown" statement',
      ).toEqual([]);
    });

    it('classifies "not shown", "seen" and example fragments as not normative, and tables by their rows', () => {
      const units = specUnits(specText());
      const byQuote = (q: string) => TRACE.find((s) => (s.quote ?? []).includes(q))!;
      expect(
        isNormative(
          { section: '7.1', quote: ['One example code is `account_failed_validation`.'], rules: ['x'] },
          units,
        ),
      ).toBe(false);
      expect(
        isNormative(
          {
            section: '2.4',
            quote: ['Which reasons and payment types are valid for each transaction type: not shown.'],
            rules: ['x'],
          },
          units,
        ),
      ).toBe(false);
      expect(
        isNormative(
          { section: '2.4', quote: ['Line item: `rate_band` (string, `CONSUMPTION_STANDARD` seen)'], rules: ['x'] },
          units,
        ),
      ).toBe(false);
      expect(
        isNormative(byQuote('2. A note is created only if no note on the account has the same `body`'), units),
      ).toBe(true);
      // The §2.4 table states the five types even though two of its rows only show values "seen".
      expect(isNormative(TRACE.find((s) => s.table === '### 2.4 Transaction')!, units)).toBe(true);
      expect(
        isNormative(
          { section: '2.2', quote: ['Other fields of the import supplier record: not shown.'], freedom: 'x' },
          units,
        ),
      ).toBe(false);
    });

    it('fails a MUST rule that cites only an example, a seen value or a "not shown" statement (the check can fail)', () => {
      const [exampleRule, seenRule, unstated] = defineRules('probe', [
        {
          id: 'probe.example-code',
          spec: '§7.1',
          level: 'MUST',
          title: 'The top-level code is account_failed_validation',
          endpoints: ['validateAccount'],
          check: async () => undefined,
        },
        {
          id: 'probe.seen-reason',
          spec: '§2.4',
          level: 'MUST',
          title: 'Reason IMPORTED_CHARGE is accepted',
          endpoints: ['createTransactions'],
          check: async () => undefined,
        },
        {
          id: 'probe.unstated',
          spec: '§4.2',
          level: 'MUST',
          title: 'Named by nothing',
          endpoints: ['createNotes'],
          check: async () => undefined,
        },
      ]);
      const statements = [
        ...TRACE,
        { section: '7.1', quote: ['One example code is `account_failed_validation`.'], rules: ['probe.example-code'] },
        { section: '2.4', quote: ['values seen: `IMPORTED_CHARGE`'], rules: ['probe.seen-reason'] },
      ];
      const guard = checkNormative(specText(), statements, [...allRules, exampleRule, seenRule, unstated]);
      expect(guard.mustWithoutNormativeStatement.sort()).toEqual([
        'probe.example-code',
        'probe.seen-reason',
        'probe.unstated',
      ]);
      expect(guard.mustOnNonNormativeStatement.map((p) => p.rule).sort()).toEqual([
        'probe.example-code',
        'probe.seen-reason',
      ]);
      // The same rules at INFO are what the spec allows.
      const relevelled = [exampleRule, seenRule, unstated].map((r) => ({
        ...r,
        level: 'INFO' as const,
        why: 'shown, not stated',
      }));
      const fine = checkNormative(specText(), statements, [...allRules, ...relevelled]);
      expect([fine.mustWithoutNormativeStatement, fine.mustOnNonNormativeStatement]).toEqual([[], []]);
    });

    it('fails a MUST rule whose spec field cites another section than the statements naming it', () => {
      const [misplaced] = defineRules('probe', [
        {
          id: 'probe.misplaced',
          spec: '§9.1',
          level: 'MUST',
          title: 'x',
          endpoints: ['createNotes'],
          check: async () => undefined,
        },
      ]);
      const statements = [
        ...TRACE,
        { section: '4.2', quote: ['1. The account must be imported, not merely staged.'], rules: ['probe.misplaced'] },
      ];
      expect(checkNormative(specText(), statements, [...allRules, misplaced]).mustCitingNoNormativeSection).toEqual([
        'probe.misplaced',
      ]);
    });
  });
});
