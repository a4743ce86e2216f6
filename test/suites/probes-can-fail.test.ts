/**
 * A probe must be able to fail. Every driver whose effect is observable offers a probe that sends
 * the request again and expects a first request's answer (core/engine/drivers.ts); the refusal
 * families trust it to show that a refused request left nothing. A probe that passes after the
 * request was accepted sees nothing — a vacuous probe, or a reference server that keeps nothing
 * (its de-duplication removed) — and every "refused means nothing happened" verdict standing on it
 * would be empty. So each probe is run after an accepted request, against the faithful reference
 * server, and must fail.
 */
import { describe, expect, it } from 'vitest';
import { runAgainstReference } from '../../app/against-reference.js';
import { acceptedStatuses, CATALOGUE, type EndpointDriver, observes, probeFrom } from '../../core/engine/drivers.js';
import type { RuleContext } from '../../core/engine/context.js';
import { RuleFailure } from '../../core/engine/failures.js';
import { defineRules } from '../../core/engine/rule.js';
import { acceptedNeeds, subjectFor } from '../../core/engine/subject.js';
import { endpointSlug } from '../../core/spec/index.js';

const observed = CATALOGUE.endpoints.filter((e) => observes(CATALOGUE.drivers[e.id]));

/** A rule that passes when the probe of `driver` fails after the valid request was accepted. */
const probeFails = (endpoint: (typeof observed)[number], driver: EndpointDriver) => ({
  id: `probes.${endpointSlug(endpoint.id)}`,
  spec: endpoint.spec,
  level: 'MUST' as const,
  title: `the probe of ${endpoint.id} fails once the request was accepted`,
  endpoints: [endpoint.id],
  needs: acceptedNeeds(driver),
  async check(ctx: RuleContext) {
    const { request, account } = await subjectFor(ctx, driver, true);
    const res = await ctx.api.call(endpoint.id, { ...request, step: 'the valid request, accepted' });
    ctx.expect.status(res, acceptedStatuses(driver), 'the valid request');
    const probe = probeFrom(driver, request, account);
    if (!probe) throw new Error(`${endpoint.id}: its driver offers no probe for this subject`);
    try {
      await probe.run(ctx);
    } catch (error) {
      if (error instanceof RuleFailure) return;
      throw error;
    }
    ctx.expect.that(false, `the probe "${probe.what}" passed after the request was accepted: it sees no effect`);
  },
});

describe('every observable driver probe can fail', () => {
  it('has observable drivers to check', () => {
    expect(observed.length).toBeGreaterThanOrEqual(5);
  });

  it('each probe, run after its request was accepted, fails on the faithful reference server', async () => {
    const rules = defineRules(
      'probes',
      observed.map((e) => probeFails(e, CATALOGUE.drivers[e.id])),
    );
    const { report } = await runAgainstReference({ auth: 'token' }, { rules, seed: 3, numRuns: 1 });
    const verdicts = Object.fromEntries(
      report.rules.map((r) => [r.id, r.verdict === 'pass' ? 'pass' : `${r.verdict}: ${r.reason}`]),
    );
    expect(verdicts).toEqual(Object.fromEntries(rules.map((r) => [r.id, 'pass'])));
  }, 60_000);

  it('a vacuous probe is named: one that expects nothing passes after the request', async () => {
    const [notes] = observed.filter((e) => e.id === 'createNotes');
    const vacuous: EndpointDriver = {
      ...CATALOGUE.drivers.createNotes,
      effect: { probe: () => ({ what: 'nothing', run: async () => undefined }) },
    };
    const rules = defineRules('probes', [probeFails(notes, vacuous)]);
    const { report } = await runAgainstReference({ auth: 'token' }, { rules, seed: 3, numRuns: 1 });
    expect(report.rules[0]).toMatchObject({ verdict: 'fail' });
    expect(report.rules[0].reason).toContain('it sees no effect');
  }, 60_000);

  it('a reference server whose notes keep no de-duplication makes the notes probe pass, and so is named', async () => {
    const [notes] = observed.filter((e) => e.id === 'createNotes');
    const rules = defineRules('probes', [probeFails(notes, CATALOGUE.drivers.createNotes)]);
    const { report } = await runAgainstReference(
      { auth: 'token', fault: 'notes.no-dedup' },
      { rules, seed: 3, numRuns: 1 },
    );
    expect(report.rules[0].verdict).toBe('fail');
  }, 60_000);
});
