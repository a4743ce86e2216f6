import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { FAULTS, VARIANT_PROFILES } from '../../reference/index.js';
import { allRules } from '../../suites/index.js';
import { model } from '../../core/spec/index.js';
import { endpointsWithoutOwnFault } from '../../reference/faults/reach.js';
import {
  placementProblems,
  renderKillMatrixMarkdown,
  runKillMatrix,
  uncaughtRules,
} from '../../app/mutation/kill-matrix.js';
import { NOT_YET_CAUGHT } from '../../reference/faults/uncaught.js';
import { familyFaults } from '../../reference/faults/families.js';

describe('MUST rules no fault makes fail', () => {
  const known = { 'notes.b': 'no fault yet' };

  it('are named unless listed with why, so a rule added without a fault is not silent', () => {
    const caught = new Set(['notes.a']);
    expect(uncaughtRules(['notes.a', 'notes.b', 'meter-reads.c'], caught, known, true)).toEqual({
      uncaught: ['notes.b', 'meter-reads.c'],
      unlisted: ['meter-reads.c'],
      stale: [],
    });
  });

  it('call an entry stale once a fault makes its rule fail, or its rule is gone from the whole suite', () => {
    expect(uncaughtRules(['notes.a', 'notes.b'], new Set(['notes.a', 'notes.b']), known, true).stale).toEqual([
      'notes.b',
    ]);
    expect(uncaughtRules(['notes.a'], new Set(['notes.a']), known, true).stale).toEqual(['notes.b']);
    // A selection that leaves the listed rule out does not judge its entry.
    expect(uncaughtRules(['notes.a'], new Set(['notes.a']), known, false).stale).toEqual([]);
  });

  it('are listed by id: each entry names a MUST rule of the suite, with a reason', () => {
    const must = new Set(allRules.filter((r) => r.level === 'MUST').map((r) => r.id));
    for (const [id, why] of Object.entries(NOT_YET_CAUGHT)) {
      expect(must, id).toContain(id);
      expect(why.length, id).toBeGreaterThan(20);
    }
  });

  it('include no rule of a family every endpoint gets a fault for (families.ts)', () => {
    const families = new Set(familyFaults.map((f) => f.family));
    expect(families).toEqual(new Set(['auth.open', 'errors.crash-on-non-object', 'relations.lookup-case-insensitive']));
    expect(
      Object.keys(NOT_YET_CAUGHT).filter((id) => /^auth\.401\.|^errors\.bad-input\.no-5xx\.(?!read)/.test(id)),
    ).toEqual([]);
  });
});

describe('a fault placed where only a family looks', () => {
  const placed = { level: 'MUST' as const, placement: { by: ['refused.x.a'], beside: ['refused.'] } };
  const all = () => true;

  it('holds when its rules catch it at its level and only rules beside them fail too', () => {
    expect(placementProblems(placed, [{ rule: 'refused.x.a', level: 'MUST' }], all)).toEqual([]);
    expect(
      placementProblems(
        placed,
        [
          { rule: 'refused.x.a', level: 'MUST' },
          { rule: 'refused.y.b', level: 'MUST' },
        ],
        all,
      ),
    ).toEqual([]);
    expect(placementProblems({ level: 'MUST' }, [{ rule: 'notes.any', level: 'MUST' }], all)).toEqual([]);
  });

  it('does not hold when an older rule catches it, or its rule misses it or catches it at another level', () => {
    expect(
      placementProblems(
        placed,
        [
          { rule: 'refused.x.a', level: 'MUST' },
          { rule: 'notes.older', level: 'MUST' },
        ],
        all,
      ),
    ).toEqual(['notes.older caught it too: an older rule sees it where it is placed']);
    expect(placementProblems(placed, [], all)).toEqual(['refused.x.a did not catch it']);
    expect(placementProblems(placed, [{ rule: 'refused.x.a', level: 'SHOULD' }], all)).toEqual([
      'refused.x.a caught it at SHOULD, not MUST',
    ]);
    // A rule the run did not select cannot be asked to catch anything.
    expect(placementProblems(placed, [], () => false)).toEqual([]);
  });

  it('is checked in the matrix, and what breaks a placement is named in the Markdown', async () => {
    const held = await runKillMatrix({
      faults: ['auth.notes-stored-on-401'],
      workers: 0,
      selection: { rules: ['auth.refused-has-no-effect.create-notes', 'notes.create.*'] },
    });
    expect(held.faults[0].misplaced).toBeUndefined();
    expect(held.ok).toBe(true);
    // A placement that did not hold is named in the Markdown with what broke it.
    const rendered = renderKillMatrixMarkdown({
      ...held,
      faults: [
        { ...held.faults[0], misplaced: ['notes.older caught it too: an older rule sees it where it is placed'] },
      ],
      totals: { ...held.totals, misplaced: ['auth.notes-stored-on-401'] },
      ok: false,
    });
    expect(rendered).toMatch(
      /\*\*Placed where only a family looks, but:\*\*\n- `auth\.notes-stored-on-401`: notes\.older caught it too/,
    );
  });
});

