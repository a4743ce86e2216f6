/**
 * A rule family that probes one endpoint mirrors one fault, and misses the same fault elsewhere.
 * Each family that judges what a request does to the state (the refusals, the races, the echoes, the
 * dedup rules) reaches at least two state-changing endpoints, and the refusal families
 * (suites/refused-*.ts, suites/auth-refused.ts) are generated from the spec model: every POST
 * endpoint the oracle can judge has its rule, so a new endpoint gets one for free.
 */
import { describe, expect, it } from 'vitest';
import { observable, probeOf, scopeOf } from '../../core/engine/drivers.js';
import { endpointSlug, model } from '../../core/spec/index.js';
import { allRules } from '../../suites/index.js';

const POST = new Set(
  Object.values(model.endpoints)
    .filter((e) => e.method === 'POST')
    .map((e) => e.id as string),
);

const FAMILIES: [family: string, member: (id: string, tags: readonly string[]) => boolean][] = [
  ['401 refused has no effect', (id) => id.startsWith('auth.refused-has-no-effect.')],
  ['400 validation refused has no effect', (id) => id.startsWith('refused.validation.')],
  ['404 unknown account refused has no effect', (id) => id.startsWith('refused.unknown-account.')],
  ['staging and process refused have no effect', (id) => /^refused\.(stage|process)\./.test(id)],
  ['races', (_id, tags) => tags.includes('races')],
  ['echo fidelity', (id) => id.endsWith('.echo-fidelity')],
  ['dedup', (id) => /(^|\.)dedup(\.|$)/.test(id)],
];

describe('each rule family reaches at least two state-changing endpoints', () => {
  it.each(FAMILIES)('%s', (_family, member) => {
    const rules = allRules.filter((r) => member(r.id, r.tags ?? []));
    expect(rules.length).toBeGreaterThan(0);
    const endpoints = new Set(rules.flatMap((r) => r.endpoints).filter((e) => POST.has(e)));
    expect([...endpoints].length, [...endpoints].join(', ')).toBeGreaterThanOrEqual(2);
  });

  it('the refusal families are generated from the model: every POST endpoint the oracle can judge has its rule', () => {
    const ids = new Set(allRules.map((r) => r.id));
    for (const e of Object.values(model.endpoints).filter((x) => x.method === 'POST')) {
      expect(ids.has(`auth.refused-has-no-effect.${endpointSlug(e.id)}`), e.id).toBe(true);
      if (probeOf(e.id, { body: {} }) !== undefined)
        expect(ids.has(`refused.validation.${endpointSlug(e.id)}`), `refused.validation.${e.id}`).toBe(true);
    }
    // Every endpoint about an imported account, its effect observable or not: derived from the drivers, not listed.
    const accountEndpoints = Object.values(model.endpoints).filter(
      (e) => e.method === 'POST' && scopeOf(e.id) === 'imported',
    );
    expect(accountEndpoints.filter((e) => !observable(e.id)).length).toBeGreaterThan(0);
    for (const e of accountEndpoints) expect(ids.has(`refused.unknown-account.${endpointSlug(e.id)}`), e.id).toBe(true);
  });
});
