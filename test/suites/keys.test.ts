import { describe, expect, it } from 'vitest';
import { specText } from '../../core/spec/sections.js';
import { allRules } from '../../suites/index.js';
import { KEYS, keyRules } from '../../suites/keys.js';
import { FAULTS } from '../../reference/index.js';

describe('the key table (suites/keys.ts)', () => {
  const spec = specText();

  it("quotes each key's sentence from the spec verbatim", () => {
    expect(KEYS.filter((k) => !spec.includes(k.quote)).map((k) => k.key)).toEqual([]);
  });

  it('makes one rule per key and neighbouring scope, and says why a key has none', () => {
    const ids = keyRules().map((r) => r.id);
    expect(ids).toEqual(KEYS.flatMap((k) => k.scopes.map((s) => `keys.${k.key}.${s.scope}`)));
    for (const k of KEYS) if (k.scopes.length === 0) expect(k.open, k.key).toMatch(/not shown|not stated|freedom/);
    expect(allRules.filter((r) => r.id.startsWith('keys.')).map((r) => r.id)).toEqual(ids);
  });

  it('names only rules that exist among those already trying a key', () => {
    const known = new Set(allRules.map((r) => r.id));
    expect(KEYS.flatMap((k) => k.triedBy ?? []).filter((id) => !known.has(id))).toEqual([]);
  });

  it('levels a scope below MUST only with a reason', () => {
    for (const s of KEYS.flatMap((k) => k.scopes)) if (s.level !== 'MUST') expect(s.why, s.scope).toBeTruthy();
  });
});

describe('the key faults', () => {
  it('each key scope with a rule has a fault placed where only that rule looks (the kill matrix checks it)', () => {
    const placed = FAULTS.filter((f) => f.id.startsWith('keys.')).flatMap((f) => f.placement?.by ?? []);
    expect(placed.sort()).toEqual(
      keyRules()
        .map((r) => r.id)
        // A business keyed by its attributes alone is already seen by older rules: every business of a
        // run shares name, number and type, so no fault can sit where only this rule looks.
        .filter((id) => id !== 'keys.business.other-identifier')
        .sort(),
    );
  });
});