describe('the kill matrix', () => {
  it('reports each fault with the rules that caught it, and both faithful modes clean', async () => {
    const matrix = await runKillMatrix({
      faults: ['notes.dedup-body-only', 'errors.attr-one-based'],
      workers: 0,
      selection: { rules: ['notes.*', 'errors.*'] },
    });
    expect(matrix.faithful.failed).toEqual([]);
    expect(matrix.variant.failed).toEqual([]);
    expect(matrix.faults.find((f) => f.id === 'notes.dedup-body-only')?.caughtBy).toContain(
      'notes.dedup.other-created-at-creates',
    );
    expect(matrix.faults.find((f) => f.id === 'errors.attr-one-based')?.caughtBy).toContain(
      'errors.attr.zero-based-nested',
    );
    expect(matrix.ok).toBe(true);
    const md = renderKillMatrixMarkdown(matrix);
    expect(md).toMatch(/^# Kill matrix ✅/);
    expect(md).toMatch(/2 of 2 faults caught: 2 by a MUST rule, 0 only by SHOULD rules/);
  });

  it('runs every variant profile, and lists a SHOULD rule a profile reads otherwise without counting it against the profile', async () => {
    const matrix = await runKillMatrix({
      faults: ['transactions.check-flag-ignored'],
      workers: 0,
      selection: { rules: ['transactions.dedup.*'] },
    });
    // Every profile of the catalogue, in its order: a profile added is run without this test naming it.
    expect(matrix.variants.map((v) => (v.target.kind === 'variant' ? v.target.profile : v.target.kind))).toEqual(
      VARIANT_PROFILES.map((p) => p.id),
    );
    expect(VARIANT_PROFILES.length).toBeGreaterThan(1);
    for (const v of matrix.variants) expect([v.failed, v.errored], JSON.stringify(v.target)).toEqual([[], []]);
    expect(matrix.variant.otherReadings?.map((o) => o.rule)).toEqual(['transactions.dedup.check-false']);
    expect(matrix.faults[0]).toMatchObject({ id: 'transactions.check-flag-ignored', caughtByMust: true });
    expect(matrix.ok).toBe(true);
    expect(renderKillMatrixMarkdown(matrix)).toMatch(
      /\*\*variant\*\* takes the other reading of `transactions\.dedup\.check-false` \(SHOULD, expected\)/,
    );
  });

  it('fails when a fault is caught by no rule', async () => {
    const matrix = await runKillMatrix({
      faults: ['notes.dedup-body-only'],
      workers: 0,
      selection: { rules: ['auth.401.create-notes'] },
    });
    expect(matrix.totals.missed).toEqual(['notes.dedup-body-only']);
    expect(matrix.ok).toBe(false);
    expect(renderKillMatrixMarkdown(matrix)).toMatch(/\*\*Missed:\*\* `notes\.dedup-body-only`/);
  });

  it('fails when a fault breaking a stated rule is caught only by SHOULD rules, and shows the split', async () => {
    const matrix = await runKillMatrix({
      faults: ['additions.supply-points-field-attrs', 'auth.bearer-accepted'],
      workers: 0,
      selection: { rules: ['additions.supply-points.non-field-errors-only', 'auth.other-schemes.refused'] },
    });
    const row = (id: string) => matrix.faults.find((f) => f.id === id)!;
    expect(row('additions.supply-points-field-attrs')).toMatchObject({
      level: 'MUST',
      caughtByMust: false,
      caughtOnlyByShould: true,
      caughtByMustRules: [],
    });
    expect(row('auth.bearer-accepted')).toMatchObject({
      level: 'SHOULD',
      caughtByMust: false,
      caughtOnlyByShould: true,
    });
    expect(matrix.totals).toMatchObject({
      caught: 2,
      caughtByMust: 0,
      caughtOnlyByShould: 2,
      mustLevel: 1,
      shouldLevel: 1,
      missed: [],
      mustLevelCaughtOnlyByShould: ['additions.supply-points-field-attrs'],
    });
    expect(matrix.ok).toBe(false);
    const md = renderKillMatrixMarkdown(matrix);
    expect(md).toMatch(/2 of 2 faults caught: 0 by a MUST rule, 2 only by SHOULD rules/);
    expect(md).toMatch(
      /\*\*Breaks a stated rule but caught only by SHOULD rules:\*\* `additions\.supply-points-field-attrs`/,
    );
    expect(md).toMatch(/\| Fault \| Spec \| Level \| Subtle \| Caught by MUST rules \| Caught by SHOULD rules \|/);
  });

  it('a SHOULD-level fault says why it is not MUST', () => {
    for (const f of FAULTS) if (f.level === 'SHOULD') expect(f.why?.length ?? 0, f.id).toBeGreaterThan(20);
  });

  it('has at least 60 faults, half of them subtle, over every section and every endpoint', () => {
    expect(FAULTS.length).toBeGreaterThanOrEqual(60);
    expect(FAULTS.filter((f) => f.subtle).length * 2).toBeGreaterThanOrEqual(FAULTS.length);
    const sections = new Set(FAULTS.flatMap((f) => [...f.spec.matchAll(/§(\d+)/g)].map((m) => m[1])));
    for (const s of ['2', '3', '4', '5', '7', '8']) expect(sections, `a fault of §${s}`).toContain(s);
    for (const f of FAULTS) {
      expect(f.description, f.id).toMatch(/^\S.{10,}\.$/);
      expect(f.id).toMatch(/^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/);
    }
    // By name: a wrapper around every endpoint (a §7.1 body rewrite) is no fault of any one of them.
    expect(endpointsWithoutOwnFault(Object.keys(model.endpoints), FAULTS)).toEqual([]);
  });

  it("names each fault by the area of the rules that catch it, and keeps it in that area's file", () => {
    const areas = new Set(allRules.map((r) => r.id.split('.')[0]));
    const files = new Set(readdirSync(new URL('../../reference/faults/', import.meta.url)));
    for (const f of FAULTS) {
      const area = f.id.split('.')[0];
      expect(areas, f.id).toContain(area);
      // A family generated for every endpoint (families.ts) is named by its family, one per endpoint.
      if (f.family) {
        expect(f.id.startsWith(`${f.family}.`), f.id).toBe(true);
        continue;
      }
      expect(files, f.id).toContain(`${area}.ts`);
      expect(readFileSync(new URL(`../../reference/faults/${area}.ts`, import.meta.url), 'utf8'), f.id).toContain(
        `id: '${f.id}'`,
      );
    }
  });

  it('rejects unknown fault ids', async () => {
    await expect(runKillMatrix({ faults: ['no.such-fault'], workers: 0 })).rejects.toThrow(
      /Unknown fault no\.such-fault/,
    );
  });

  it('the command names an unknown fault as a usage error (exit 2), without a stack trace', async () => {
    const res = await runCli(['mutation', '--fault', 'no.such-fault']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--fault: unknown fault "no\.such-fault" \(see "conformance faults"\)/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});
